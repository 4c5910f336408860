import type { DestinationStream } from 'pino';
import { createLogger, type Logger } from './log.js';
import { exitOnSignal } from './shutdown.js';

/** Something a service holds open until it stops: its server, a pool, a client. */
export interface Closable {
  close(): Promise<void>;
}

/** What `runService` reads of a service's settings. */
export interface ServiceSettings {
  readonly logLevel: string;
  readonly shutdownGraceSeconds: number;
}

/**
 * main.ts: `start` opens what the service uses and starts it, logging as `service`; a failure
 * there is logged and exits 1. On SIGTERM or SIGINT what `start` returned is closed one after
 * the other, in its order: the service first (it drains, within `shutdownGraceSeconds`), then
 * what its requests were using.
 */
export async function runService<Settings extends ServiceSettings>(options: {
  /** The log's `name`. */
  service: string;
  /** As the failure reads: "cannot start <name>". */
  name: string;
  settings: Settings;
  start: (settings: Settings, log: Logger) => Promise<readonly Closable[]>;
  /** Where the log goes; default stdout. */
  destination?: DestinationStream;
}): Promise<void> {
  const { settings } = options;
  const log = createLogger({ service: options.service, level: settings.logLevel, destination: options.destination });
  let opened: readonly Closable[];
  try {
    opened = await options.start(settings, log);
  } catch (error) {
    log.fatal({ err: error }, `cannot start ${options.name}`);
    process.exit(1);
  }
  exitOnSignal({
    log,
    graceSeconds: settings.shutdownGraceSeconds,
    close: async () => {
      for (const each of opened) await each.close();
    },
  });
}
