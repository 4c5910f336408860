import { isUnavailable, RELEASE_ARM, type Clock, type ExportStore, type Repositories } from '@cp/domain';
import { jsonBody, JSON_CONTENT_TYPE } from '../consume-body.js';
import { consumeResponseOf, variantArmsOf, withDescriptor } from '../consume-item.js';
import type { ConsumeResponse } from '../consume-schemas.js';
import type { VariantLoaders } from '../variant-loaders.js';
import {
  armPath,
  componentPath,
  EXPORT_CACHE_CONTROL,
  FRAME_FOLDER,
  IMMUTABLE_CACHE_CONTROL,
  MANIFEST_PATH,
  organizationFolder,
} from './export-layout.js';
import type { FrameDocument } from './frame-document.js';
import { FRAME_WRITTEN, manifestOf, objectSignature, writtenBy, type ExportedEnvironment } from './manifest.js';

export interface StaticExportDeps {
  readonly repos: Pick<Repositories, 'staticExports' | 'assignments' | 'variants'>;
  readonly loaders: VariantLoaders;
  /** The export bucket. */
  readonly store: ExportStore;
  readonly clock: Clock;
  /** EXPORT_PREFIX: empty or ending with `/`. */
  readonly prefix: string;
  /** The host SDK's frame document (`frameDocumentOf`), written into each organization's folder. */
  readonly frameDocument: FrameDocument;
}

/** One job of the `static-export` queue: everything of one organization. */
export interface StaticExportJob {
  readonly organizationId: string;
  /** Write every object again, whatever the last manifest says (turning the export on). */
  readonly full?: boolean;
}

export interface StaticExportRun {
  readonly outcome: 'exported' | 'removed';
  readonly written: number;
  readonly removed: number;
}

const HEADERS = { contentType: JSON_CONTENT_TYPE, cacheControl: EXPORT_CACHE_CONTROL };
const FRAME_HEADERS = { contentType: 'text/html; charset=utf-8', cacheControl: IMMUTABLE_CACHE_CONTROL };
// Releases that keep changing under a run: give up and let the queue retry later.
const MAX_ROUNDS = 5;
const MAX_ERROR_LENGTH = 500;

/** One object to write: what its bytes depend on, and how to make them. */
interface WantedObject {
  readonly signature: string;
  readonly body: () => Promise<ConsumeResponse>;
}

/**
 * Brings an organization's folder in the export bucket in line with its current releases (and,
 * where an experience or a rollout is live, its descriptor and one object per arm), or
 * empties it when the export is off (or the organization gone). Idempotent and safe to run
 * concurrently: a run reads the releases again after writing and repeats until what it read
 * did not change, so whichever run writes last has checked its writes against the database
 * afterwards, and retries or runs out of order converge on the latest release. A failure is
 * recorded on the organization (the dashboard shows it) and thrown, for the queue to retry.
 */
export async function runStaticExport(
  job: StaticExportJob,
  deps: StaticExportDeps,
): Promise<StaticExportRun> {
  const { organizationId } = job;
  const folder = organizationFolder(deps.prefix, organizationId);
  const state = await deps.repos.staticExports.find(organizationId);
  if (!state.enabled)
    return { outcome: 'removed', written: 0, removed: await removeAll(folder, deps.store) };
  try {
    const run = await exportOrganization(job, folder, deps);
    await deps.repos.staticExports.recordRun(organizationId, { at: deps.clock.now(), error: null });
    return run;
  } catch (error) {
    // The dashboard shows it: an outage is named, not the store's address.
    const message = isUnavailable(error)
      ? `The ${error.dependency} was unavailable.`
      : (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH);
    await deps.repos.staticExports.recordRun(organizationId, {
      at: deps.clock.now(),
      error: message,
    });
    throw error;
  }
}

