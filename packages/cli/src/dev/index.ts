import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { basename, resolve } from 'node:path';
import { defaultDomainConfig } from '@cp/domain';
import { consumeAnswerOf, type ConsumeAnswer, type DevComponent } from './consume-answer.js';
import type { ConsumeState } from './consume-endpoint.js';
import { checkComponentFile, type FileCheck } from './contract-checks.js';
import type { ContractProblem } from './contract-problems.js';
import { ComponentVersions } from './component-versions.js';
import { DEV_PAGE_CSP, renderDevPage } from './dev-page.js';
import { DEV_PAGE_SCRIPT } from './dev-page-script.js';
import { devRoutes, SDK_PATH } from './dev-routes.js';
import { DevServerError } from './errors.js';
import { eventStreams } from './event-streams.js';
import { watchFile } from './file-watcher.js';
import { readHostSdkFiles, type HostSdkFiles } from './host-sdk-files.js';
import { openBrowser } from './open-browser.js';

export { DevServerError, type DevServerErrorCode } from './errors.js';
export type { ContractProblem, ContractProblemKind } from './contract-problems.js';

/** Beside the platform's own ports (4000-4600). */
export const DEFAULT_DEV_PORT = 4700;

/** Where the dev server reports: `console` fits (info to stdout, problems to stderr). */
export interface DevLog {
  info(message: string): void;
  error(message: string): void;
}

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
  /** How the page is opened (tests replace it). */
  readonly openUrl?: (url: string) => void;
  /** The built host SDK (tests and the bench read the workspace's). */
  readonly hostSdk?: HostSdkFiles;
}

export interface DevServer {
  /** The dev page, `http://127.0.0.1:<port>/`. */
  readonly url: string;
  close(): Promise<void>;
}

// Not `instanceof Error`: Node's own errors may come from another realm (a test's VM context).
const isNodeError = (error: unknown): error is NodeJS.ErrnoException => typeof error === 'object' && error !== null && 'code' in error;

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

async function checkFile(path: string, maxBytes: number): Promise<FileCheck> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const reason = isNodeError(error) && error.code === 'ENOENT' ? 'is gone (deleted or renamed)' : `cannot be read (${isNodeError(error) ? error.code : 'unknown error'})`;
    return { ok: false, problems: [{ kind: 'missing', message: `${path} ${reason}. Save it again.` }] };
  }
  return checkComponentFile(bytes, maxBytes);
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
  const sdk = options.hostSdk ?? readHostSdkFiles();
  const maxBytes = options.maxUploadBytes ?? defaultDomainConfig.maxUploadBytes;
  const name = basename(file);
  const component: DevComponent = { id: randomUUID(), name, organizationId: randomUUID() };
  const versions = new ComponentVersions();
  const changes = eventStreams();
  const statusStreams = eventStreams();
  let answer: ConsumeAnswer | null = null;
  let changeCount = 0;
  const changeId = (): string => `${component.id.slice(0, 8)}-${changeCount}`;
  let url = '';

  const publishStatus = (): void => statusStreams.broadcast('status', JSON.stringify(versions.status()));
  const reportProblems = (problems: readonly ContractProblem[]): void => {
    const good = versions.current();
    log.error(`${name} breaks the component contract; ${good ? `still serving ${good.name}, the last good version` : 'nothing is served until it is fixed'}:`);
    for (const problem of problems) log.error(`  - ${problem.message}`);
  };

  const onVerdict = (revision: number, problems: readonly ContractProblem[]): void => {
    const outcome = versions.verdict(revision, problems);
    if (outcome === 'stale') return;
    if (outcome === 'promoted') {
      const good = versions.current()!;
      answer = consumeAnswerOf(component, good);
      changeCount++;
      changes.broadcast('change', JSON.stringify({ id: component.id }), changeId());
      log.info(`${name}: serving ${good.name} (${good.document.size} bytes); the page swaps it in.`);
    } else reportProblems(problems);
    publishStatus();
  };

  let started = false;
  let reading = Promise.resolve();
  // One read at a time, in order; a failure is reported and the next save is read as usual.
  const read = (): Promise<void> =>
    (reading = reading
      .then(async () => {
        const outcome = versions.read(await checkFile(file, maxBytes));
        if (outcome === 'broken') reportProblems(versions.status().problems);
        if (outcome === 'candidate' && started && statusStreams.size === 0) log.info(`${name} passes the file checks: open ${url} to run it.`);
        publishStatus();
      })
      .catch((error: unknown) => log.error(`Reading ${file} failed: ${error instanceof Error ? error.message : String(error)}`)));

  const consume = (): ConsumeState => {
    if (answer !== null) return { answer };
    const { problems } = versions.status();
    return {
      answer: null,
      why: problems.length > 0 ? `${name} breaks the component contract: ${problems[0]!.message}` : `${name} has not been run by the dev page yet: open ${url}.`,
    };
  };

  let handle: ReturnType<typeof devRoutes> = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  const port = await listen(server, options.port ?? DEFAULT_DEV_PORT, host);
  const origin = `http://${host}:${port}`;
  url = `${origin}/`;
  handle = devRoutes({
    origin,
    hosts: new Set([`${host}:${port}`, `localhost:${port}`]),
    page: {
      html: Buffer.from(renderDevPage({ fileName: name, componentId: component.id, framePath: sdk.frame.path, sdkPath: SDK_PATH })),
      script: Buffer.from(DEV_PAGE_SCRIPT),
      csp: DEV_PAGE_CSP,
    },
    sdk,
    component,
    consume,
    changes,
    changeId,
    statusStreams,
    status: () => versions.status(),
    onVerdict,
  });

  const unwatch = watchFile(file, () => void read(), (error) => log.error(`Watching ${file} failed: ${error.message}`));
  await read();
  started = true;
  log.info(`cpc dev: ${url} renders ${file} (Ctrl+C stops).`);
  if (options.open) (options.openUrl ?? ((target) => openBrowser(target, (error) => log.error(`Could not open a browser (${error.message}): open ${target}`))))(url);

  return {
    url,
    async close() {
      unwatch();
      changes.closeAll();
      statusStreams.closeAll();
      await reading;
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    },
  };
}
