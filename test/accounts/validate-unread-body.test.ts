/**
 * V2 validate's body reaches the route unread and a check thread reads its text when it is plain
 * (validate-account.ts). Whichever reads it, the answer must be the one the event loop gives:
 * the same status and body for valid, invalid, refused and malformed texts, out-of-scope
 * suppliers and identifier conflicts included; and the thread must leave to the event loop every
 * text the event loop's reader would refuse or read differently.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CheckClock } from '../../src/accounts/account-checks.ts';
import { sharedAccountCheckPool, verdictOf } from '../../src/accounts/account-checks.ts';
import { bodyVerdictInThread } from '../../src/accounts/body-verdict.ts';
import { uniqueIdentifiersOf } from '../../src/accounts/payload/unique-identifiers.ts';
import { currentReference } from '../../src/catalogue/reference-data.ts';
import { MAX_LIST_ITEMS } from '../../src/vocabulary/field-types.ts';
import { readPlainJsonObject } from '../../src/vocabulary/plain-json.ts';
import { readBody } from '../helpers/account-bodies.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { toJsonText } from '../helpers/json-text.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

const clock: CheckClock = { today: '2026-11-30', nowMs: Date.parse('2026-11-30T12:00:00Z') };

const account = (n: number, supplier = 'MINE') => accountFor(supplier, n) as Record<string, unknown>;
const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });
/** A valid account's text with one string written with a `\u` escape (the same value). */
const escaped = (supplier: string) =>
  toJsonText(account(7, supplier)).replace(
    `"${supplier}"`,
    `"${supplier.slice(0, -1)}\\u00${supplier.charCodeAt(supplier.length - 1).toString(16)}"`,
  );

/** Texts of every kind the reader tells apart, each with whether a thread reads it (plain). */
const TEXTS: [string, string, boolean][] = [
  ['a valid account', toJsonText(account(1)), true],
  ['an invalid account', toJsonText({ ...account(2), billing_postcode: 'NOPE' }), true],
  ['a wrapped account', toJsonText({ payload: account(3), task_params: { is_dry_run: true } }), true],
  ['an account of an unknown field', toJsonText({ ...account(4), extra: 1 }), true],
  [
    'a long number',
    '{"import_supplier": "MINE", "external_account_number": "L", "x": 12345678901234567890.5}',
    true,
  ],
  ['a supplier outside the key', toJsonText(account(8, 'OTHER')), true],
  [
    'a wrapped supplier outside the key',
    toJsonText({ payload: { import_supplier: 'OTHER' }, task_params: 5 }),
    true,
  ],
  ['a `\\u` escape', escaped('MINE'), false],
  ['a NUL escape', toJsonText({ ...account(5), billing_postcode: 'A\u0000B' }), false],
  ['a `constructor` key', toJsonText({ ...account(6), constructor: 1 }), false],
  ['a `__proto__` key', '{"__proto__": {"x": 1}, "import_supplier": "MINE"}', false],
  ['nesting too deep', JSON.stringify({ import_supplier: 'MINE', deep: nested(70) }), false],
  ['a bare number', '5', false],
  ['an array', '[]', false],
  ['a string', '"MINE"', false],
  ['null', 'null', false],
  ['malformed JSON', '{"import_supplier": "MINE",', false],
  ['an empty body', '', false],
  ['an escaped supplier outside the key', escaped('OTHER'), false],
  ['a byte order mark', `\ufeff${toJsonText(account(10))}`, false],
  ['`constructor` in a value', toJsonText({ ...account(11), billing_postcode: 'constructor' }), false],
  [
    'more list items than a body may hold',
    `{"import_supplier":"MINE","x":[${'0,'.repeat(MAX_LIST_ITEMS)}0]}`,
    false,
  ],
];

