import type { UploadResult, UploadSession } from '../../entities/upload-session.js';
import { UploadState } from '../../entities/upload-session.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { inspectHtmlDocument } from '../../rules/html-document.js';
import { isUuid } from '../../rules/ids.js';
import { Permission } from '../../rules/roles.js';
import { auditNote } from '../access/audit-note.js';
import { requirePermission } from '../access/require-permission.js';
import { variantKey } from './upload-keys.js';

/**
 * Step 2 of an upload. Idempotent: confirming a confirmed session returns its
 * stored result. Order matters for "nothing is lost, nothing half-written":
 * 1. copy the staged object to its immutable variant key, then check and hash
 *    *that* copy (a second PUT to the still-valid URL cannot change what we keep);
 * 2. one atomic repository write creates the component (when new), the variant
 *    and the stored result;
 * 3. only then remove the staging object. A failure before 2 removes the copy,
 *    so no variant exists without its object and no object outlives a failure.
 * A rejected file (too large, not HTML) is removed and the session stays
 * pending, so the caller can PUT a corrected file to the same URL.
 * 4. the role is checked again here (Permission.Write): someone made a viewer
 *    after starting an upload cannot finish it. The audit row (UploadConfirmed)
 *    is written by step 2's transaction, so a confirm answered twice records once.
 */
export async function confirmUpload(
  { actor, uploadId }: { actor: Actor; uploadId: string },
  deps: DomainDeps,
): Promise<UploadResult> {
  const session = await loadOwnSession(actor, uploadId, deps);
  await requirePermission(actor, session.organizationId, Permission.Write, 'upload components', deps);
  if (session.state === UploadState.Confirmed && session.result) return session.result;
  if (session.state === UploadState.Expired || session.expiresAt <= deps.clock.now()) {
    throw new DomainError(
      ErrorCode.UploadExpired,
      'This upload session has expired. Call upload_component again for a new upload command.',
    );
  }

  try {
    return await confirmPending(actor, session, deps);
  } catch (error) {
    // A concurrent confirm of the same session may have won and removed the staged
    // object under us; then this call answers with the winner's result.
    const latest = await deps.repos.uploadSessions.findById(session.id);
    if (latest?.state === UploadState.Confirmed && latest.result) return latest.result;
    throw error;
  }
}

async function confirmPending(actor: Actor, session: UploadSession, deps: DomainDeps): Promise<UploadResult> {
  const staged = await deps.objects.stat(session.stagingKey);
  if (!staged) {
    throw new DomainError(
      ErrorCode.UploadNotReceived,
      'The file has not been uploaded yet. Run the curlCommand returned by upload_component (from the project root, after building dist/index.html), then call confirm_upload again. ' +
        // A store with its own size limit refuses a large PUT, so nothing arrives to measure here.
        `If curl failed with error 400, the storage refused the file as larger than the ${deps.config.maxUploadBytes}-byte limit: make dist/index.html smaller first.`,
    );
  }
  await rejectIfTooLarge(staged.size, session, deps);

  const componentId = session.componentId ?? deps.ids.newId();
  const variantId = deps.ids.newId();
  const objectKey = variantKey(componentId, variantId);
  await deps.objects.copy(session.stagingKey, objectKey);
  try {
    const bytes = await deps.objects.read(objectKey);
    await rejectIfTooLarge(bytes.byteLength, session, deps);
    const document = inspectHtmlDocument(bytes);
    const { recorded, session: stored } = await deps.repos.uploadSessions.confirm({
      sessionId: session.id,
      now: deps.clock.now(),
      componentId,
      newComponent: session.componentId
        ? null
        : { id: componentId, organizationId: session.organizationId, name: session.componentName, description: '' },
      variant: {
        id: variantId,
        objectKey,
        size: document.size,
        sha256: document.sha256,
        integrity: document.integrity,
        createdBy: actor.userId,
      },
      audit: auditNote(actor, deps),
    });
    if (!stored.result) throw new Error(`upload session ${session.id} has no result after confirm`);
    if (!recorded) await removeQuietly(objectKey, deps); // a concurrent confirm won
    await removeQuietly(session.stagingKey, deps);
    return stored.result;
  } catch (error) {
    await removeQuietly(objectKey, deps);
    if (isRejectedFile(error)) await removeQuietly(session.stagingKey, deps);
    throw error;
  }
}

async function loadOwnSession(actor: Actor, uploadId: string, deps: DomainDeps): Promise<UploadSession> {
  const session = isUuid(uploadId) ? await deps.repos.uploadSessions.findById(uploadId) : null;
  // Sessions are personal: another user's session is as unknown as a made-up id.
  if (!session || session.userId !== actor.userId) throw notFound('Upload', uploadId);
  return session;
}

async function rejectIfTooLarge(size: number, session: UploadSession, deps: DomainDeps): Promise<void> {
  const max = deps.config.maxUploadBytes;
  if (size <= max) return;
  await removeQuietly(session.stagingKey, deps);
  throw new DomainError(
    ErrorCode.UploadTooLarge,
    `The uploaded file is ${size} bytes; the limit is ${max} bytes. Make dist/index.html smaller (minify, move large assets to a CDN), run the curlCommand again, then call confirm_upload.`,
    { size, limit: max },
  );
}

const isRejectedFile = (error: unknown): boolean =>
  error instanceof DomainError &&
  (error.code === ErrorCode.UploadNotHtml || error.code === ErrorCode.UploadTooLarge);

/** Cleanup that must not hide the real outcome; the expiry sweep retries leftovers. */
async function removeQuietly(key: string, deps: DomainDeps): Promise<void> {
  try {
    await deps.objects.remove(key);
  } catch {
    // ignored on purpose: see above
  }
}
