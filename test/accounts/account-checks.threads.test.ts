/**
 * The validate endpoint's checks in a thread (decision 0049) must give exactly the verdict the
 * event loop gives: the same errors, in the same order, and supplier code, on valid and mutated
 * accounts and on numbers only their sent text keeps; and a thread that dies changes no answer.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import {
  AccountCheckPool,
  type CheckClock,
  sharedAccountCheckPool,
  verdictOf,
} from '../../src/accounts/account-checks.ts';
import { MAX_NESTING_DEPTH } from '../../src/vocabulary/field-types.ts';
import { scanJsonText } from '../../src/vocabulary/json-text.ts';
import { applyMutations } from '../fuzz/fuzz-values.ts';
import { bodyEdits, generatedAccount, readBody } from '../helpers/account-bodies.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { toJsonText } from '../helpers/json-text.ts';
import { createTestApp, tokenFor } from '../helpers/test-app.ts';

const SEED = 20_261_124;
const clock: CheckClock = { today: '2026-11-24', nowMs: Date.parse('2026-11-24T12:00:00Z') };

/** The event loop's verdict on `text`, read as the service's parser reads it. */
const onLoop = (text: string) => verdictOf(readBody(text), clock);

describe('account checks in a thread', () => {
  const pool = new AccountCheckPool(1);
  after(() => pool.close());

  /** The thread's verdict and the event loop's on the same text, each on its own parse. */
  async function both(text: string) {
    return { inThread: await pool.verdict(readBody(text), text, clock), onLoop: onLoop(text) };
  }

  it('keeps one error listener on its threads however many checks it runs', async () => {
    // Each check once added a listener: Node warned at the 11th, and validate ran at half its rate.
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const text = toJsonText(accountFor('POOL', 3));
      await Promise.all(Array.from({ length: 40 }, () => pool.verdict(readBody(text), text, clock)));
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message),
        [],
      );
      assert.equal(pool.checksInThreads >= 40, true, 'the checks ran in the thread');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('gives the verdict the event loop gives, on valid and mutated accounts', async () => {
    const account = generatedAccount('POOL');
    const texts = fc
      .sample(
        fc.oneof(
          account,
          fc.tuple(account, bodyEdits).map(([body, changes]) => applyMutations(body, changes)),
        ),
        { seed: SEED, numRuns: 300 },
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
      if (onLoop.errors.length === 0) accepted++;
      else refused++;
    }
    // Neither side is vacuous.
    assert.ok(accepted >= 50 && refused >= 50, `${accepted} accepted, ${refused} refused`);
    assert.ok(pool.checksInThreads >= texts.length, 'every check ran in the thread');
  });

  it('reads a decimal sent as a long JSON number by its sent text', async () => {
    const sent = toJsonText(accountFor('POOL', 3));
    // As a double this is 12345678 and passes; its sent text has 11 decimal places, one too many.
    const text = sent.replace(/"reading_value":"[^"]*"/, '"reading_value":12345678.00000000001');
    assert.notEqual(text, sent, 'the fixture has a reading_value to replace');
    const { inThread, onLoop } = await both(text);
    assert.deepEqual(inThread, onLoop);
    assert.deepEqual(
      onLoop.errors.map((e) => e.code),
      ['max_decimal_places'],
    );
  });

  it('answers on the event loop when the thread dies with checks in flight, then starts a new one', async () => {
    const texts = Array.from({ length: 40 }, (_, n) => toJsonText(accountFor('POOL', 100 + n)));
    const inFlight = texts.map((text) => pool.verdict(readBody(text), text, clock));
    await pool.close();
    const answers = await Promise.all(inFlight);
    for (const [n, answer] of answers.entries()) assert.deepEqual(answer, onLoop(texts[n]));
    const before = pool.checksInThreads;
    const { inThread, onLoop: expected } = await both(texts[0]);
    assert.deepEqual(inThread, expected);
    assert.equal(pool.checksInThreads, before + 1, 'a new thread took the next check');
  });

  it('starts threads again after being stopped before any answer', async () => {
    const fresh = new AccountCheckPool(1);
    fresh.start();
    await fresh.close();
    const text = toJsonText(accountFor('POOL', 6));
    assert.deepEqual(await fresh.verdict(readBody(text), text, clock), onLoop(text));
    assert.equal(fresh.checksInThreads, 1);
    await fresh.close();
  });

  it('checks on the event loop without threads or without the text', async () => {
    const none = new AccountCheckPool(0);
    const text = toJsonText(accountFor('POOL', 5));
    assert.deepEqual(await none.verdict(readBody(text), text, clock), onLoop(text));
    const before = pool.checksInThreads;
    assert.deepEqual(await pool.verdict(readBody(text), undefined, clock), onLoop(text));
    assert.equal(none.checksInThreads + pool.checksInThreads - before, 0);
  });
});

describe('the validate endpoint and its check threads', () => {
  it('checks each validate body in a thread; create and bulk on the event loop', async (t) => {
    // A pool size no other test uses, so this app's pool counts only its own checks.
    const app = await createTestApp({ CHECK_THREADS: '3' });
    t.after(() => app.close());
    const pool = sharedAccountCheckPool(3);
    t.after(() => pool.close());
    const { headers } = await tokenFor(app.app, ['*'], ['POOL']);
    const post = (url: string, payload: string, type = 'application/json') =>
      app.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': type }, payload });
    const valid = (n: number) => toJsonText(accountFor('POOL', n));
    const invalid = toJsonText({ ...accountFor('POOL', 20), billing_postcode: 'NOPE' });

    let res = await post('/v2/data-import/accounts/validate/', valid(21));
    assert.equal(res.statusCode, 200, res.body);
    res = await post('/v2/data-import/accounts/validate/', invalid);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().errors[0].attr, 'billing_postcode');
    // The thread's supplier code, looked up on the event loop.
    res = await post('/v2/data-import/accounts/validate/', toJsonText(accountFor('NOBODY', 22)));
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().errors[0].code, 'import_supplier_not_found');
    assert.equal(pool.checksInThreads, 3);

    res = await post('/v2/data-import/accounts/', valid(23));
    assert.equal(res.statusCode, 201, res.body);
    res = await post(
      '/v2/data-import/accounts/bulk/',
      [valid(24), invalid].join('\n'),
      'application/x-ndjson',
    );
    assert.deepEqual(
      res.json().results.map((r: { status: number }) => r.status),
      [201, 400],
    );
    assert.equal(pool.checksInThreads, 3, 'create and bulk check on the event loop');
  });
});
