/**
 * Child process of run.ts: the baseline server (baseline-server.ts) on its own,
 * so it is measured exactly like the app (its own process, its own event loop,
 * reached over loopback from the load generator). Prints one JSON line { url }
 * when ready; stops on SIGTERM.
 */
import { startBaseline } from './baseline-server.js';

const baseline = await startBaseline();
process.stdout.write(`${JSON.stringify({ url: baseline.url })}\n`);

process.on('SIGTERM', () => {
  void baseline.close().then(() => process.exit(0));
});
