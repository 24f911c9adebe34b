/**
 * The field-type table holds validation and storage to one definition: the extremes each type
 * accepts are stored and read back unchanged by its column, no column narrows a type, and every
 * integer any endpoint accepts fits the column it could land in.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { AccountPayloadSchema } from '../../src/accounts/payload/account-payload.schema.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';
import { isCalendarDate, isDateTime } from '../../src/vocabulary/calendar-date.ts';
import { FIELD_COLUMNS, INT32_MAX, INT32_MIN, readDecimal } from '../../src/vocabulary/field-types.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

type Schema = Record<string, unknown>;

/** Every subschema of `schema`, depth first, but those of responses (what we answer, not accept). */
function* subschemas(schema: unknown): Generator<Schema> {
  if (Array.isArray(schema)) for (const s of schema) yield* subschemas(s);
  else if (schema && typeof schema === 'object') {
    yield schema as Schema;
    for (const [key, value] of Object.entries(schema)) if (key !== 'responses') yield* subschemas(value);
  }
}

describe('the field types and their columns', () => {
  let t: TestApp;
  let db: Db;
  before(async () => {
    t = await createTestApp();
    db = t.db;
  });
  after(() => t.close());

  const roundTrip = async (value: string, column: string) =>
    (await db.query<{ v: string }>(sql('', `SELECT $1::${column}::text AS v`), [value])).rows[0].v;

  it('stores the widest decimals the payload accepts, digit for digit', async () => {
    for (const text of ['-9999999999.9999999999', '9999999999.9999999999', '0.0000000001', '30.00', '-0.5']) {
      assert.ok('text' in readDecimal(text, { whole: 10, fraction: 10 }), text);
      assert.equal(await roundTrip(text, FIELD_COLUMNS.decimal), text);
    }
  });

  it('stores the first and last dates validation accepts, and validation refuses the years beyond', async () => {
    await db.query(sql('', "SET TIME ZONE 'UTC'"));
    for (const date of ['0001-01-01', '9999-12-31', '2024-02-29']) {
      assert.ok(isCalendarDate(date), date);
      assert.equal(await roundTrip(date, FIELD_COLUMNS.date), date);
    }
    for (const date of ['0000-12-31', '10000-01-01', '2023-02-29', ''])
      assert.ok(!isCalendarDate(date), date);
  });

  it('stores the first and last instants validation accepts, to the microsecond', async () => {
    const column = FIELD_COLUMNS.datetime;
    const cases: Array<[string, string]> = [
      ['0001-01-01T00:00:00Z', '0001-01-01 00:00:00+00'],
      ['9999-12-31T23:59:59.999999Z', '9999-12-31 23:59:59.999999+00'],
      ['0001-01-01T01:00:00+01:00', '0001-01-01 00:00:00+00'],
      ['9999-12-31T22:59:59-01:00', '9999-12-31 23:59:59+00'],
    ];
    for (const [value, expected] of cases) {
      assert.ok(isDateTime(value), value);
      assert.equal(await roundTrip(value, column), expected);
    }
    for (const value of ['0001-01-01T00:00:00+01:00', '9999-12-31T23:59:59-01:00', '2024-06-30T23:59:60Z'])
      assert.ok(!isDateTime(value), value);
  });

  it('reads a JSON number as its plain text, or as the text sent when JSON.parse could not keep it', () => {
    const digits = { whole: 10, fraction: 10 };
    assert.deepEqual(readDecimal(30.0, digits), { text: '30' });
    assert.deepEqual(readDecimal(1e-7, digits), { text: '0.0000001' });
    assert.deepEqual(readDecimal(0.30000000000000004, { whole: 1, fraction: 17 }), {
      text: '0.30000000000000004',
    });
    assert.deepEqual(readDecimal(0.30000000000000004, digits), { problem: 'max_decimal_places' });
    assert.deepEqual(readDecimal(12345678901.5, digits), { problem: 'max_whole_digits' });
    assert.deepEqual(readDecimal(Number('1234567890.1234567891'), digits, '1234567890.1234567891'), {
      text: '1234567890.1234567891',
    });
    assert.deepEqual(readDecimal(Number.POSITIVE_INFINITY, digits, '1e400'), { problem: 'invalid_decimal' });
    assert.deepEqual(readDecimal('', digits), { problem: 'blank' });
  });

  it('declares no numeric column narrower than the decimals it stores', () => {
    const schema = readFileSync(new URL('../../schema.sql', import.meta.url), 'utf8');
    assert.deepEqual(schema.match(/numeric\s*\(/g) ?? [], [], 'a numeric(p, s) column rounds or overflows');
  });

  it("migrates every column to a field type's column, none narrowed (read from the database itself)", async () => {
    // format_type gives the declared type with its limits: numeric(14,2), character varying(20), text[].
    const { rows } = await db.query<{ column: string; type: string }>(
      sql(
        '',
        `SELECT c.relname || '.' || a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type
           FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
          WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
            AND a.attnum > 0 AND NOT a.attisdropped`,
      ),
    );
    assert.ok(rows.length > 50, `read ${rows.length} columns`);
    // The field types' columns, and the kinds of column no field lands in (ids, flags, documents,
    // transaction ids).
    const fieldColumns = new Set<string>(['text', 'date', 'timestamp with time zone', 'numeric', 'integer']);
    const otherColumns = new Set(['bigint', 'boolean', 'jsonb', 'json', 'bytea', 'xid8', 'uuid']);
    // Service bookkeeping that holds no field: a rate-limit bucket's fraction of a token.
    const serviceColumns = new Set(['rate_limit_buckets.tokens']);
    const stray = rows.filter((r) => {
      const element = r.type.replace(/\[\]$/, '');
      return !fieldColumns.has(element) && !otherColumns.has(element) && !serviceColumns.has(r.column);
    });
    assert.deepEqual(
      stray,
      [],
      'a column type no field type declares (numeric(p,s), varchar(n), float, timestamp …)',
    );
    assert.ok(rows.some((r) => r.type === 'numeric'));
  });

  it('bounds every integer of the account payload and of every endpoint to what its column holds', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const unbounded: string[] = [];
    for (const schema of [...subschemas(AccountPayloadSchema), ...subschemas(document)]) {
      const types = [schema.type].flat();
      if (!types.includes('integer')) continue;
      const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
      const fits = (n: number | undefined) => typeof n === 'number' && Math.abs(n) <= Number.MAX_SAFE_INTEGER;
      if (!fits(minimum) || !fits(maximum)) unbounded.push(JSON.stringify(schema).slice(0, 120));
    }
    assert.deepEqual(unbounded, []);
    assert.equal(await roundTrip(String(INT32_MIN), FIELD_COLUMNS.integer), String(INT32_MIN));
    assert.equal(await roundTrip(String(INT32_MAX), FIELD_COLUMNS.integer), String(INT32_MAX));
    assert.equal(await roundTrip(String(Number.MAX_SAFE_INTEGER), 'bigint'), String(Number.MAX_SAFE_INTEGER));
  });
});
