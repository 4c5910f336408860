import type { ComponentCursor } from '@cp/domain';
import { createJobSender } from '../src/jobs/job-sender.js';
import { createComponents } from '../src/repositories/components.js';
import type { SqlReader, SqlStatement } from '../src/sql-reader.js';
import { aUserWithOrganization } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

const TRIGRAM_INDEX = 'components_name_key_trgm_idx';
const BIGRAM_INDEX = 'components_name_key_bigram_idx';
const ORDERED_INDEX = 'components_organization_id_name_key_key';
const RECENT_INDEX = 'components_organization_id_updated_at_id_idx';
const TRIGRAM_ROWS = 'component_name_trigrams_pkey';
const AREAS = ['account', 'billing', 'cart', 'checkout', 'editor', 'feed', 'map', 'nav'];

// An organization of realistic size next to another one, with statistics: what the
// planner does there is what keeps a listing from reading every component. Names are
// <area>-<widget>-<n>: "button" is in one name in ten all over the name order, "nav"
// (the last area) in one in eight, all after every other name.
describeEachBackend('components: listings of a large organization', (db) => {
  let organizationId: string;
  /** The statements the repository sent for the last call. */
  let sent: SqlStatement[] = [];
  const components = () => {
    const recorder: SqlReader = {
      rows: (statement, options) => {
        sent.push(statement);
        return db().database.sql.rows(statement, options);
      },
    };
    return createComponents(db().prisma, recorder, createJobSender());
  };

  beforeAll(async () => {
    organizationId = (await aUserWithOrganization(db().repos)).organization.id;
    const other = (await aUserWithOrganization(db().repos)).organization.id;
    for (const [org, count] of [[organizationId, 20_000], [other, 2_000]] as const) {
      // Updated in groups of the same second, so ties in the dashboard's order are broken by id.
      await db().prisma.$executeRaw`
        INSERT INTO components (id, organization_id, name, name_key, created_at, updated_at)
        SELECT gen_random_uuid(), ${org}::uuid, n.name, lower(n.name), now(), now() - (i / 3) * interval '1 second'
        FROM generate_series(1, ${count}::int) AS i,
          LATERAL (SELECT (${AREAS}::text[])[1 + i % 8] || '-' ||
                          (ARRAY['badge', 'banner', 'button', 'card', 'chart', 'dialog', 'form', 'list', 'menu', 'table'])[1 + (i / 8) % 10] || '-' ||
                          lpad(i::text, 6, '0') AS name) AS n`;
    }
    await db().prisma.$executeRawUnsafe('ANALYZE components');
  }, 120_000);

  const page = async (nameContains: string, after?: ComponentCursor, limit = 51) => {
    sent = [];
    return components().list({ organizationId, nameContains, limit, ...(after ? { after } : {}) });
  };
  const list = async (nameContains: string, after?: ComponentCursor, limit = 51) =>
    (await page(nameContains, after, limit)).map((row) => row.name);
  const cursorAfter = (rows: { name: string; id: string }[]): ComponentCursor => ({
    nameKey: rows.at(-1)!.name.toLowerCase(),
    id: rows.at(-1)!.id,
  });
  /** What the listing must answer, by the plainest statement (any plan). */
  const expected = async (fragment: string, order: 'name_key' | 'updated_at DESC, id', limit: number, offset = 0, afterKey = '') =>
    (
      await db().database.sql.rows<{ name: string }>(
        {
          text: `SELECT name FROM components WHERE organization_id = $1::uuid AND strpos(name_key, $2) > 0 AND name_key > $3
                 ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
          values: [organizationId, fragment, afterKey],
        },
        { planEachCall: true },
      )
    ).map((row) => row.name);

  /** Each statement sent that reads rows: its plan as "<node> [on <index>]" lines and the buffers it read. */
  const explainSent = async (): Promise<{ plan: string[]; buffers: number }[]> => {
    const explained = [];
    for (const { text, values } of sent.filter((statement) => !statement.text.trim().startsWith('EXPLAIN'))) {
      const [row] = await db().database.sql.rows<Record<string, unknown>>(
        { text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, values },
        { planEachCall: true },
      );
      const [{ Plan: plan }] = Object.values(row!)[0] as [{ Plan: PlanNode }];
      explained.push({ plan: nodes(plan), buffers: plan['Shared Hit Blocks'] + plan['Shared Read Blocks'] });
    }
    return explained;
  };

  it('finds a fragment that no name holds through the trigram index, on any page, in a few pages', async () => {
    for (const after of [undefined, { nameKey: 'map-', id: '00000000-0000-0000-0000-000000000000' }]) {
      expect(await list('carousel', after)).toEqual([]);
      const [only, ...more] = await explainSent();
      expect(more).toEqual([]);
      expect(only!.plan).toContainEqual(`Bitmap Index Scan on ${TRIGRAM_INDEX}`);
      expect(only!.plan).not.toContain('Seq Scan');
      // Inserts queued in GIN's pending list would be read by every search until merged.
      expect(only!.buffers).toBeLessThan(50);
    }
  });

  it('finds the page of a common fragment by walking one of its trigrams in name order', async () => {
    expect(await list('button')).toEqual(await expected('button', 'name_key', 51));
    const [walk, ...more] = await explainSent();
    expect(more).toEqual([]);
    expect(walk!.plan).toContainEqual(`Index Only Scan on ${TRIGRAM_ROWS}`);
    expect(walk!.plan).not.toContainEqual(expect.stringContaining(ORDERED_INDEX));
  });

  it('lists a fragment whose matches all come last in name order without reading them all', async () => {
    const first = await page('nav');
    expect(first.map((row) => row.name)).toEqual(await expected('nav', 'name_key', 51));
    expect(first[0]!.name).toMatch(/^nav-/);
    // Walking the name order to the first match reads a buffer per row before it;
    // reading every match, one per match; walking a trigram's rows, a few per row of
    // the page, whatever the organization's size.
    const [walk, ...more] = await explainSent();
    expect(more).toEqual([]);
    expect(walk!.plan).toContainEqual(`Index Only Scan on ${TRIGRAM_ROWS}`);
    expect(walk!.plan).not.toContainEqual(expect.stringContaining(ORDERED_INDEX));
    // A few buffers per row of the page (its 2,500 matches would read as many).
    expect(walk!.buffers).toBeLessThan(300);
    const after = cursorAfter(first);
    expect(await list('nav', after)).toEqual(await expected('nav', 'name_key', 51, 0, after.nameKey));
  });

  it('answers a two-character fragment that no name holds from the bigram index', async () => {
    expect(await list('zq')).toEqual([]);
    const [only, ...more] = await explainSent();
    expect(more).toEqual([]);
    expect(only!.plan).toContainEqual(`Bitmap Index Scan on ${BIGRAM_INDEX}`);
    expect(only!.buffers).toBeLessThan(50);
  });

  it('pages through a two-character fragment held by names late in the order, none skipped or repeated', async () => {
    const pages: string[] = [];
    let after: ComponentCursor | undefined;
    for (;;) {
      const rows = await page('av', after, 500);
      pages.push(...rows.map((row) => row.name));
      if (rows.length < 500) break;
      after = cursorAfter(rows);
    }
    expect(pages).toHaveLength(2_500);
    expect(pages).toEqual(await expected('av', 'name_key', 2_500));
  });

  it('never asks the trigram index about fragments too short for trigrams', async () => {
    for (const fragment of ['b', 'bu', 'qz']) {
      await list(fragment);
      for (const { plan } of await explainSent()) expect(plan).not.toContainEqual(expect.stringContaining(TRIGRAM_INDEX));
    }
  });

  it('reads the dashboard’s page, most recently updated first, from its index', async () => {
    sent = [];
    const page = await components().listRecentlyUpdated({ organizationId, limit: 21, offset: 40 });
    expect(page.map((row) => row.name)).toEqual(await expected('', 'updated_at DESC, id', 21, 40));
    expect((await explainSent())[0]!.plan).toEqual(['Limit', `Index Scan on ${RECENT_INDEX}`]);
  });

  it('serves the dashboard’s search (most recently updated first) as the MCP tools’ listing', async () => {
    for (const [fragment, offset] of [['carousel', 0], ['zq', 0], ['nav', 0], ['nav', 100], ['button', 20], ['button', 2_000]] as const) {
      sent = [];
      const rows = await components().listRecentlyUpdated({ organizationId, nameContains: fragment, limit: 21, offset });
      expect(rows.map((row) => row.name)).toEqual(await expected(fragment, 'updated_at DESC, id', 21, offset));
      if (fragment === 'carousel' || fragment === 'zq') {
        const [only, ...more] = await explainSent();
        expect(more).toEqual([]);
        expect(only!.plan).toContainEqual(`Bitmap Index Scan on ${fragment === 'zq' ? BIGRAM_INDEX : TRIGRAM_INDEX}`);
        expect(only!.plan).not.toContain('Seq Scan');
        expect(only!.buffers).toBeLessThan(50);
      }
    }
  });
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: PlanNode[];
}

function nodes(node: PlanNode): string[] {
  const self = node['Index Name'] ? `${node['Node Type']} on ${node['Index Name']}` : node['Node Type'];
  return [self, ...(node.Plans ?? []).flatMap(nodes)];
}
