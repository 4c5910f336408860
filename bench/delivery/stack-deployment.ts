import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeStackSettings } from '../../apps/stack/test/topology/stack-settings.js';
import { startNode, waitFor200 } from './child.js';
import { cleanEnv, type Deployment, profileArgs, repoPath, TSX } from './deployment.js';

/**
 * `/consume` in the stack of `pnpm start`: apps/stack's entry in its own
 * process (every service in one Node process on PGlite and the embedded S3
 * server), its data in a temporary folder (STACK_ROOT) seeded beforehand with
 * the two components, every service on a free port.
 */
export async function startStackDeployment(options: { profileDir?: string }): Promise<Deployment> {
  const root = await mkdtemp(join(tmpdir(), 'cp-bench-stack-'));
  try {
    const seeded = await startNode('seed', [...TSX, repoPath('bench/delivery/seed.ts'), JSON.stringify({ kind: 'stack', root })], {
      cwd: repoPath('apps/delivery-api'),
      env: cleanEnv(),
    });
    const { ids } = JSON.parse(seeded.firstLine) as { ids: { small: string; large: string } };
    await seeded.stop();

    const { urls, s3Port, settings } = await freeStackSettings();
    const url = urls.delivery;
    const stack = await startNode('stack', [...profileArgs(options.profileDir, 'stack'), ...TSX, 'src/start.ts'], {
      cwd: repoPath('apps/stack'),
      // The log level `pnpm start` runs at, not the tests' silence.
      env: { ...cleanEnv(), ...settings, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', STACK_ROOT: root, S3_EMBEDDED_PORT: String(s3Port) },
      ready: /^Component platform is running/,
    });
    const paths = { small: `/consume?id=${ids.small}&env=prod`, large: `/consume?id=${ids.large}&env=prod` };
    await Promise.all([waitFor200(url + paths.small), waitFor200(url + paths.large)]);
    return {
      name: 'pnpm start stack (PGlite)',
      url,
      paths,
      serverPid: stack.pid,
      databasePids: async () => [],
      async stop() {
        await stack.stop();
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}
