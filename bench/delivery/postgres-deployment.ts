import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../packages/http-runtime/src/testing/free-port.js';
import { type Child, startNode, waitFor200 } from './child.js';
import { cleanEnv, type Deployment, profileArgs, repoPath, TSX } from './deployment.js';
import { pg } from './resolve.js';

/**
 * The delivery API alone, as deployed: its production entry (src/main.ts) in its
 * own process with NODE_ENV=production, DATABASE_URL naming a fresh database the
 * bench creates (migrated and seeded the way a deploy and the MCP tools do) and
 * drops, objects in the embedded S3 server of a helper process. With
 * `cacheMaxBytes: 0` every request takes the miss path.
 */
export async function startPostgresDeployment(options: {
  serverUrl: string;
  profileDir?: string;
  /** A command the delivery process runs under (instructions.ts: callgrind), given its name. */
  wrapper?: (name: string) => string[];
  /** More settings of the delivery process (bench/usage trusts loopback's X-Forwarded-For). */
  env?: Record<string, string>;
  /** Also seed a component with a rollout running (bench/delivery/rollout.ts): its id is `componentIds.rollout`. */
  rollout?: boolean;
}): Promise<Deployment & { startUncached(): Promise<Deployment>; readonly databaseUrl: string; readonly componentIds: Record<string, string> }> {
  const admin = new pg.Client({ connectionString: options.serverUrl });
  await admin.connect().catch((error: unknown) => {
    throw new Error(`PostgreSQL is not reachable at ${options.serverUrl} (set BENCH_POSTGRES_URL): ${(error as Error).message}`);
  });
  const database = `cp_bench_delivery_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = new URL(options.serverUrl);
  databaseUrl.pathname = `/${database}`;
  const s3Dir = await mkdtemp(join(tmpdir(), 'cp-bench-s3-'));
  const children: Child[] = [];
  const stopAll = async () => {
    for (const child of children.reverse()) await child.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    await rm(s3Dir, { recursive: true, force: true });
  };
  try {
    const objects = await startNode('objects', [...TSX, repoPath('bench/delivery/seed.ts'), JSON.stringify({ kind: 'postgres', databaseUrl: databaseUrl.href, s3Dir }), '--serve-objects', ...(options.rollout ? ['--rollout'] : [])], {
      cwd: repoPath('apps/delivery-api'),
      env: cleanEnv(),
    });
    children.push(objects);
    const { ids, s3 } = JSON.parse(objects.firstLine) as { ids: { small: string; large: string } & Record<string, string>; s3: Record<string, string> };
    const paths = { small: `/consume?id=${ids.small}&env=prod`, large: `/consume?id=${ids.large}&env=prod` };
    const databasePids = async () => {
      const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
      return rows.map((row: { pid: number }) => row.pid);
    };

    const startDelivery = async (name: string, extraEnv: Record<string, string>): Promise<Deployment> => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const server = await startNode(name, [...profileArgs(options.profileDir, name), ...TSX, 'src/main.ts'], {
        cwd: repoPath('apps/delivery-api'),
        env: { ...cleanEnv(), NODE_ENV: 'production', DATABASE_URL: databaseUrl.href, ...s3, DELIVERY_PORT: String(port), DELIVERY_PUBLIC_URL: `http://localhost:${port}`, ...extraEnv },
        ready: /delivery API listening/,
        wrapper: options.wrapper?.(name),
        timeoutMs: options.wrapper ? 900_000 : undefined,
      });
      children.push(server);
      const loadMs = options.wrapper ? 900_000 : undefined;
      await Promise.all([waitFor200(url + paths.small, loadMs), waitFor200(url + paths.large, loadMs)]);
      return { name, url, paths, serverPid: server.pid, databasePids, stop: () => server.stop() };
    };

    const cached = await startDelivery('delivery-api', options.env ?? {});
    return {
      ...cached,
      databaseUrl: databaseUrl.href,
      componentIds: ids,
      name: 'delivery API alone (PostgreSQL)',
      startUncached: () => startDelivery('delivery-api-uncached', { DELIVERY_CACHE_MAX_BYTES: '0' }),
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
