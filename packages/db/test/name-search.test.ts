import type { ComponentSummary } from '@cp/domain';
import { createJobSender } from '../src/jobs/job-sender.js';
import { createComponents } from '../src/repositories/components.js';
import type { ReadOptions, SqlReader, SqlStatement } from '../src/sql-reader.js';
import { aComponent, aUserWithOrganization, type Owner } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

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
      // Two characters once lower-cased (i and a combining dot): the bigram index's case.
      expect(await list('İ')).toEqual(['İstanbul']);
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
});
