import { createUsageMaintenance } from '../../src/usage/index.js';
import { describeEachBackend } from '../support/backends.js';

/*
 * SECURITY.md, "Usage analytics": nothing in the `usage` schema identifies a person. This test
 * holds the exact columns of every table there, so a new column fails it until this list (and
 * that review) changes; and it refuses any column whose name or type could hold an IP address,
 * a user agent, a host's user id or a payload.
 */
const EVENTS = [
  'at timestamp with time zone',
  'component_id uuid',
  'environment text',
  'variant_id uuid',
  'type text',
  'name text',
  'value double precision',
  'cache_hit boolean',
  'isolation text',
  'sdk_version text',
  'host_name text',
  'session_id text',
  'sequence integer',
  'sample_rate real',
  'browser text',
  'error_class text',
  'error_message text',
  'stack_hash text',
];
const ROLLUP = (time: string) => [
  'component_id uuid',
  `${time} timestamp with time zone`,
  'environment text',
  'variant_id uuid',
  'type text',
  'name text',
  'count bigint',
  'errors bigint',
  'sum double precision',
  'histogram ARRAY',
];
const TABLES: Record<string, string[]> = {
  events: EVENTS,
  minutes: ROLLUP('minute'),
  hours: ROLLUP('hour'),
  days: ['component_id uuid', 'day timestamp with time zone', 'environment text', 'variant_id uuid', 'type text', 'count bigint', 'errors bigint'],
  error_groups: [
    'component_id uuid',
    'environment text',
    'variant_id uuid',
    'stack_hash text',
    'error_class text',
    'message text',
    'count bigint',
    'first_seen timestamp with time zone',
    'last_seen timestamp with time zone',
  ],
};

// Names that would hold a person's address, browser string, identity or content.
const FORBIDDEN_NAME = /(^|_)(ip|ips|addr|address|remote|forwarded|agent|ua|user|users|userid|email|account|payload|body|data|props|cookie|token|url|path|query|referr?er)(_|$)/;
// Types that hold addresses or free-form documents.
const FORBIDDEN_TYPE = new Set(['inet', 'cidr', 'macaddr', 'macaddr8', 'json', 'jsonb', 'bytea', 'xml', 'hstore']);

describeEachBackend('usage schema privacy', (db) => {
  const columns = () =>
    db().database.sql.rows<{ table: string; column: string; type: string }>({
      text: `SELECT table_name AS "table", column_name AS "column", data_type AS "type"
             FROM information_schema.columns WHERE table_schema = 'usage' ORDER BY table_name, ordinal_position`,
      values: [],
    });

  it('holds exactly the reviewed columns in every table (each day partition as the events table)', async () => {
    await createUsageMaintenance(db().database.sql).createPartitions(new Date(), 1);
    const found = new Map<string, string[]>();
    for (const { table, column, type } of await columns()) found.set(table, [...(found.get(table) ?? []), `${column} ${type}`]);
    expect(found.size).toBeGreaterThanOrEqual(Object.keys(TABLES).length);
    for (const [table, list] of found) {
      const expected = /^events_\d{8}$/.test(table) ? EVENTS : TABLES[table];
      expect({ table, columns: list }).toEqual({ table, columns: expected ?? 'a table nobody reviewed (SECURITY.md, "Usage analytics")' });
    }
    expect([...found.keys()]).toEqual(expect.arrayContaining(Object.keys(TABLES)));
  });

  it('has no column that could hold an IP address, a user agent, a user id or a payload', async () => {
    const offending = (await columns()).filter(({ column, type }) => FORBIDDEN_NAME.test(column) || FORBIDDEN_TYPE.has(type) || type === 'USER-DEFINED');
    expect(offending).toEqual([]);
    // The rule itself catches what it is for.
    for (const name of ['ip', 'client_ip', 'ip_address', 'user_agent', 'ua', 'user_id', 'host_user', 'payload', 'event_data', 'page_url']) expect(name).toMatch(FORBIDDEN_NAME);
  });
});
