import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';

/**
 * The WASM engine does not dispose the connections it opened when it is freed,
 * so a pool (and its session on the server) would outlive `migrate()`: that keeps
 * Node running and blocks `CREATE DATABASE ... TEMPLATE`. This wrapper remembers
 * every connection handed to the engine and `disposeAll()` closes what is left
 * (each at most once, whether or not the engine disposed it already).
 */
export function trackAdapters(factory: SqlMigrationAwareDriverAdapterFactory): {
  factory: SqlMigrationAwareDriverAdapterFactory;
  disposeAll(): Promise<void>;
} {
  const open = new Set<() => Promise<void>>();

  const track = (adapter: SqlDriverAdapter): SqlDriverAdapter => {
    let disposed: Promise<void> | undefined;
    const dispose = () => {
      disposed ??= adapter.dispose().finally(() => open.delete(dispose));
      return disposed;
    };
    open.add(dispose);
    return Object.assign(Object.create(adapter) as SqlDriverAdapter, { dispose });
  };

  return {
    factory: {
      provider: factory.provider,
      adapterName: factory.adapterName,
      connect: async () => track(await factory.connect()),
      connectToShadowDb: async () => track(await factory.connectToShadowDb()),
    },
    async disposeAll() {
      await Promise.allSettled([...open].map((dispose) => dispose()));
    },
  };
}
