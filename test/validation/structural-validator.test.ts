import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from '@sinclair/typebox';
import { ACCOUNT_FIELD_FORMATS } from '../../src/accounts/payload/rules/field-formats.ts';
import {
  Choice,
  Decimal,
  List,
  NonBlankText,
  Nullable,
  Obj,
  Opt,
  TaggedUnion,
  Text,
} from '../../src/validation/schema-builders.ts';
import { splitSchema } from '../../src/validation/split-schema.ts';
import { structuralValidator } from '../../src/validation/structural-validator.ts';
import { pointerToAttr } from '../../src/validation/validation-errors.ts';

const Shape = Obj({
  name: NonBlankText({ maxLength: 5 }),
  kind: Opt(Choice(['A', 'B'] as const)),
  note: Opt(Nullable(Text())),
  amount: Opt(Decimal(3, 2)),
  items: Opt(
    List(
      TaggedUnion('type', [
        Obj({ type: Type.Literal('X'), x: NonBlankText() }),
        Obj({ type: Type.Literal('Y'), y: Opt(Text({ format: 'date' })) }),
      ]),
    ),
  ),
});
const check = structuralValidator(Shape, ACCOUNT_FIELD_FORMATS);

test('a valid value has no errors and no blocked paths', () => {
  assert.deepEqual(check({ name: 'a', items: [{ type: 'X', x: '1' }] }), {
    errors: [],
    blockedPaths: [],
    decimalNumbers: [],
  });
});

test('reports every error at once, one per attr, with dot paths and numeric indexes', () => {
  const { errors } = check({
    kind: 'C',
    note: 5,
    amount: '1234',
    items: [{ type: 'X' }, { type: 'Y', y: '2019-13-01', z: 1 }],
  });
  assert.deepEqual(
    errors.map((e) => `${e.attr}: ${e.code}`),
    [
      'name: required',
      'kind: invalid_choice',
      'note: invalid',
      'amount: max_whole_digits',
      'items.0.x: required',
      'items.1.z: unknown_field',
      'items.1.y: invalid_date',
    ],
  );
});

test('only the variant the tag selects is checked; a bad tag is reported on the tag', () => {
  const { errors } = check({ name: 'a', items: [{ type: 'Z', x: 1 }, { x: '1' }, { type: null }] });
  assert.deepEqual(
    errors.map((e) => `${e.attr}: ${e.code}`),
    ['items.0.type: invalid_choice', 'items.1.type: required', 'items.2.type: null'],
  );
  assert.match(errors[0].detail, /X, Y/);
});

test('wrong types, nulls and missing fields block the domain checks under them; limits and unknown fields do not', () => {
  const { blockedPaths } = check({ name: 'toolong', note: null, amount: true, items: 'no', extra: 1 });
  assert.deepEqual(blockedPaths, ['amount', 'items']);
});

test('a decimal sent as a JSON number is valid and comes back as its exact text', () => {
  assert.deepEqual(check({ name: 'a', amount: 12.5 }).decimalNumbers, [{ pointer: '/amount', text: '12.5' }]);
  assert.deepEqual(
    check({ name: 'a', amount: 1234.5 }).errors.map((e) => `${e.attr}: ${e.code}`),
    ['amount: max_whole_digits'],
  );
});

test('prefixes attrs when validating a part of a larger body', () => {
  const { errors } = check({ name: '' }, 'task_params');
  assert.deepEqual(
    errors.map((e) => e.attr),
    ['task_params.name'],
  );
});

test('JSON Pointer escapes in keys are undone in attrs', () => {
  assert.equal(pointerToAttr('/a~1b/0/c~0d'), 'a/b.0.c~d');
  assert.equal(pointerToAttr(''), '');
});

test('splitting moves every nested object into its own referenced schema and leaves the input untouched', () => {
  const before = JSON.stringify(Shape);
  const { root, parts } = splitSchema(Shape);
  assert.equal(JSON.stringify(Shape), before);
  assert.ok(parts.length >= 3);
  assert.ok(parts.every((part) => typeof part.$id === 'string'));
  assert.match(JSON.stringify(root), /"\$ref"/);
});
