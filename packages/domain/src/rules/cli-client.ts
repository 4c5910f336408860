/**
 * The platform's own command line, `cpc`: a client configured in the auth server (not registered), so
 * no stored row names it. Its logins are connected applications like any other, shown under this name.
 */
export const CLI_CLIENT_ID = 'cpc';
export const CLI_CLIENT_NAME = 'cpc (command line)';
