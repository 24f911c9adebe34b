/**
 * "What validation accepts, storage keeps" for the account payload (docs/product.md, Errors): for
 * generated GB accounts that the validate endpoint accepts, create them, run the worker, and read
 * back the stored payloads and the relational columns; every value equals what was sent
 * (decimals digit for digit). Hostile values in a valid account are either refused cleanly (our
 * format, real attrs, nothing staged) or created and stored exactly — never a 201 that the
 * worker then fails for a value's form. PROPERTY_RUNS and PROPERTY_SEED set runs and seed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { applyMutations } from '../fuzz/fuzz-values.ts';
import { parseLossless, toJsonText } from '../helpers/json-text.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { accountParts, buildAccount, type DecimalMode } from './account-generator.ts';
import {
  createThroughWorker,
  fcOptions,
  hostileEdits,
  oracleSpec,
  RUNS,
  sendChecked,
} from './property-run.ts';
import { accountDifferences, payloadOf } from './stored-values.ts';

const SUPPLIER = 'PROP';

describe(`account payloads: accepted ⇒ stored exactly (${RUNS} runs each)`, () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let n = 20_000;
  before(async () => {
    t = await createTestApp();
    ({ headers } = await tokenFor(t.app, ['*'], [SUPPLIER]));
  });
  after(() => t.close());

  const validateSpec = oracleSpec('accounts.validate', 'POST', '/v2/data-import/accounts/validate/', (b) => [
    payloadOf(b as never),
    b,
  ]);
  const validate = (body: string) => sendChecked(t, headers, validateSpec, body);
  const codesOf = (json: { errors?: { attr: string; code: string }[] }) =>
    (json?.errors ?? []).map((e) => `${e.attr}:${e.code}`).join(', ');

  /** Validates, and when accepted creates and compares; counts acceptances. */
  async function acceptedIsStored(body: string, tally: { accepted: number; refusals: Map<string, number> }) {
    const v = await validate(body);
    if (v.problems.length > 0) throw new Error(`refusal not clean:\n${v.problems.join('\n')}\nbody: ${body}`);
    if (v.status !== 200) {
      const key = codesOf(v.json) || `${v.status} ${v.json?.code}`;
      tally.refusals.set(key, (tally.refusals.get(key) ?? 0) + 1);
      return;
    }
    tally.accepted++;
    const external = String(JSON.parse(body).external_account_number);
    const created = await createThroughWorker(t, headers, body, SUPPLIER, external);
    const problems = [...created.problems];
    if (created.created) problems.push(...(await accountDifferences(t.db, SUPPLIER, external, body)));
    if (problems.length > 0)
      throw new Error(`accepted, but not stored exactly:\n${problems.join('\n')}\nbody: ${body}`);
  }

  const storedProperty = (mode: DecimalMode) => async () => {
    const tally = { accepted: 0, refusals: new Map<string, number>() };
    await fc.assert(
      fc.asyncProperty(accountParts, async (parts) => {
        await acceptedIsStored(toJsonText(buildAccount(SUPPLIER, ++n, parts, mode)), tally);
      }),
      fcOptions,
    );
    // Every generated account is valid by construction: a property that accepted few proves little.
    assert.ok(
      tally.accepted >= Math.ceil(RUNS / 2),
      `only ${tally.accepted} of ${RUNS} generated valid accounts were accepted; refusals: ${JSON.stringify([...tally.refusals])}`,
    );
  };

  // JSON.parse alone would turn a 16–20-digit JSON number into a nearby double: the body parser
  // keeps such numbers as sent for the decimal fields (src/vocabulary/exact-numbers.ts).
  it('accepts decimals sent as JSON numbers exactly as it accepts them as strings', async () => {
    await fc.assert(
      fc.asyncProperty(accountParts, async (parts) => {
        const id = ++n;
        const asStrings = toJsonText(buildAccount(SUPPLIER, id, parts, 'strings'));
        const asNumbers = toJsonText(buildAccount(SUPPLIER, id, parts, 'numbers'));
        const [s, num] = [await validate(asStrings), await validate(asNumbers)];
        assert.equal(
          num.status,
          s.status,
          `strings → ${s.status} ${codesOf(s.json)}; numbers → ${num.status} ${codesOf(num.json)}\nbody: ${asNumbers}`,
        );
      }),
      fcOptions,
    );
  });

  it('stores every accepted account exactly: decimals as strings', storedProperty('strings'));

  it(
    'stores every accepted account exactly: decimals in every form, strings and JSON numbers',
    storedProperty('mixed'),
  );

  it('refuses hostile values cleanly (our format, real attrs, nothing staged), or creates and stores them exactly', async () => {
    const tally = { accepted: 0, refusals: new Map<string, number>() };
    await fc.assert(
      fc.asyncProperty(accountParts, hostileEdits, async (parts, edits) => {
        const doc = buildAccount(SUPPLIER, ++n, parts, 'strings');
        const log: string[] = [];
        const body = toJsonText(applyMutations(doc, edits, log));
        // The edits may change which account this is: look it up by what was sent.
        const sent = parseLossless(body) as Record<string, unknown> | null;
        if (!sent || typeof sent !== 'object' || typeof sent.external_account_number !== 'string') {
          const v = await validate(body);
          if (v.problems.length > 0)
            throw new Error(`${log.join('; ')}: refusal not clean:\n${v.problems.join('\n')}`);
          return;
        }
        try {
          await acceptedIsStored(body, tally);
        } catch (err) {
          throw new Error(`${log.join('; ')}: ${(err as Error).message}`);
        }
      }),
      fcOptions,
    );
  });
});
