/**
 * One mapping of Ajv's keywords to our codes: Fastify's validator (every body, query and path a
 * route's schema checks) and the account payload's validator (the payload and the follow-up bodies
 * it checks) answer the same code for the same rule.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import { StringEnum } from '../../src/http/schemas.ts';
import { structuralValidator } from '../../src/validation/structural-validator.ts';
import { ajvErrorsToItems } from '../../src/validation/validation-errors.ts';
import { registerFieldTypes } from '../../src/vocabulary/field-types.ts';

const Schema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 5 }),
    kind: StringEnum(['A', 'B'] as const),
    count: Type.Integer({ minimum: 1, maximum: 9 }),
    tags: Type.Array(Type.String(), { minItems: 1, maxItems: 2 }),
  },
  { additionalProperties: false },
);

const VALID = { name: 'x', kind: 'A', count: 1, tags: ['t'] };

// As app.ts configures Fastify's Ajv.
const fastifyAjv = registerFieldTypes(new Ajv({ allErrors: true, coerceTypes: false, useDefaults: false }));
const fastifyValidate = fastifyAjv.compile(Schema);
const payloadValidate = structuralValidator(Schema);

const byFastify = (value: unknown) =>
  fastifyValidate(value)
    ? []
    : ajvErrorsToItems(fastifyValidate.errors ?? [], value).map((e) => `${e.attr}: ${e.code}`);
const byPayloadValidator = (value: unknown) =>
  payloadValidate(value).errors.map((e) => `${e.attr}: ${e.code}`);

describe('Ajv errors as error items', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a missing field', { name: undefined }, 'name: required'],
    ['an unknown field', { colour: 'red' }, 'colour: unknown_field'],
    ['null', { name: null }, 'name: null'],
    ['a wrong type', { name: 5 }, 'name: invalid'],
    ['a blank string', { name: '' }, 'name: blank'],
    ['a string too long', { name: 'toolong' }, 'name: max_length'],
    ['a value not in the list', { kind: 'C' }, 'kind: invalid_choice'],
    ['a number too small', { count: 0 }, 'count: min_value'],
    ['a number too large', { count: 10 }, 'count: max_value'],
    ['an empty list', { tags: [] }, 'tags: min_length'],
    ['a list with too many items', { tags: ['a', 'b', 'c'] }, 'tags: too_many_items'],
    ['a string where a list belongs', { tags: 'a' }, 'tags: not_a_list'],
  ];
  for (const [rule, change, expected] of cases) {
    it(`answers ${rule} with the same code in both validators`, () => {
      const value = JSON.parse(JSON.stringify({ ...VALID, ...change }));
      assert.deepEqual(byFastify(value), [expected]);
      assert.deepEqual(byPayloadValidator(value), [expected]);
    });
  }

  it('accepts what both accept', () => {
    assert.deepEqual(byFastify(VALID), []);
    assert.deepEqual(byPayloadValidator(VALID), []);
  });
});
