import {
  AuditKind,
  componentNameKey,
  DomainError,
  ErrorCode,
  isUuid,
  notFound,
  type ConfirmUploadInput,
  type UploadResult,
  type UploadSession,
  type UploadSessions,
  WebhookEventType,
} from '@cp/domain';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { recordAudit } from './audit-record.js';
import { enqueueWebhookEvents } from './webhook-events.js';
import { isUniqueViolation } from './errors.js';
import { toUploadSession } from './mappers.js';

type Tx = Prisma.TransactionClient;

export function createUploadSessions(prisma: PrismaClient, jobs: JobSender): UploadSessions {
  return {
    async create(session) {
      await prisma.uploadSession.create({
        data: {
          id: session.id,
          userId: session.userId,
          organizationId: session.organizationId,
          componentId: session.componentId,
          componentName: session.componentName,
          stagingKey: session.stagingKey,
          state: session.state,
          expiresAt: session.expiresAt,
          createdAt: session.createdAt,
          result: session.result === null ? Prisma.DbNull : { ...session.result },
          stagingRemovedAt: session.stagingRemovedAt,
        },
      });
    },

    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await prisma.uploadSession.findUnique({ where: { id } });
      return row && toUploadSession(row);
    },

    async confirm(input) {
      if (!isUuid(input.sessionId)) throw notFound('Upload', input.sessionId);
      try {
        return await prisma.$transaction((tx) => confirmIn(tx, jobs, input));
      } catch (error) {
        if (input.newComponent && isUniqueViolation(error, ['organization_id', 'name_key'])) {
          throw new DomainError(
            ErrorCode.NameTaken,
            `A component named "${input.newComponent.name}" already exists in this organization. To add a version to it, start the upload again with its componentId; to create a separate component, choose another name.`,
            { field: 'name' },
          );
        }
        throw error;
      }
    },

    async listToSweep(now, limit) {
      const rows = await prisma.uploadSession.findMany({
        where: { stagingRemovedAt: null, expiresAt: { lt: now } },
        orderBy: [{ expiresAt: 'asc' }, { id: 'asc' }],
        take: limit,
      });
      return rows.map(toUploadSession);
    },

    async markExpired(id) {
      if (!isUuid(id)) return false;
      const { count } = await prisma.uploadSession.updateMany({
        where: { id, state: 'pending' },
        data: { state: 'expired' },
      });
      return count === 1;
    },

    async markStagingRemoved(id, at) {
      if (!isUuid(id)) return false;
      const { count } = await prisma.uploadSession.updateMany({
        where: { id, stagingRemovedAt: null },
        data: { stagingRemovedAt: at },
      });
      return count === 1;
    },
  };
}

/**
 * The confirm transaction. Its first statement claims the session with a
 * conditional UPDATE: of two concurrent confirms, the second waits on the row
 * lock, then finds the session no longer pending and writes nothing (it reads
 * the winner's committed result instead), so only the winner writes the
 * UploadConfirmed audit row. Any error rolls everything back.
 */
async function confirmIn(
  tx: Tx,
  jobs: JobSender,
  input: ConfirmUploadInput,
): Promise<{ recorded: boolean; session: UploadSession }> {
  const claimed = await tx.$executeRaw`
    UPDATE upload_sessions SET state = 'confirmed'
    WHERE id = ${input.sessionId}::uuid AND state = 'pending'`;
  if (claimed === 0) {
    const row = await tx.uploadSession.findUnique({ where: { id: input.sessionId } });
    if (!row) throw notFound('Upload', input.sessionId);
    return { recorded: false, session: toUploadSession(row) };
  }

  if (input.newComponent) {
    const { id, organizationId, name, description } = input.newComponent;
    await tx.component.create({
      data: {
        id,
        organizationId,
        name,
        nameKey: componentNameKey(name),
        description,
        tags: [],
        createdAt: input.now,
        updatedAt: input.now,
      },
    });
  }

  // The count doubles as the sequence counter: the UPDATE locks the component row,
  // so concurrent confirms for one component take 1, 2, 3... in turn.
  const [bumped] = await tx.$queryRaw<{ sequence: number; name: string; organizationId: string }[]>`
    UPDATE components SET variants_count = variants_count + 1, updated_at = ${input.now}
    WHERE id = ${input.componentId}::uuid
    RETURNING variants_count AS sequence, name, organization_id AS "organizationId"`;
  if (!bumped) throw notFound('Component', input.componentId);

  const { createdBy, ...variant } = input.variant;
  await tx.variant.create({
    data: {
      ...variant,
      createdById: createdBy,
      componentId: input.componentId,
      sequence: bumped.sequence,
      createdAt: input.now,
    },
  });

  const result: UploadResult = {
    componentId: input.componentId,
    componentName: bumped.name,
    variantId: input.variant.id,
    variantSequence: bumped.sequence,
    organizationId: bumped.organizationId,
    isNewComponent: input.newComponent !== null,
  };
  const row = await tx.uploadSession.update({
    where: { id: input.sessionId },
    data: { result: { ...result } },
  });
  await recordAudit(tx, {
    note: input.audit,
    organizationId: bumped.organizationId,
    kind: AuditKind.UploadConfirmed,
    componentId: input.componentId,
    details: {
      componentName: bumped.name,
      variantId: input.variant.id,
      sequence: bumped.sequence,
      size: input.variant.size,
      sha256: input.variant.sha256,
      created: input.newComponent !== null,
    },
    createdAt: input.now,
  });
  const change = { organizationId: bumped.organizationId, componentId: input.componentId, note: input.audit, occurredAt: input.now };
  await enqueueWebhookEvents(
    tx,
    jobs,
    ...(input.newComponent ? [{ ...change, type: WebhookEventType.ComponentCreated, data: {} }] : []),
    {
      ...change,
      type: WebhookEventType.VariantCreated,
      data: { variant: { id: input.variant.id, sequence: bumped.sequence, size: input.variant.size, sha256: input.variant.sha256 } },
    },
  );
  return { recorded: true, session: toUploadSession(row) };
}
