import { AuditKind, type AuditEvent } from '../../entities/audit-event.js';
import { Role } from '../../entities/organization.js';
import { invalidInput } from '../../errors/factories.js';
import type { AuditTrailQuery } from '../../ports/audit-trail.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';
import { Limits } from '../../rules/limits.js';
import { can, Permission } from '../../rules/roles.js';
import type { OrganizationRequest } from '../access/organization-request.js';
import { requirePermission } from '../access/require-permission.js';
import type { ListPosition } from '../components/get-component-page.js';
import { pagingNumber } from '../paging/paging-number.js';

/**
 * Who reads the trail: owners and admins, the roles that manage members. It names invitees who
 * are not members yet, every member's role changes and removals, and preview keys: what the
 * members page shows them and no one else.
 */
export const AUDIT_TRAIL_PERMISSION = Permission.ManageMembers;
export const canReadAuditTrail = (role: Role): boolean => can(role, AUDIT_TRAIL_PERMISSION);
export const AUDIT_KINDS: readonly AuditKind[] = Object.values(AuditKind);

/**
 * The cursors and filters the trail's query names (ports/audit-trail.ts), as a person gave them:
 * a malformed component or person id, or an unknown kind, is INVALID_INPUT here.
 */
export interface AuditEventsInput
  extends OrganizationRequest,
    Pick<AuditTrailQuery, 'before' | 'after' | 'componentId' | 'actorId'> {
  /** Default Limits.listDefault, at most Limits.listMax. */
  readonly limit?: number | undefined;
  /** AuditKind values. */
  readonly kinds?: readonly string[] | undefined;
}

/** One event and the names a person reads instead of ids (null: gone, or never known). */
export interface AuditEntry {
  readonly event: AuditEvent;
  readonly actorEmail: string | null;
  readonly subjectEmail: string | null;
  readonly componentName: string | null;
}

export interface AuditEventsView extends ListPosition<string> {
  readonly items: AuditEntry[];
  readonly filters: {
    readonly componentId: string | null;
    readonly actorId: string | null;
    readonly kinds: AuditKind[];
  };
  /** What the filters offer: the organization's components by name (up to Limits.listMax) and members, plus the ones filtered on. */
  readonly choices: {
    readonly components: { id: string; name: string }[];
    readonly people: { id: string; email: string }[];
  };
}

/**
 * One keyset page of an organization's audit trail, newest first, with emails and component names.
 * A cursor that is not an event of this organization is NOT_FOUND; a filter on another
 * organization's component or person finds nothing, exactly as an unknown one.
 */
export async function listAuditEvents(
  input: AuditEventsInput,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<AuditEventsView> {
  const { organizationId, before, after } = input;
  const limit = pagingNumber('limit', input.limit ?? Limits.listDefault, Limits.listMax);
  if (before !== undefined && after !== undefined)
    throw invalidInput('before', 'give either before or after, not both.');
  const filters = validFilters(input);
  await requirePermission(
    input.actor,
    organizationId,
    AUDIT_TRAIL_PERMISSION,
    'read the audit trail',
    deps,
  );

  const query: AuditTrailQuery = {
    limit: limit + 1, // one more tells whether another page exists, without a count
    ...(filters.componentId === null ? {} : { componentId: filters.componentId }),
    ...(filters.actorId === null ? {} : { actorId: filters.actorId }),
    ...(filters.kinds.length === 0 ? {} : { kinds: filters.kinds }),
  };
  const trail = deps.repos.auditTrail;
  const rows = await trail.list(organizationId, { ...query, before, after });
  let position: ListPosition<string> & { events: AuditEvent[] };
  if (after !== undefined && rows.length > limit) {
    // Newer events remain beyond this page: it is the `limit` closest to the cursor.
    const events = rows.slice(rows.length - limit);
    position = { events, isLatest: false, newer: events[0]!.id, older: events.at(-1)!.id };
  } else {
    // With `after`, nothing newer is left beyond these: the latest page, as without a cursor.
    const page = after !== undefined ? await trail.list(organizationId, query) : rows;
    const events = page.slice(0, limit);
    const isLatest = before === undefined;
    position = {
      events,
      isLatest,
      newer: isLatest ? null : (events[0]?.id ?? 'latest'),
      older: page.length > limit ? events.at(-1)!.id : null,
    };
  }
  const { events, ...cursors } = position;
  return { ...cursors, ...(await withNames(organizationId, events, filters, deps)), filters };
}

function validFilters(input: AuditEventsInput): AuditEventsView['filters'] {
  const componentId = input.componentId || null;
  const actorId = input.actorId || null;
  if (componentId !== null && !isUuid(componentId)) {
    throw invalidInput(
      'component',
      `"${componentId.slice(0, 40)}" is not a component id: choose a component from the list.`,
    );
  }
  if (actorId !== null && !isUuid(actorId)) {
    throw invalidInput(
      'person',
      `"${actorId.slice(0, 40)}" is not a person's id: choose a person from the list.`,
    );
  }
  const kinds = [...new Set(input.kinds ?? [])].filter((kind) => kind !== '');
  for (const kind of kinds) {
    if (!AUDIT_KINDS.includes(kind as AuditKind)) {
      throw invalidInput(
        'kind',
        `"${kind.slice(0, 40)}" is not a kind of change: choose one from the list.`,
      );
    }
  }
  return { componentId, actorId, kinds: kinds as AuditKind[] };
}

/** The emails and component names the page shows, read at once; the filter choices come from the same reads. */
async function withNames(
  organizationId: string,
  events: AuditEvent[],
  filters: AuditEventsView['filters'],
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Pick<AuditEventsView, 'items' | 'choices'>> {
  const { repos } = deps;
  const [members, listed] = await Promise.all([
    repos.organizations.listMembers(organizationId, {
      roles: Object.values(Role),
      limit: Limits.listMax,
    }),
    repos.components.list({ organizationId, limit: Limits.listMax }),
  ]);
  const components = new Map(listed.map((c) => [c.id, c.name]));
  const wanted = new Set([...events.map((e) => e.componentId), filters.componentId]);
  const missing = [...wanted].filter((id): id is string => id !== null && !components.has(id));
  for (const component of await Promise.all(missing.map((id) => repos.components.findById(id)))) {
    // Only this organization's: a filter on another's component names nothing.
    if (component !== null && component.organizationId === organizationId)
      components.set(component.id, component.name);
  }
  const userIds = [
    ...members.map((m) => m.userId),
    ...events.flatMap((e) => [e.actorId, e.subjectUserId]),
    filters.actorId,
  ];
  const users = await repos.users.findByIds([
    ...new Set(userIds.filter((id): id is string => id !== null)),
  ]);
  const emails = new Map(users.map((u) => [u.id, u.email]));
  // The person filtered on is offered too when this organization's trail names them (a former member).
  const named =
    filters.actorId !== null && events.some((e) => e.actorId === filters.actorId)
      ? [filters.actorId]
      : [];
  const people = [...new Set([...members.map((m) => m.userId), ...named])];
  return {
    items: events.map((event) => ({
      event,
      actorEmail: emails.get(event.actorId) ?? null,
      subjectEmail: event.subjectUserId === null ? null : (emails.get(event.subjectUserId) ?? null),
      componentName:
        event.componentId === null ? null : (components.get(event.componentId) ?? null),
    })),
    choices: {
      components: [...components]
        .map(([id, name]) => ({ id, name }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      people: people.flatMap((id) => {
        const email = emails.get(id);
        return email === undefined ? [] : [{ id, email }];
      }),
    },
  };
}
