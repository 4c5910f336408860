import { confirmUpload, registerUser, startUpload } from '../../packages/domain/src/index.js';
import type { BenchDomain } from './domain.js';

export interface Seeded {
  readonly userId: string;
  readonly organizationId: string;
  /** The component get_component reads (a real upload, so it has HTML). */
  readonly componentId: string;
}

/*
 * Seeded names are `<area>-<widget>-<number>`: a widget word is in one name in ten at
 * any size and spread over the whole name order, and no name holds NO_MATCH_FRAGMENT,
 * though its start ("car") does occur.
 */
const AREAS = ['account', 'billing', 'cart', 'checkout', 'dashboard', 'editor', 'feed', 'header', 'inbox', 'login', 'map', 'nav', 'order', 'profile', 'search', 'settings'];
const WIDGETS = ['badge', 'banner', 'button', 'card', 'chart', 'dialog', 'form', 'list', 'menu', 'table'];
export const COMMON_FRAGMENT = 'button';
export const NO_MATCH_FRAGMENT = 'carousel';
/** The last area in name order: one name in sixteen holds it, every one after all the others. */
export const LATE_FRAGMENT = 'settings';
/** Two characters (no trigrams) that no name holds. */
export const SHORT_NO_MATCH_FRAGMENT = 'zq';
const textArray = (words: string[]): string => `ARRAY[${words.map((w) => `'${w}'`).join(',')}]`;

/** Rows per seeding statement: each stays well within a test database's statement deadline. */
const SEED_CHUNK = 10_000;

/**
 * `count` components (each with one variant) in one organization, in bulk statements:
 * row-by-row seeding through the repositories takes minutes at 100,000. The n-th was
 * updated n seconds ago, so the most recently updated order is neither the name order
 * nor one tie.
 */
export async function addComponents(bench: Pick<BenchDomain, 'execute'>, organizationId: string, userId: string, count: number): Promise<void> {
  for (let first = 1; first <= count; first += SEED_CHUNK) {
    await bench.execute(
      `WITH added AS (
         INSERT INTO components (id, organization_id, name, name_key, description, tags, variants_count, created_at, updated_at)
         SELECT gen_random_uuid(), $1::uuid, n.name, lower(n.name), 'Seeded component ' || i, '{}', 1, now(), now() - i * interval '1 second'
         FROM generate_series($2::int, $3::int) AS i,
           LATERAL (SELECT (${textArray(AREAS)})[1 + i % ${AREAS.length}] || '-' ||
                           (${textArray(WIDGETS)})[1 + (i / ${AREAS.length}) % ${WIDGETS.length}] || '-' ||
                           lpad(i::text, 6, '0') AS name) AS n
         RETURNING id)
       INSERT INTO variants (id, component_id, sequence, object_key, size, sha256, integrity, created_by_id, created_at)
       SELECT gen_random_uuid(), id, 1, 'variants/' || id || '/seed', 10, repeat('0', 64), 'sha384-seed', $4::uuid, now()
       FROM added`,
      organizationId,
      first,
      Math.min(count, first + SEED_CHUNK - 1),
      userId,
    );
  }
}

/**
 * One user whose organization holds `components` components: the first through a
 * real upload (presigned PUT, confirm), the rest in bulk (no objects needed to list them).
 */
export async function seedOrganization(bench: BenchDomain, components: number): Promise<Seeded> {
  const { deps } = bench;
  const user = await registerUser({ email: `bench-${Date.now()}@example.com` }, deps);
  const organizationId = user.defaultOrganizationId;

  const html = `<!doctype html><html><head><style>p{color:#333}</style></head><body>${'<p>Benchmark component</p>'.repeat(40)}</body></html>`;
  const started = await startUpload({ actor: { userId: user.id }, name: 'aaa-bench-target' }, deps);
  const put = await fetch(started.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: html });
  if (!put.ok) throw new Error(`seed upload failed: ${put.status}`);
  const target = await confirmUpload({ actor: { userId: user.id }, uploadId: started.session.id }, deps);

  await addComponents(bench, organizationId, user.id, components - 1);
  return { userId: user.id, organizationId, componentId: target.componentId };
}

/** Another organization of `components` components, of which `userId` is a member. */
export async function seedMemberOrganization(bench: BenchDomain, userId: string, components: number): Promise<string> {
  const organizationId = bench.deps.ids.newId();
  await bench.execute(`INSERT INTO organizations (id, name, created_at) VALUES ($1::uuid, $2, now())`, organizationId, `bench-${components}`);
  await bench.execute(`INSERT INTO memberships (user_id, organization_id, role) VALUES ($1::uuid, $2::uuid, 'member')`, userId, organizationId);
  await addComponents(bench, organizationId, userId, components);
  return organizationId;
}
