import { AuditKind } from '../src/entities/audit-event.js';
import { ErrorCode } from '../src/errors/domain-error.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { getStaticExport } from '../src/use-cases/static-export/get-static-export.js';
import { setStaticExport } from '../src/use-cases/static-export/set-static-export.js';
import { publishVariant } from '../src/use-cases/releases/publish-variant.js';
import { aUser, anUploadedComponent } from './builders.js';

async function anOrganization() {
  const setup = inMemoryDeps();
  const owner = await aUser(setup.deps);
  const member = await aUser(setup.deps);
  const stranger = await aUser(setup.deps);
  setup.repos.state.memberships.push({
    userId: member.user.id,
    organizationId: owner.organizationId,
    role: 'member',
  });
  const { componentId } = await anUploadedComponent(setup.deps, setup.objects, owner.actor);
  return { ...setup, owner, member, stranger, componentId };
}

describe('static export switch', () => {
  it('is off until an owner turns it on; on queues a full export, and is audited once per change', async () => {
    const { deps, repos, owner } = await anOrganization();
    const organizationId = owner.organizationId;
    expect(await getStaticExport({ actor: owner.actor, organizationId }, deps)).toMatchObject({
      enabled: false,
      exportedAt: null,
    });

    const on = await setStaticExport({ actor: owner.actor, organizationId, enabled: true }, deps);
    expect(on).toMatchObject({ enabled: true, changedAt: deps.clock.now() });
    await setStaticExport({ actor: owner.actor, organizationId, enabled: true }, deps);
    await setStaticExport({ actor: owner.actor, organizationId, enabled: false }, deps);

    expect(repos.state.exportJobs).toEqual([
      { organizationId, full: true },
      { organizationId, full: true },
      { organizationId, full: true },
    ]);
    const rows = repos.state.auditEvents.filter((e) => e.kind === AuditKind.StaticExportChanged);
    expect(rows.map((e) => e.details)).toEqual([
      { before: false, after: true },
      { before: true, after: false },
    ]);
  });

  it('a release queues an export job only for an organization that opted in', async () => {
    const { deps, repos, owner, componentId } = await anOrganization();
    await publishVariant({ actor: owner.actor, componentId, environment: 'staging' }, deps);
    expect(repos.state.exportJobs).toEqual([]);

    await setStaticExport(
      { actor: owner.actor, organizationId: owner.organizationId, enabled: true },
      deps,
    );
    await publishVariant({ actor: owner.actor, componentId, environment: 'staging' }, deps);
    expect(repos.state.exportJobs.at(-1)).toEqual({
      organizationId: owner.organizationId,
      full: false,
    });
  });

  it('a member may neither see nor change it; another organization answers as an unknown one', async () => {
    const { deps, owner, member, stranger } = await anOrganization();
    const organizationId = owner.organizationId;
    const refusal = await setStaticExport(
      { actor: member.actor, organizationId, enabled: true },
      deps,
    ).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: ErrorCode.Forbidden });
    expect((refusal as Error).message).toBe(
      'Your role in this organization is member: only owners and admins can turn the static export on or off. Ask an owner or admin for a role that can.',
    );
    await expect(
      getStaticExport({ actor: member.actor, organizationId }, deps),
    ).rejects.toMatchObject({ code: ErrorCode.Forbidden });

    const foreign = await getStaticExport({ actor: stranger.actor, organizationId }, deps).catch(
      (e: unknown) => e,
    );
    const unknown = await getStaticExport(
      { actor: stranger.actor, organizationId: '00000000-0000-4000-8000-000000000000' },
      deps,
    ).catch((e: unknown) => e);
    expect(foreign).toMatchObject({ code: ErrorCode.NotFound });
    expect((foreign as Error).message.replace(organizationId, 'ID')).toBe(
      (unknown as Error).message.replace('00000000-0000-4000-8000-000000000000', 'ID'),
    );
  });
});
