import { exitOnSignal, type ShutdownLog } from './shutdown.js';

/** What `runService` needs of a logger (pino's shape). */
export interface ServiceLog extends ShutdownLog {
  fatal(obj: object, msg: string): void;
}

/** Something a service holds open until it stops: its server, a pool, a client. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * main.ts: `start` opens what the service uses and starts it; a failure there is logged
 * and exits 1. On SIGTERM or SIGINT what `start` returned is closed one after the other,
 * in its order: the service first (it drains), then what its requests were using.
 */
export async function runService(options: {
  log: ServiceLog;
  /** As the failure reads: "cannot start <name>". */
  name: string;
  graceSeconds: number;
  start: () => Promise<readonly Closable[]>;
}): Promise<void> {
  const { log } = options;
  let opened: readonly Closable[];
  try {
    opened = await options.start();
  } catch (error) {
    log.fatal({ err: error }, `cannot start ${options.name}`);
    process.exit(1);
  }
  exitOnSignal({
    log,
    graceSeconds: options.graceSeconds,
    close: async () => {
      for (const each of opened) await each.close();
    },
  });
}
