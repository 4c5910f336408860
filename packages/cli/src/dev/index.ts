import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { basename, resolve } from 'node:path';
import { defaultDomainConfig } from '@cp/domain';
import type { DevComponent } from './consume-answer.js';
import { DEV_PAGE_CSP, renderDevPage } from './dev-page.js';
import { DEV_PAGE_SCRIPT } from './dev-page-script.js';
import { devRoutes, SDK_PATH } from './dev-routes.js';
import { devSession, isNodeError, type DevLog } from './dev-session.js';
import { DevServerError } from './errors.js';
import { watchFile } from './file-watcher.js';
import { readHostSdkFiles } from './host-sdk-files.js';
import { openBrowser } from './open-browser.js';

export { DevServerError, type DevServerErrorCode } from './errors.js';
export type { ContractProblem, ContractProblemKind } from './contract-problems.js';
export type { DevLog } from './dev-session.js';

/** Beside the platform's own ports (4000-4600). */
export const DEFAULT_DEV_PORT = 4700;

export interface DevServerOptions {
  /** The component's HTML file (a built dist/index.html). */
  readonly file: string;
  /** Default DEFAULT_DEV_PORT; 0 takes a free one. */
  readonly port?: number;
  /** The only address served: never another interface. */
  readonly host?: '127.0.0.1';
  /** Open the page in the person's browser. */
  readonly open?: boolean;
  readonly log: DevLog;
  /** The upload limit the file is held to; default the platform's (DomainConfig). */
  readonly maxUploadBytes?: number;
  /** How the page is opened; default the system's browser. */
  readonly openUrl?: (url: string) => void;
}

export interface DevServer {
  /** The dev page, `http://127.0.0.1:<port>/`. */
  readonly url: string;
  close(): Promise<void>;
}

async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((done, fail) => {
    server.once('error', (error) => {
      if (isNodeError(error) && error.code === 'EADDRINUSE') {
        fail(new DevServerError('PORT_IN_USE', `Port ${port} on ${host} is in use: stop what listens there, or choose another port (--port).`));
      } else fail(error);
    });
    server.listen(port, host, () => done());
  });
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : port;
}

/**
 * `cpc dev <file>`: serves one component file to a dev page that renders it through the real
 * host SDK (`<cp-component live>`), on 127.0.0.1 only. Each save is checked (the upload's rules and
 * a doctype), then run by the dev page in a probe frame; only a version that passes both is served
 * on /consume and announced on /changes, so the page swaps it in place with its data, and a broken
 * save leaves the last good version on show while page and terminal say what is wrong.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const host = options.host ?? '127.0.0.1';
  if (host !== '127.0.0.1') throw new DevServerError('INVALID_OPTIONS', 'The dev server listens on 127.0.0.1 only.');
  const file = resolve(options.file);
  const fileStat = await stat(file).catch(() => null);
  if (fileStat === null || !fileStat.isFile()) throw new DevServerError('FILE_NOT_FOUND', `${file} is not a file: give the component's HTML file (e.g. dist/index.html).`);
  const { log } = options;
  const sdk = readHostSdkFiles();
  const component: DevComponent = { id: randomUUID(), name: basename(file), organizationId: randomUUID() };
  const session = devSession({ file, component, maxBytes: options.maxUploadBytes ?? defaultDomainConfig.maxUploadBytes, log });

  // The routes need the port, known once listening; nothing is accepted before that.
  let handle: ReturnType<typeof devRoutes> = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  const port = await listen(server, options.port ?? DEFAULT_DEV_PORT, host);
  const origin = `http://${host}:${port}`;
  const url = `${origin}/`;
  handle = devRoutes({
    origin,
    hosts: new Set([`${host}:${port}`, `localhost:${port}`]),
    page: {
      html: Buffer.from(renderDevPage({ fileName: component.name, componentId: component.id, framePath: sdk.frame.path, sdkPath: SDK_PATH })),
      script: Buffer.from(DEV_PAGE_SCRIPT),
      csp: DEV_PAGE_CSP,
    },
    sdk,
    component,
    session,
  });

  const unwatch = watchFile(file, () => void session.read(), (error) => log.error(`Watching ${file} failed: ${error.message}`));
  await session.read();
  session.started(url);
  if (options.open) (options.openUrl ?? ((target) => openBrowser(target, (error) => log.error(`Could not open a browser (${error.message}): open ${target}`))))(url);

  return {
    url,
    async close() {
      unwatch();
      session.changes.closeAll();
      session.statusStreams.closeAll();
      await session.settled();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    },
  };
}
