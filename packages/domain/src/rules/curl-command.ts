/** Quotes one word for POSIX sh, bash and zsh alike: single quotes, with `'` written as `'\''`. */
export const shellQuote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * The command an upload hands out: one line, runnable as-is in sh, bash and zsh,
 * that PUTs ./dist/index.html as the raw body. `--fail` makes curl exit non-zero
 * when the URL has expired or was altered (`--fail-with-body` would show the
 * storage error too, but needs curl 7.76+, which older LTS systems lack).
 */
export const curlUploadCommand = (presignedUrl: string, file = './dist/index.html'): string =>
  `curl --fail -sS -X PUT -H 'Content-Type: text/html' --data-binary ${shellQuote(`@${file}`)} ${shellQuote(presignedUrl)}`;