describe("validate's unread body", () => {
  it('is read in a thread only when the event loop would read it to the same value, refusing nothing', () => {
    const reference = currentReference().key;
    for (const [name, text, plain] of TEXTS) {
      const answer = bodyVerdictInThread({ text, clock, reference });
      const read = readPlainJsonObject(text);
      assert.equal(read !== undefined, plain, name);
      if (read === undefined) {
        assert.deepEqual(answer, { unread: true }, name);
        continue;
      }
      const body = readBody(text) as Record<string, unknown>;
      assert.deepEqual(read, body, name);
      assert.ok('errors' in answer, name);
      assert.deepEqual({ errors: answer.errors, code: answer.code }, verdictOf(body, clock), name);
      const inner = typeof body.payload === 'object' && body.payload !== null ? body.payload : body;
      assert.deepEqual(answer.reservation.identifiers, uniqueIdentifiersOf(inner), name);
      assert.deepEqual(answer.suppliers, name.includes('outside') ? ['OTHER'] : ['MINE'], name);
    }
  });

  describe('answers as the event loop answers', () => {
    let threads: TestApp;
    let loop: TestApp;
    const headers = new Map<TestApp, Record<string, string>>();
    before(async () => {
      // A pool size no other test uses; and none at all, where every body is read on the event loop.
      threads = await createTestApp({ CHECK_THREADS: '5' });
      loop = await createTestApp({ CHECK_THREADS: '0' });
      for (const t of [threads, loop]) {
        headers.set(t, (await tokenFor(t.app, ['MINE'], ['MINE', 'OTHER'])).headers);
        // An account that holds a meter point, for the conflict below.
        const res = await post(t, '/v2/data-import/accounts/', toJsonText(account(100)));
        assert.equal(res.statusCode, 201, res.body);
      }
    });
    after(async () => {
      await threads?.close();
      await loop?.close();
    });

    const post = (t: TestApp, url: string, payload: string, type = 'application/json') =>
      t.app.inject({ method: 'POST', url, headers: { ...headers.get(t), 'content-type': type }, payload });
    const validate = (t: TestApp, text: string, query = '') =>
      post(t, `/v2/data-import/accounts/validate/${query}`, text);
    const answerOf = (res: { statusCode: number; body: string }) => ({
      status: res.statusCode,
      body: res.body === '' ? null : JSON.parse(res.body),
    });

    it('for every kind of text, and for a conflict with a scheduled account', async () => {
      const pool = sharedAccountCheckPool(5);
      const readBefore = pool.bodiesReadInThreads;
      const conflict = { ...account(9), supply_addresses: account(100).supply_addresses };
      const texts: [string, string, boolean][] = [...TEXTS, ['a conflict', toJsonText(conflict), true]];
      const statuses = new Set<number>();
      for (const [name, text] of texts) {
        const a = answerOf(await validate(threads, text));
        // Threads or none, the same answer; and the answer bulk validate gives the same text as a
        // line, which its parser reads first, as every body was read before decision 0110.
        assert.deepEqual(a, answerOf(await validate(loop, text)), name);
        if (text !== '') {
          const bulk = await post(
            threads,
            '/v2/data-import/accounts/validate/bulk/',
            text,
            'application/x-ndjson',
          );
          assert.equal(bulk.statusCode, 200, `${name}: ${bulk.body}`);
          const line = bulk.json().results[0];
          assert.deepEqual({ status: line.status, body: line.body }, a, name);
        }
        statuses.add(a.status);
        if (name === 'a conflict')
          assert.ok(
            a.body.errors.some((e: { code: string }) => e.code === 'meter_point_on_another_account'),
            JSON.stringify(a),
          );
      }
      assert.deepEqual([...statuses].sort(), [200, 400, 403]);
      const plain = texts.filter(([, , p]) => p).length;
      assert.equal(pool.bodiesReadInThreads - readBefore, plain, 'the plain texts were read in a thread');
    });

    it("refuses the body first, then the query, then the key's scope, as every route does", async () => {
      const valid = toJsonText(account(12));
      const cases: [string, string, string, number, string, string | null][] = [
        [
          'a malformed body and a supplier outside the key',
          '{"a":',
          '?import_supplier=OTHER',
          400,
          'parse_error',
          null,
        ],
        ['a refused body and a refused query', '{"x":"\\u0000"}', '?q=%00', 400, 'validation_error', 'x'],
        ['a plain body and a refused query', valid, '?q=%00', 400, 'validation_error', 'q'],
        [
          'a plain body and a supplier outside the key',
          valid,
          '?import_supplier=OTHER',
          403,
          'permission_denied',
          null,
        ],
      ];
      for (const [name, text, query, status, code, attr] of cases) {
        for (const t of [threads, loop]) {
          const res = await validate(t, text, query);
          assert.equal(res.statusCode, status, `${name}: ${res.body}`);
          assert.equal(res.json().code, code, name);
          if (attr !== null) assert.equal(res.json().errors[0].attr, attr, name);
        }
      }
    });
  });
});
