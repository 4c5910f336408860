import { pino, type Logger } from 'pino';

export type { Logger };

/*
 * Tokens, codes, passwords and cookies must never reach a log. Request fields are
 * picked by hand (never whole headers or bodies), and these paths are redacted in
 * case a caller logs one anyway.
 */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.code',
  '*.refresh_token',
  '*.access_token',
  '*.code_verifier',
  '*.client_secret',
];

export function createLogger(options: { level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      name: 'auth-server',
      level: options.level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT, censor: '[redacted]' },
    },
    options.destination,
  );
}

/** A logger that drops everything (tests that do not look at logs). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
