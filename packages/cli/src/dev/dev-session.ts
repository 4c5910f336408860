import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { consumeAnswerOf, type ConsumeAnswer, type DevComponent } from './consume-answer.js';
import type { ConsumeState } from './consume-endpoint.js';
import { checkComponentFile, type FileCheck } from './contract-checks.js';
import type { ContractProblem } from './contract-problems.js';
import { ComponentVersions, type DevStatus } from './component-versions.js';
import { eventStreams, type EventStreams } from './event-streams.js';

/** Where the dev server reports: `console` fits (info to stdout, problems to stderr). */
export interface DevLog {
  info(message: string): void;
  error(message: string): void;
}

export interface DevSession {
  /** Reads the file again (after a save); reads run one at a time, in order. */
  read(): Promise<void>;
  /** The dev page's verdict on a candidate. */
  onVerdict(revision: number, problems: readonly ContractProblem[]): void;
  consume(): ConsumeState;
  /** What the dev pages are sent: the versions' status, and which run of the server this is. */
  status(): DevStatus & { readonly server: string };
  /** The SDK's change streams, and the id of the latest change event. */
  readonly changes: EventStreams;
  changeId(): string;
  /** The dev pages' status streams. */
  readonly statusStreams: EventStreams;
  /** Once the server listens: where the page is, for the messages that send people there. */
  started(url: string): void;
  /** Resolves once the reads under way are done. */
  settled(): Promise<void>;
}

// Not `instanceof Error`: Node's own errors may come from another realm (a test's VM context).
export const isNodeError = (error: unknown): error is NodeJS.ErrnoException => typeof error === 'object' && error !== null && 'code' in error;

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
 * One watched file's session: each read checked, each candidate served once the dev page ran it
 * clean (the /consume answer built, a change announced), every outcome told to the dev pages and
 * to the terminal.
 */
export function devSession(options: { file: string; component: DevComponent; maxBytes: number; log: DevLog }): DevSession {
  const { file, component, log } = options;
  const name = component.name;
  const versions = new ComponentVersions();
  const changes = eventStreams();
  const statusStreams = eventStreams();
  let answer: ConsumeAnswer | null = null;
  let changeCount = 0;
  let url: string | null = null;
  let reading = Promise.resolve();
  const changeId = (): string => `${component.id.slice(0, 8)}-${changeCount}`;
  // A page still open from an earlier run of `cpc dev` names another component: it reloads on seeing this change.
  const server = randomUUID();
  const status = () => ({ ...versions.status(), server });

  const publishStatus = (): void => statusStreams.broadcast('status', JSON.stringify(status()));
  const reportProblems = (problems: readonly ContractProblem[]): void => {
    const good = versions.current();
    log.error(`${name} breaks the component contract; ${good ? `still serving ${good.name}, the last good version` : 'nothing is served until it is fixed'}:`);
    for (const problem of problems) log.error(`  - ${problem.message}`);
  };

  return {
    read: () =>
      (reading = reading
        .then(async () => {
          const outcome = versions.read(await checkFile(file, options.maxBytes));
          if (outcome === 'broken') reportProblems(versions.status().problems);
          if (outcome === 'candidate' && url !== null && statusStreams.size === 0) log.info(`${name} passes the file checks: open ${url} to run it.`);
          publishStatus();
        })
        // Reported; the next save is read as usual.
        .catch((error: unknown) => log.error(`Reading ${file} failed: ${error instanceof Error ? error.message : String(error)}`))),
    onVerdict(revision, problems) {
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
    },
    consume() {
      if (answer !== null) return { answer };
      const { problems } = versions.status();
      return {
        answer: null,
        why: problems.length > 0 ? `${name} breaks the component contract: ${problems[0]!.message}` : `${name} has not been run by the dev page yet: open ${url ?? 'the dev page'}.`,
      };
    },
    status,
    changes,
    changeId,
    statusStreams,
    started(at) {
      url = at;
    },
    settled: () => reading,
  };
}
