/** Quotes one word for POSIX sh, bash and zsh alike: single quotes, with `'` written as `'\''`. */
export const shellQuote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * The command an upload hands out: one line, runnable as-is in sh, bash and zsh,
 * that PUTs ./dist/index.html as the raw body. `--fail-with-body` makes curl exit
 * non-zero (showing the storage error) when the URL has expired or was altered.
 */
export const curlUploadCommand = (presignedUrl: string, file = './dist/index.html'): string =>
  `curl --fail-with-body -sS -X PUT -H 'Content-Type: text/html' --data-binary ${shellQuote(`@${file}`)} ${shellQuote(presignedUrl)}`;
