import type { ConnectionInfo, SqlDriverAdapter } from '@prisma/driver-adapter-utils';
import { scriptError } from './script-errors.js';

/**
 * `adapter` for the migration engine: queries and transactions go to it as they
 * are, but a migration script is handed whole to `runScript` (awaited, its error
 * reported as the engine expects), and disposing runs `dispose`.
 */
export function withWholeScripts(
  adapter: SqlDriverAdapter,
  options: {
    runScript: (script: string) => Promise<unknown>;
    connectionInfo: () => ConnectionInfo;
    dispose: () => Promise<void>;
  },
): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => adapter.queryRaw(query),
    executeRaw: (query) => adapter.executeRaw(query),
    startTransaction: (isolationLevel) => adapter.startTransaction(isolationLevel),
    getConnectionInfo: options.connectionInfo,
    async executeScript(script) {
      try {
        await options.runScript(script);
      } catch (error) {
        throw scriptError(error);
      }
    },
    dispose: options.dispose,
  };
}
