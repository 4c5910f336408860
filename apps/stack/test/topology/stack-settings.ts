import { freePort } from '@cp/http-runtime/testing';

export interface StackUrls {
  readonly auth: string;
  readonly mcp: string;
  readonly delivery: string;
  readonly dashboard: string;
  readonly worker: string;
}

export interface FreeStackSettings {
  readonly urls: StackUrls;
  readonly s3Port: number;
  readonly settings: Record<string, string>;
}

/** Settings for a whole embedded stack on free loopback ports, wired to each other as `pnpm start` wires them. */
export async function freeStackSettings(): Promise<FreeStackSettings> {
  const [auth, mcp, delivery, dashboard, worker, s3Port] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
  const urls = {
    auth: `http://127.0.0.1:${auth}`,
    mcp: `http://127.0.0.1:${mcp}/mcp`,
    delivery: `http://127.0.0.1:${delivery}`,
    dashboard: `http://127.0.0.1:${dashboard}`,
    worker: `http://127.0.0.1:${worker}`,
  };
  const settings = {
    ...Object.fromEntries(['AUTH_HOST', 'MCP_HOST', 'DELIVERY_HOST', 'DASHBOARD_HOST', 'WORKER_HOST'].map((name) => [name, '127.0.0.1'])),
    AUTH_PORT: String(auth),
    AUTH_ISSUER: urls.auth,
    MCP_PORT: String(mcp),
    MCP_PUBLIC_URL: urls.mcp,
    DELIVERY_PORT: String(delivery),
    DELIVERY_PUBLIC_URL: urls.delivery,
    DELIVERY_API_URL: urls.delivery,
    DASHBOARD_PORT: String(dashboard),
    DASHBOARD_URL: urls.dashboard,
    WORKER_PORT: String(worker),
    LOG_LEVEL: 'silent',
  };
  return { urls, s3Port, settings };
}

/**
 * Starts on free ports, and again on fresh ones when a port was taken between the
 * probe and the listen: tests run beside other processes, and any outgoing
 * connection may get one of the probed ephemeral ports as its local port.
 */
export async function startOnFreePorts<T>(start: (free: FreeStackSettings) => Promise<T>): Promise<{ free: FreeStackSettings; started: T }> {
  for (let attempt = 1; ; attempt++) {
    const free = await freeStackSettings();
    try {
      return { free, started: await start(free) };
    } catch (error) {
      if (attempt === 3 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
}
