import { pino, type Logger } from 'pino';

export type { Logger };

const REDACT = ['req.headers.cookie', '*.code', '*.code_verifier', '*.client_secret', '*.id_token', '*.access_token'];

export function createLogger(options: { level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    { name: 'dashboard', level: options.level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, redact: { paths: REDACT, censor: '[redacted]' } },
    options.destination,
  );
}

export const silentLogger = (): Logger => pino({ level: 'silent' });
