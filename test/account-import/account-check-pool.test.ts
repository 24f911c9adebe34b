/**
 * Account checks in a thread (decision 0049) must answer exactly what the event loop answers:
 * the same errors, supplier code and accepted payload (with the exact text of decimals sent as
 * long JSON numbers), on valid and mutated accounts; and a thread that dies changes no answer.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { type CheckClock, check } from '../../src/account-import/account-check.ts';
import { AccountCheckPool, sharedAccountCheckPool } from '../../src/account-import/account-check-pool.ts';
import { MAX_NESTING_DEPTH } from '../../src/vocabulary/field-types.ts';
import { scanJsonText } from '../../src/vocabulary/json-text.ts';
import { applyMutations } from '../fuzz/fuzz-values.ts';
import { bodyEdits, generatedAccount, readBody } from '../helpers/account-bodies.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { toJsonText } from '../helpers/json-text.ts';
import { createTestApp, tokenFor } from '../helpers/test-app.ts';

const SEED = 20_261_124;
const clock: CheckClock = { today: '2026-11-24', nowMs: Date.parse('2026-11-24T12:00:00Z') };

const read = readBody;

const account = generatedAccount('POOL');
const edits = bodyEdits;

describe('account checks in a thread', () => {
  const pool = new AccountCheckPool(1);
  after(() => pool.close());

  /** The thread's answer and the event loop's for the same text, each on its own parse. */
  async function both(text: string, keepPayload = true) {
    const inThread = await pool.check(read(text), text, clock, keepPayload);
    return { inThread, onLoop: check(read(text), clock) };
  }

  it('answers what the event loop answers, payload included, on valid and mutated accounts', async () => {
    const texts = fc
      .sample(
        fc.oneof(
          account,
          fc.tuple(account, edits).map(([body, changes]) => applyMutations(body, changes)),
        ),
        {
          seed: SEED,
          numRuns: 300,
        },
      )
      .map(toJsonText)
      // The parser refuses deeper bodies before any check (json-body.ts).
      .filter((text) => scanJsonText(text).depth <= MAX_NESTING_DEPTH);
    texts.push(toJsonText({ payload: accountFor('POOL', 1), task_params: { is_dry_run: true } }));
    texts.push(toJsonText({ ...accountFor('POOL', 2), import_supplier: 42 }));
    let accepted = 0;
    let refused = 0;
    for (const text of texts) {
      const { inThread, onLoop } = await both(text);
      assert.deepEqual(inThread, onLoop, text);
      if (onLoop.parsed.ok) accepted++;
      else refused++;
    }
    // Neither side is vacuous.
    assert.ok(accepted >= 50 && refused >= 50, `${accepted} accepted, ${refused} refused`);
    assert.ok(pool.checksInThreads >= texts.length, 'every check ran in the thread');
  });

  it('keeps a decimal sent as a long JSON number exactly, and refuses one no decimal field takes', async () => {
    const sent = toJsonText(accountFor('POOL', 3));
    // 18 significant digits: a double keeps 17 at most.
    const text = sent.replace(/"reading_value":"[^"]*"/, '"reading_value":12345678.0000000001');
    assert.notEqual(text, sent, 'the fixture has a reading_value to replace');
    const { inThread, onLoop } = await both(text);
    assert.deepEqual(inThread, onLoop);
    assert.ok(onLoop.parsed.ok, JSON.stringify(onLoop.errors));
    assert.ok(JSON.stringify(inThread.parsed).includes('"12345678.0000000001"'), 'the text as sent');
    const leftover = await both(text.replace(/^\{/, '{"extra":123456789012345678901,'));
    assert.deepEqual(leftover.inThread, leftover.onLoop);
    assert.equal(leftover.onLoop.parsed.ok, false);
  });

  it('answers the verdict without the payload when the caller does not read it', async () => {
    const text = toJsonText(accountFor('POOL', 4));
    const { inThread, onLoop } = await both(text, false);
    assert.equal(onLoop.parsed.ok, true);
    assert.deepEqual(
      { ...inThread, parsed: { ok: inThread.parsed.ok } },
      { ...onLoop, parsed: { ok: true } },
    );
  });

  it('answers on the event loop when the thread dies with checks in flight, then starts a new one', async () => {
    const texts = Array.from({ length: 40 }, (_, n) => toJsonText(accountFor('POOL', 100 + n)));
    const inFlight = texts.map((text) => pool.check(read(text), text, clock));
    await pool.close();
    const answers = await Promise.all(inFlight);
    for (const [n, answer] of answers.entries()) assert.deepEqual(answer, check(read(texts[n]), clock));
    const before = pool.checksInThreads;
    const { inThread, onLoop } = await both(texts[0]);
    assert.deepEqual(inThread, onLoop);
    assert.equal(pool.checksInThreads, before + 1, 'a new thread took the next check');
  });

  it('checks on the event loop without threads or without the text', async () => {
    const none = new AccountCheckPool(0);
    const text = toJsonText(accountFor('POOL', 5));
    assert.deepEqual(await none.check(read(text), text, clock), check(read(text), clock));
    const before = pool.checksInThreads;
    assert.deepEqual(await pool.check(read(text), undefined, clock), check(read(text), clock));
    assert.equal(none.checksInThreads + pool.checksInThreads - before, 0);
  });
});

describe('the account endpoints and their check threads', () => {
  it('check validate, create and each NDJSON line in a thread; a JSON array element on the event loop', async (t) => {
    // A pool size no other test uses, so this app's pool counts only its own checks.
    const t0 = await createTestApp({ CHECK_THREADS: '3' });
    t.after(() => t0.close());
    const pool = sharedAccountCheckPool(3);
    const { headers } = await tokenFor(t0.app, ['POOL']);
    const post = (url: string, payload: string, type = 'application/json') =>
      t0.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': type }, payload });
    const valid = (n: number) => toJsonText(accountFor('POOL', n));
    const invalid = toJsonText({ ...accountFor('POOL', 20), billing_postcode: 'NOPE' });

    let res = await post('/v2/data-import/accounts/validate/', valid(21));
    assert.equal(res.statusCode, 200, res.body);
    res = await post('/v2/data-import/accounts/validate/', invalid);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().errors[0].attr, 'billing_postcode');
    res = await post('/v2/data-import/accounts/', valid(22));
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(pool.checksInThreads, 3);

    res = await post(
      '/v2/data-import/accounts/bulk/',
      [valid(23), invalid, valid(24)].join('\n'),
      'application/x-ndjson',
    );
    assert.deepEqual(
      res.json().results.map((r: { status: number }) => r.status),
      [201, 400, 201],
    );
    assert.equal(pool.checksInThreads, 6);
    res = await post('/v2/data-import/accounts/bulk/', `[${valid(25)},${valid(26)}]`);
    assert.deepEqual(
      res.json().results.map((r: { status: number }) => r.status),
      [201, 201],
    );
    assert.equal(pool.checksInThreads, 6, 'array elements have no text of their own');
    await pool.close();
  });
});
