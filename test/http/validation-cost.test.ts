/**
 * Validation stays linear in what it refuses: the fuzzer found one list of 100,000 broken tax
 * items holding the process for 41 s (Ajv copied every error gathered so far at each append),
 * and a 5 MiB body can hold millions of items. Appends are made in place, and a body holds at
 * most MAX_LIST_ITEMS list items in all.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import { structuralValidator } from '../../src/validation/structural-validator.ts';
import { linearErrorAppends } from '../../src/validation/validation-errors.ts';
import { MAX_LIST_ITEMS } from '../../src/vocabulary/field-types.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

const Item = Type.Object({ amount: Type.String() }, { $id: 'CostItem', additionalProperties: false });
const Body = Type.Object({ items: Type.Array(Type.Ref('CostItem')) });

describe('the cost of refusing', () => {
  it('generated validators append errors in place, never by concat', () => {
    const compile = (options: object) => {
      const ajv = new Ajv({ allErrors: true, inlineRefs: false, ...options });
      ajv.addSchema(Item);
      return ajv.compile(Body).toString();
    };
    assert.match(compile({}), /vErrors\.concat\(/, 'Ajv itself concatenates (the case this guards)');
    assert.doesNotMatch(compile({ code: linearErrorAppends }), /vErrors\.concat\(/);
  });

  it('the payload validator reports every broken item of a long list, in linear time', () => {
    const check = structuralValidator(Type.Object({ items: Type.Array(Item) }));
    const result = check({ items: Array.from({ length: 20_000 }, () => 1) });
    assert.equal(result.errors.length, 20_000);
    assert.deepEqual(result.errors[19_999], {
      attr: 'items.19999',
      code: 'invalid',
      detail: result.errors[19_999].detail,
    });
  });

  describe('over HTTP', () => {
    let t: TestApp;
    let headers: Record<string, string>;
    before(async () => {
      t = await createTestApp();
      ({ headers } = await tokenFor(t.app, ['COST_ENERGY']));
    });
    after(() => t.close());

    it(`refuses a body of more than ${MAX_LIST_ITEMS} list items at the list that crosses the line`, async () => {
      const text = `{"import_supplier":"COST_ENERGY","external_account_number":"X","transactions":[{"tax_items":[${'1,'.repeat(MAX_LIST_ITEMS)}1]}]}`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/data-import/transactions/create/',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: text,
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(
        res.json().errors.map((e: { attr: string; code: string }) => `${e.attr}: ${e.code}`),
        ['transactions.0.tax_items: too_many_items'],
      );
    });
  });
});
