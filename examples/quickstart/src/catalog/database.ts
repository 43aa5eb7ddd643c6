import { clamp, fakeId, hash, n, pick, record, records, s, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, obj, str, tool } from './types';

const tableProp = str('Table name, optionally schema-qualified, e.g. "public.orders".');
const dbProp = str('Database or connection name.');

export const databaseTools: ExampleTool[] = [
  tool(
    'postgres_query',
    'Run a read-only SQL query against a PostgreSQL database and return the rows.',
    {
      database: dbProp,
      sql: str('SELECT statement; use $1, $2 for parameters.'),
      params: arr({ type: ['string', 'number', 'boolean', 'null'] }, 'Positional parameters.'),
      maxRows: int('Maximum rows to return.', 1, 10000),
    },
    ['sql'],
    (input) => {
      const sql = s(input, 'sql', 'select 1');
      const count = clamp(n(input, 'maxRows', 2), 1, 3);
      return {
        columns: ['id', 'value'],
        rows: Array.from({ length: count }, (_, i) => [i + 1, `row-${hash(sql + i) % 1000}`]),
        rowCount: count,
      };
    },
  ),
  tool(
    'postgres_execute',
    'Execute an INSERT, UPDATE or DELETE statement and return the affected row count.',
    { database: dbProp, sql: str('Data-modifying SQL statement.'), params: arr({}, 'Parameters.') },
    ['sql'],
    (input) => ({
      rowsAffected: pick(s(input, 'sql'), 0, 25),
      command: s(input, 'sql', 'UPDATE').split(' ')[0]?.toUpperCase() ?? 'UPDATE',
    }),
  ),
  tool(
    'postgres_list_tables',
    'List tables in a schema with their estimated row counts.',
    { database: dbProp, schema: str('Schema name; defaults to "public".') },
    [],
    (input) => {
      const schema = s(input, 'schema', 'public');
      return {
        schema,
        tables: ['users', 'orders', 'order_items', 'products'].map((name) => ({
          name,
          estimatedRows: pick(schema + name, 10, 2000000),
        })),
      };
    },
  ),
  tool(
    'postgres_describe_table',
    'Describe a table’s columns, types, nullability, primary key and indexes.',
    { database: dbProp, table: tableProp },
    ['table'],
    (input) => ({
      table: s(input, 'table', 'public.items'),
      columns: [
        { name: 'id', type: 'bigint', nullable: false },
        { name: 'created_at', type: 'timestamptz', nullable: false },
        { name: 'status', type: 'text', nullable: true },
      ],
      primaryKey: ['id'],
      indexes: [`${s(input, 'table', 'items').split('.').pop() ?? 'items'}_status_idx`],
    }),
  ),
  tool(
    'postgresExplainQuery',
    'Show the query plan for a SQL statement with estimated cost, to diagnose slow queries.',
    {
      database: dbProp,
      sql: str('Query to explain.'),
      analyze: bool('Actually run it (EXPLAIN ANALYZE).'),
    },
    ['sql'],
    (input) => {
      const sql = s(input, 'sql', 'select 1');
      return {
        plan: [
          { node: 'Seq Scan', relation: 'orders', cost: pick(sql, 10, 9000) },
          { node: 'Hash Join', cost: pick(`${sql}j`, 10, 20000) },
        ],
        analyzed: input.analyze === true,
      };
    },
  ),
  tool(
    'mongodbFind',
    'Find documents in a MongoDB collection matching a filter.',
    {
      collection: str('Collection name.'),
      filter: obj({}, [], 'MongoDB query filter, e.g. {"status": "active"}.'),
      projection: obj({}, [], 'Fields to include or exclude.'),
      sort: obj({}, [], 'Sort specification, e.g. {"createdAt": -1}.'),
      limit: int('Maximum documents.', 1, 1000),
    },
    ['collection'],
    (input) => {
      const collection = s(input, 'collection', 'docs');
      const filter = record(input, 'filter');
      return {
        documents: [1, 2].map((i) => ({ _id: fakeId('oid', collection + i), ...filter })),
      };
    },
  ),
  tool(
    'mongodbInsertMany',
    'Insert one or more documents into a MongoDB collection.',
    { collection: str('Collection name.'), documents: arr(obj({}, []), 'Documents to insert.') },
    ['collection', 'documents'],
    (input) => {
      const docs = records(input, 'documents');
      return {
        insertedCount: docs.length,
        insertedIds: docs.map((_, i) => fakeId('oid', s(input, 'collection') + i)),
      };
    },
  ),
  tool(
    'mongodbAggregate',
    'Run an aggregation pipeline on a MongoDB collection.',
    {
      collection: str('Collection name.'),
      pipeline: arr(obj({}, []), 'Aggregation stages such as $match, $group and $sort.'),
    },
    ['collection', 'pipeline'],
    (input) => ({
      stages: records(input, 'pipeline').length,
      results: [{ _id: 'group-a', count: pick(s(input, 'collection'), 1, 500) }],
    }),
  ),
  tool(
    'redis.get',
    'Read the value stored at a Redis key.',
    { key: str('Key name.') },
    ['key'],
    (input) => ({
      key: s(input, 'key'),
      value: `value-${hash(s(input, 'key')) % 1000}`,
      ttlSeconds: -1,
    }),
  ),
  tool(
    'redis.set',
    'Store a value at a Redis key with an optional expiry.',
    {
      key: str('Key name.'),
      value: str('Value to store.'),
      ttlSeconds: int('Expiry in seconds.', 1),
    },
    ['key', 'value'],
    (input) => ({ ok: true, key: s(input, 'key'), ttlSeconds: n(input, 'ttlSeconds', -1) }),
  ),
  tool(
    'redis.delete-keys',
    'Delete one or more Redis keys.',
    { keys: arr(str('Key name.'), 'Keys to delete.') },
    ['keys'],
    (input) => ({ deleted: strings(input, 'keys').length }),
  ),
  tool(
    'database__create_backup',
    'Start an on-demand backup (snapshot) of a managed database.',
    { instance: str('Database instance id.'), label: str('Label for the backup.') },
    ['instance'],
    (input) => ({
      backupId: fakeId('bkp', s(input, 'instance') + s(input, 'label')),
      status: 'in_progress',
      instance: s(input, 'instance'),
    }),
  ),
  tool(
    'database__list_slow_queries',
    'List the slowest recent queries with mean execution time and call count.',
    { instance: str('Database instance id.'), minMeanMs: int('Only queries slower than this.', 0) },
    ['instance'],
    (input) => {
      const instance = s(input, 'instance', 'db');
      const min = n(input, 'minMeanMs', 100);
      return {
        queries: [1, 2, 3].map((i) => ({
          fingerprint: `select … from table_${i} where …`,
          meanMs: min + pick(instance + i, 1, 900),
          calls: pick(`${instance}c${i}`, 10, 100000),
        })),
      };
    },
  ),
  tool(
    'database__run_migration',
    'Apply pending schema migrations, or preview them with a dry run.',
    {
      database: dbProp,
      target: str('Migration version to migrate up to; latest when omitted.'),
      dryRun: bool('Only print the SQL that would run.'),
      direction: enumOf(['up', 'down'], 'Migrate forwards or roll back.'),
    },
    ['database'],
    (input) => ({
      database: s(input, 'database'),
      direction: s(input, 'direction', 'up'),
      applied:
        input.dryRun === true ? [] : ['20240201_add_orders_status', '20240215_index_users_email'],
      dryRun: input.dryRun === true,
    }),
  ),
];
