import type { ComponentSummary } from '@cp/domain';
import { createJobSender } from '../src/jobs/job-sender.js';
import { createComponents } from '../src/repositories/components.js';
import type { ReadOptions, SqlReader, SqlStatement } from '../src/sql-reader.js';
import { aComponent, aUserWithOrganization, type Owner } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

const TRIGRAM_INDEX = 'components_name_key_trgm_idx';
const ORDERED_INDEX = 'components_organization_id_name_key_key';

describeEachBackend('components: name search', (db) => {
  /** The repository on a reader that keeps the last statement it was given. */
  let last: { statement: SqlStatement; options: ReadOptions | undefined } | undefined;
  const components = () => {
    const recorder: SqlReader = {
      rows: (statement, options) => {
        last = { statement, options };
        return db().database.sql.rows(statement, options);
      },
    };
    return createComponents(db().prisma, recorder, createJobSender());
  };

  describe('matching', () => {
    let owner: Owner;
    const list = (nameContains: string) =>
      components()
        .list({ organizationId: owner.organization.id, nameContains, limit: 50 })
        .then((rows: ComponentSummary[]) => rows.map((row) => row.name));

    beforeAll(async () => {
      owner = await aUserWithOrganization(db().repos);
      for (const name of ['back\\slash', 'Ärger-Modal', 'ΟΔΟΣ', 'İstanbul', 'Tab', 'x%y'])
        await aComponent(db().repos, { organizationId: owner.organization.id, createdBy: owner.user.id, name });
    });

    it('takes a backslash literally, alone or next to % and _', async () => {
      expect(await list('\\')).toEqual(['back\\slash']);
      expect(await list('K\\S')).toEqual(['back\\slash']);
      expect(await list('\\%')).toEqual([]);
      expect(await list('x%')).toEqual(['x%y']);
    });

    it('matches fragments of one and two characters, too short for trigrams', async () => {
      expect(await list('B')).toEqual(['back\\slash', 'İstanbul', 'Tab']);
      expect(await list('ta')).toEqual(['İstanbul', 'Tab']);
      expect(await list('qz')).toEqual([]);
    });

    it('lower-cases beyond ASCII as the stored key does (JavaScript toLowerCase)', async () => {
      expect(await list('äRG')).toEqual(['Ärger-Modal']);
      expect(await list('ΔΟΣ')).toEqual(['ΟΔΟΣ']);
      expect(await list('İST')).toEqual(['İstanbul']);
    });

    it('plans a filtered read at each call, an unfiltered one once per connection', async () => {
      const organizationId = owner.organization.id;
      await components().list({ organizationId, nameContains: 'tab', limit: 5 });
      expect(last?.options?.planEachCall).toBe(true);
      await components().listRecentlyUpdated({ organizationId, nameContains: 'tab', limit: 5, offset: 0 });
      expect(last?.options?.planEachCall).toBe(true);
      await components().list({ organizationId, limit: 5 });
      expect(last?.options?.planEachCall).toBe(false);
    });
  });

  // An organization of realistic size next to another one, with statistics: what the
  // planner does there is what keeps a search from scanning every component.
  describe('plans on a large organization', () => {
    let organizationId: string;

    beforeAll(async () => {
      organizationId = (await aUserWithOrganization(db().repos)).organization.id;
      const other = (await aUserWithOrganization(db().repos)).organization.id;
      for (const [org, count] of [[organizationId, 20_000], [other, 2_000]] as const) {
        await db().prisma.$executeRaw`
          INSERT INTO components (id, organization_id, name, name_key, created_at, updated_at)
          SELECT gen_random_uuid(), ${org}::uuid, n.name, lower(n.name), now(), now()
          FROM generate_series(1, ${count}::int) AS i,
            LATERAL (SELECT (ARRAY['account', 'billing', 'cart', 'checkout', 'editor', 'feed', 'map', 'nav'])[1 + i % 8] || '-' ||
                            (ARRAY['badge', 'banner', 'button', 'card', 'chart', 'dialog', 'form', 'list', 'menu', 'table'])[1 + (i / 8) % 10] || '-' ||
                            lpad(i::text, 6, '0') AS name) AS n`;
      }
      await db().prisma.$executeRawUnsafe('ANALYZE components');
    }, 120_000);

    /** The plan of the statement the repository just sent, as "<node> [on <index>]" lines. */
    const planOfLast = async (): Promise<string[]> => {
      const { statement } = last!;
      const [row] = await db().database.sql.rows<Record<string, unknown>>(
        { text: `EXPLAIN (FORMAT JSON) ${statement.text}`, values: statement.values },
        { planEachCall: true },
      );
      const [explained] = Object.values(row!)[0] as [{ Plan: PlanNode }];
      return nodes(explained.Plan);
    };
    const list = async (nameContains: string, afterKey?: string) => {
      await components().list({
        organizationId,
        nameContains,
        limit: 51,
        ...(afterKey ? { after: { nameKey: afterKey, id: '00000000-0000-0000-0000-000000000000' } } : {}),
      });
      return planOfLast();
    };

    it('finds a fragment that no name holds through the trigram index, on any page', async () => {
      for (const plan of [await list('carousel'), await list('carousel', 'map-')]) {
        expect(plan).toContainEqual(`Bitmap Index Scan on ${TRIGRAM_INDEX}`);
        expect(plan).not.toContain('Seq Scan');
      }
    });

    it('reads a few pages for a fragment that no name holds, right after a bulk insert', async () => {
      // Inserts queued in GIN's pending list would be read by every search until merged.
      await list('carousel');
      const { statement } = last!;
      const [row] = await db().database.sql.rows<Record<string, unknown>>(
        { text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.text}`, values: statement.values },
        { planEachCall: true },
      );
      const [{ Plan: plan }] = Object.values(row!)[0] as [{ Plan: Record<string, number> }];
      expect(plan['Shared Hit Blocks']! + plan['Shared Read Blocks']!).toBeLessThan(50);
    });

    it('walks the name order for a common fragment and stops at the page’s end', async () => {
      for (const plan of [await list('button'), await list('button', 'map-button-')]) {
        expect(plan).toEqual(['Limit', `Index Scan on ${ORDERED_INDEX}`]);
      }
    });

    it('never asks the trigram index about fragments too short for trigrams', async () => {
      for (const fragment of ['b', 'bu', 'qz']) expect(await list(fragment)).not.toContainEqual(expect.stringContaining(TRIGRAM_INDEX));
    });

    it('serves the dashboard’s search (most recently updated first) through the trigram index', async () => {
      await components().listRecentlyUpdated({ organizationId, nameContains: 'carousel', limit: 21, offset: 0 });
      const plan = await planOfLast();
      expect(plan).toContainEqual(`Bitmap Index Scan on ${TRIGRAM_INDEX}`);
      expect(plan).not.toContain('Seq Scan');
    });
  });
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(node: PlanNode): string[] {
  const self = node['Index Name'] ? `${node['Node Type']} on ${node['Index Name']}` : node['Node Type'];
  return [self, ...(node.Plans ?? []).flatMap(nodes)];
}
