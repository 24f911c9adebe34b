/**
 * The generated structural pass answers only "passes or not" and is trusted to skip Ajv when it
 * says "passes": it must agree with Ajv on every document, valid or not, and take the same
 * decimals. Held here against Ajv itself on valid accounts (generated, with decimals as strings
 * and as numbers), the kitchen-sink account, follow-up bodies, and all of them mutated the ways
 * the fuzzer and the property tests mutate bodies.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TSchema } from '@sinclair/typebox';
import fc from 'fast-check';
import { AccountPayloadSchema, TaskParamsSchema } from '../../src/accounts/payload/account-payload.schema.ts';
import { ACCOUNT_FIELD_FORMATS } from '../../src/accounts/payload/rules/field-formats.ts';
import { PaymentInstructionBody } from '../../src/follow-ups/payment-instructions/payment-instructions.schema.ts';
import { TransactionsBodySchema } from '../../src/follow-ups/transactions/transactions.schema.ts';
import { ajvValidator } from '../../src/validation/structural-validator.ts';
import { compileStructurePass, type StructurePass } from '../../src/validation/structure-pass.ts';
import { leftoverNumbers } from '../../src/vocabulary/exact-numbers.ts';
import { MAX_NESTING_DEPTH } from '../../src/vocabulary/field-types.ts';
import { scanJsonText } from '../../src/vocabulary/json-text.ts';
import { kitchenSinkAccount } from '../accounts/payload/fixtures/kitchen-sink-account.ts';
import { applyMutations, type Json } from '../fuzz/fuzz-values.ts';
import { bodyEdits, generatedAccount, readBody } from '../helpers/account-bodies.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { toJsonText } from '../helpers/json-text.ts';

const SEED = 20_261_124;

/** Both verdicts on the same text (each on its own parse: taking a decimal marks it taken). */
const compiled = new Map<TSchema, [StructurePass, ReturnType<typeof ajvValidator>]>();

function verdicts(schema: TSchema, text: string) {
  if (!compiled.has(schema))
    compiled.set(schema, [
      compileStructurePass(schema, ACCOUNT_FIELD_FORMATS),
      ajvValidator(schema, ACCOUNT_FIELD_FORMATS),
    ]);
  const [pass, ajv] = compiled.get(schema) as [StructurePass, ReturnType<typeof ajvValidator>];
  return () => {
    const byPass = readBody(text);
    const passed = pass(byPass);
    const ajvResult = ajv(readBody(text));
    return {
      passes: passed !== null && leftoverNumbers(byPass).length === 0,
      decimals: passed,
      ajvPasses: ajvResult.errors.length === 0,
      ajvDecimals: ajvResult.decimalNumbers,
      ajvErrors: ajvResult.errors,
    };
  };
}

/** Asserts both verdicts agree (and the decimals, when they pass); returns whether they pass. */
function assertAgrees(schema: TSchema, body: Json): boolean {
  const text = toJsonText(body);
  // The service refuses a body nested deeper before any validator sees it (json-body.ts).
  if (scanJsonText(text).depth > MAX_NESTING_DEPTH) return false;
  const v = verdicts(schema, text)();
  assert.equal(
    v.passes,
    v.ajvPasses,
    `pass ${v.passes}, Ajv ${v.ajvPasses} ${JSON.stringify(v.ajvErrors)} on ${text}`,
  );
  if (v.passes) assert.deepEqual(v.decimals, v.ajvDecimals, 'the same decimals, at the same pointers');
  return v.passes;
}

const account = generatedAccount('PASS');

describe('the generated structural pass', () => {
  it('compiles every schema the service validates with it', () => {
    for (const schema of [
      AccountPayloadSchema,
      TaskParamsSchema,
      TransactionsBodySchema,
      PaymentInstructionBody,
    ])
      assert.equal(typeof compileStructurePass(schema, ACCOUNT_FIELD_FORMATS), 'function');
  });

  it('passes what Ajv passes, with the same decimals, on valid accounts', () => {
    let passed = 0;
    fc.assert(
      fc.property(account, (body) => {
        if (assertAgrees(AccountPayloadSchema, body)) passed++;
      }),
      { seed: SEED, numRuns: 100 },
    );
    // Most generated accounts are valid (some hold numbers no double keeps): the agreement is not vacuous.
    assert.ok(passed >= 50, `${passed} of 100 generated accounts passed`);
    assert.ok(assertAgrees(AccountPayloadSchema, kitchenSinkAccount()));
    for (let n = 0; n < 20; n++) assert.ok(assertAgrees(AccountPayloadSchema, accountFor('PASS', n)));
  });

  it('refuses exactly what Ajv refuses, on mutated accounts', () => {
    fc.assert(
      fc.property(fc.oneof(account, fc.constant(kitchenSinkAccount())), bodyEdits, (body, changes) => {
        assertAgrees(AccountPayloadSchema, applyMutations(body, changes));
      }),
      { seed: SEED, numRuns: 1500 },
    );
  });

  it('refuses exactly what Ajv refuses, with every leaf of the kitchen sink replaced by each kind of value', () => {
    const values: Json[] = [
      1.5,
      -1,
      0,
      2 ** 31,
      1e300,
      '',
      ' ',
      'x',
      '2024-02-30',
      true,
      null,
      [],
      {},
      [1],
      { a: 1 },
    ];
    const base = kitchenSinkAccount();
    const leaves: Array<Array<string | number>> = [];
    const walk = (node: Json, path: Array<string | number>) => {
      if (node !== null && typeof node === 'object') {
        for (const [key, child] of Object.entries(node))
          walk(child, [...path, Array.isArray(node) ? Number(key) : key]);
      } else leaves.push(path);
    };
    walk(base, []);
    assert.ok(leaves.length > 200, `${leaves.length} leaves`);
    for (const path of leaves) {
      for (const value of values) {
        const body: Json = structuredClone(base);
        let parent: Json = body;
        for (const key of path.slice(0, -1)) parent = parent[key];
        parent[path[path.length - 1]] = value;
        assertAgrees(AccountPayloadSchema, body);
      }
    }
  });

  it('agrees with Ajv on mutated follow-up bodies', () => {
    const ledger = accountFor('PASS', 1).ledgers[0];
    const transactions = {
      import_supplier: 'PASS',
      external_account_number: 'EXT-1',
      transactions: [...ledger.current_statement_transactions, ...ledger.historical_statement_transactions],
    };
    transactions.transactions[0].amount = 7.5;
    assert.ok(assertAgrees(TransactionsBodySchema, transactions));
    fc.assert(
      fc.property(bodyEdits, (changes) => {
        assertAgrees(TransactionsBodySchema, applyMutations(transactions, changes));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
