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
import { verdictOf } from '../../src/accounts/account-checks.ts';
import { bodyVerdictInThread } from '../../src/accounts/body-verdict.ts';
import { uniqueIdentifiersOf } from '../../src/accounts/payload/unique-identifiers.ts';
import { currentReference } from '../../src/catalogue/reference-data.ts';
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

    const post = (t: TestApp, url: string, payload: string) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { ...headers.get(t), 'content-type': 'application/json' },
        payload,
      });

    it('for every kind of text, and for a conflict with a scheduled account', async () => {
      const conflict = { ...account(9), supply_addresses: account(100).supply_addresses };
      const statuses = new Set<number>();
      for (const [name, text] of [...TEXTS, ['a conflict', toJsonText(conflict)]]) {
        const a = await post(threads, '/v2/data-import/accounts/validate/', text);
        const b = await post(loop, '/v2/data-import/accounts/validate/', text);
        assert.equal(a.statusCode, b.statusCode, `${name}: ${a.body} against ${b.body}`);
        assert.deepEqual(a.json(), b.json(), name);
        statuses.add(a.statusCode);
        if (name === 'a conflict')
          assert.ok(
            a.json().errors.some((e: { code: string }) => e.code === 'meter_point_on_another_account'),
            a.body,
          );
      }
      assert.deepEqual([...statuses].sort(), [200, 400, 403]);
    });
  });
});