async function exportOrganization(
  job: StaticExportJob,
  folder: string,
  deps: StaticExportDeps,
): Promise<StaticExportRun> {
  const { store } = deps;
  // What each path holds, as far as this run knows: its own writes first, then the last manifest's word.
  const own = new Map<string, string>();
  const previous = job.full
    ? new Map<string, string>()
    : writtenBy(parseJson(await store.readIfPresent(folder + MANIFEST_PATH)));
  let written = 0;
  let removed = 0;
  const frame = deps.frameDocument;
  if (previous.get(frame.path) !== FRAME_WRITTEN) {
    await store.put(folder + frame.path, frame.html, FRAME_HEADERS);
    written += 1;
  }
  let exported = await readExported(job.organizationId, deps);
  for (let round = 1; ; round += 1) {
    const wanted = wantedObjects(exported, deps);
    for (const [path, object] of wanted) {
      if ((own.get(path) ?? previous.get(path)) === object.signature) continue;
      await store.put(folder + path, jsonBody(await object.body()), HEADERS);
      own.set(path, object.signature);
      written += 1;
    }
    // Arm objects of an assignment that ended go with every other object nothing wants.
    for (const key of await store.list(folder)) {
      const path = key.slice(folder.length);
      // Frame documents of earlier builds stay: an SDK file pinned to one loads its own.
      if (path === MANIFEST_PATH || path.startsWith(FRAME_FOLDER) || wanted.has(path)) continue;
      await store.remove(key);
      own.set(path, 'removed');
      removed += 1;
    }
    await store.put(
      folder + MANIFEST_PATH,
      jsonBody(manifestOf(job.organizationId, exported, frame.path, deps.clock.now())),
      HEADERS,
    );
    const after = await readExported(job.organizationId, deps);
    if (sameExported(exported, after)) return { outcome: 'exported', written, removed };
    if (round === MAX_ROUNDS)
      throw new Error(
        `the releases changed during each of ${MAX_ROUNDS} export rounds; the job will run again`,
      );
    exported = after;
  }
}

/** The current releases with what is live on each (one read at a time: an export is background work). */
async function readExported(organizationId: string, deps: StaticExportDeps): Promise<ExportedEnvironment[]> {
  const exported: ExportedEnvironment[] = [];
  for (const release of await deps.repos.staticExports.listReleased(organizationId)) {
    const assignment = await deps.repos.assignments.findLive(release.component.id, release.environmentName);
    exported.push({ release, assignment });
  }
  return exported;
}

/** By path: each environment's fallback, and each arm of a live assignment. */
function wantedObjects(exported: readonly ExportedEnvironment[], deps: StaticExportDeps): Map<string, WantedObject> {
  const wanted = new Map<string, WantedObject>();
  for (const { release, assignment } of exported) {
    const { component, environmentName } = release;
    const revision = assignment?.revision ?? null;
    wanted.set(componentPath(component.id, environmentName), {
      signature: objectSignature(release.variant.id, component.name, revision),
      body: async () => {
        const response = await consumeResponseOf(component, release.variant, deps);
        return assignment === null ? response : withDescriptor(response, assignment, RELEASE_ARM);
      },
    });
    if (assignment === null) continue;
    for (const [arm, variantId] of variantArmsOf(assignment)) {
      wanted.set(armPath(component.id, environmentName, arm), {
        signature: objectSignature(variantId, component.name, revision),
        body: async () => {
          const variant = await deps.repos.variants.findById(variantId);
          if (variant === null) throw new Error(`variant ${variantId} of arm ${arm} was not found; the job will run again`);
          return withDescriptor(await consumeResponseOf(component, variant, deps), assignment, arm);
        },
      });
    }
  }
  return wanted;
}

async function removeAll(folder: string, store: ExportStore): Promise<number> {
  const keys = await store.list(folder);
  for (const key of keys) await store.remove(key);
  return keys.length;
}

const signatureOf = ({ release, assignment }: ExportedEnvironment): string =>
  `${release.component.id}:${release.environmentName}:${objectSignature(release.variant.id, release.component.name, assignment?.revision ?? null)}`;

const sameExported = (a: readonly ExportedEnvironment[], b: readonly ExportedEnvironment[]): boolean =>
  a.length === b.length && a.every((entry, i) => signatureOf(entry) === signatureOf(b[i]!));

const parseJson = (bytes: Uint8Array | null): unknown => {
  if (bytes === null) return null;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null; // an unreadable manifest is rewritten, with every object
  }
};
