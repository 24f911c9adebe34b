/**
 * The field table: for every field of every object type of the account payload, invalid values
 * are rejected with the right code at the field's own attr. Fields come from walking the schema
 * over a payload that holds every object type; the expected codes below are written out, not
 * derived from the implementation.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkAccountPayloadStructure } from '../../../src/accounts/account-checks.ts';
import { AccountPayloadSchema } from '../../../src/accounts/payload/account-payload.schema.ts';
import { DECIMAL_KEYWORD } from '../../../src/vocabulary/field-types.ts';
import { kitchenSinkAccount } from './fixtures/kitchen-sink-account.ts';
import { errorsOf, remove, set } from './support/payload-fixtures.ts';
import { type SchemaField, walkSchema } from './support/schema-fields.ts';

type Schema = Record<string, unknown>;
const REMOVE = Symbol('remove the field');

interface InvalidCase {
  value: unknown;
  code: string;
}

/** A value each format rejects, and the code it must be rejected with. */
const FORMAT_CASES: Record<string, (schema: Schema) => InvalidCase> = {
  date: () => ({ value: '2019-02-30', code: 'invalid_date' }),
  'date-time': () => ({ value: '2019-01-01 10:00', code: 'invalid_datetime' }),
  'date-or-date-time': () => ({ value: 'yesterday', code: 'invalid_datetime' }),
  time: () => ({ value: '25:00', code: 'invalid_time' }),
  email: () => ({ value: 'not-an-address', code: 'invalid_email' }),
  'customer-email': () => ({ value: 'test@example.com', code: 'possible_test_email_address' }),
  'billing-email': () => ({ value: 'blackhole+bills@example.com', code: 'billing_email_not_valid' }),
  'phone-number': () => ({ value: '0123', code: 'invalid_phone_number' }),
  'gb-postcode': () => ({ value: 'QQ1 1QQ', code: 'invalid_postcode' }),
  mpan: () => ({ value: '1200060176721', code: 'invalid_supply_point_identifier' }),
  mprn: () => ({ value: '9353824108', code: 'invalid_supply_point_identifier' }),
  mpxn: () => ({ value: '12345', code: 'invalid_supply_point_identifier' }),
  'meter-serial-number': () => ({ value: 'ab 12', code: 'invalid_meter_serial_number' }),
  'tariff-code': () => ({ value: 'E 1R', code: 'tariff_code_not_found' }),
  'product-code': () => ({ value: '-VAR', code: 'product_code_does_not_exist' }),
  'ledger-code': () => ({ value: 'main ledger', code: 'ledger_code_does_not_exist' }),
  'campaign-slug': () => ({ value: 'super account', code: 'campaign_not_found' }),
  'dunning-path-name': () => ({ value: 'standard path', code: 'dunning_path_not_found' }),
  'reference-namespace': () => ({ value: 'a..b', code: 'invalid_reference_namespace' }),
  'contribution-scheme-code': () => ({ value: 'warm homes', code: 'invalid_contribution_scheme' }),
  'market-participant-id': (schema) => ({
    value: 'a'.repeat((schema.minLength as number) ?? 3),
    code: 'market_participant_not_found',
  }),
  tpr: () => ({ value: '0001', code: 'tpr_not_found' }),
  'psr-industry-code': () => ({ value: '1a', code: 'psr_invalid_industry_code' }),
  'delivery-point-identifier': () => ({ value: 'abc', code: 'invalid_delivery_point_identifier' }),
  'company-number': () => ({ value: 'ABC', code: 'invalid_company_number' }),
  'smart-device-id': () => ({ value: '01-23', code: 'invalid_smart_device_id' }),
  'portfolio-number': () => ({ value: 'P-123', code: 'invalid_portfolio_number' }),
  'tax-year': () => ({ value: '2019/21', code: 'incorrect_format_for_tax_year' }),
  'electricity-prepay-reference': () => ({ value: '12a', code: 'invalid_prepay_customer_reference_number' }),
  'document-path': () => ({ value: '../secrets.pdf', code: 'invalid_document_path' }),
};

function decimalCases(schema: Schema): InvalidCase[] {
  const { whole, fraction } = schema[DECIMAL_KEYWORD] as { whole: number; fraction: number };
  const cases: InvalidCase[] = [
    { value: '1.2.3', code: 'invalid_decimal' },
    { value: '', code: 'blank' },
    { value: true, code: 'invalid' },
    { value: '1e3', code: 'invalid_decimal' },
    { value: `${'9'.repeat(whole + 1)}`, code: 'max_whole_digits' },
    { value: `0.${'1'.repeat(fraction + 1)}`, code: 'max_decimal_places' },
    // A JSON number reads as written (its 17 places here), never as a near double.
    { value: 0.12345678901234568, code: 'max_decimal_places' },
  ];
  if (whole + 1 <= 15) cases.push({ value: Number('9'.repeat(whole + 1)), code: 'max_whole_digits' });
  if (fraction + 1 <= 14)
    cases.push({ value: Number(`0.${'1'.repeat(fraction + 1)}`), code: 'max_decimal_places' });
  return cases;
}

const TEMPORAL_FORMATS = new Set(['date', 'date-time', 'date-or-date-time', 'time']);

/** Product characteristics have their own codes in the reference; every other choice is invalid_choice. */
function choiceCode(label: string): string {
  if (/characteristics\[code=[^\]]+\]\.code$/.test(label)) return 'characteristic_code_not_found';
  if (/characteristics\[code=[^\]]+\]\.value$/.test(label)) return 'invalid_characteristic_value';
  return 'invalid_choice';
}

function invalidCases(field: SchemaField): InvalidCase[] {
  const { schema } = field;
  const types = ([] as string[]).concat((schema.type as string | string[] | undefined) ?? []);
  const cases: InvalidCase[] = [];
  if (field.required) cases.push({ value: REMOVE, code: 'required' });
  if (types.length > 0 && !types.includes('null')) cases.push({ value: null, code: 'null' });
  if (types.length > 2) return cases; // any JSON value but null
  if (schema.const !== undefined || Array.isArray(schema.enum))
    cases.push({ value: 'NOT_A_CHOICE', code: choiceCode(field.label) });
  if (types.includes('array')) {
    cases.push({ value: 'not a list', code: 'not_a_list' });
    if (schema.minItems === 1) cases.push({ value: [], code: 'min_length' });
  } else if (types.includes('object')) {
    cases.push({ value: 42, code: 'invalid' });
  } else if (types.includes('integer')) {
    cases.push({ value: 1.5, code: 'invalid' }, { value: '1', code: 'invalid' });
    if (typeof schema.minimum === 'number') cases.push({ value: schema.minimum - 1, code: 'min_value' });
    if (typeof schema.maximum === 'number') cases.push({ value: schema.maximum + 1, code: 'max_value' });
  } else if (types.includes('boolean')) {
    cases.push({ value: 'true', code: 'invalid' });
  } else if (schema[DECIMAL_KEYWORD] !== undefined) {
    cases.push(...decimalCases(schema));
  } else if (types.includes('string')) {
    cases.push({ value: 42, code: 'invalid' });
    if (typeof schema.format === 'string') cases.push(FORMAT_CASES[schema.format](schema));
    if (TEMPORAL_FORMATS.has(String(schema.format))) cases.push({ value: '', code: 'blank' });
    if (typeof schema.maxLength === 'number')
      cases.push({ value: 'A'.repeat(schema.maxLength + 1), code: 'max_length' });
    if (schema.minLength === 1) cases.push({ value: '', code: 'blank' });
    else if (typeof schema.minLength === 'number')
      cases.push({ value: 'A'.repeat(schema.minLength - 1), code: 'min_length' });
  }
  return cases;
}

const { fields, objects } = walkSchema(AccountPayloadSchema as unknown as Schema, kitchenSinkAccount());

describe('the kitchen-sink payload behind the table', () => {
  test('is structurally valid, so every error below comes from the one change made', () => {
    assert.deepEqual(checkAccountPayloadStructure(kitchenSinkAccount()).errors, []);
  });

  test('covers every object type and field of the reference tables', () => {
    assert.ok(objects.length >= 96, `only ${objects.length} objects walked`);
    assert.ok(fields.length >= 656, `only ${fields.length} fields walked`);
  });
});

describe('every field rejects invalid values with its code at its attr', () => {
  for (const field of fields) {
    const cases = invalidCases(field);
    const summary = cases.length === 0 ? 'accepts any JSON' : cases.map((c) => c.code).join(', ');
    test(`${field.label}: ${summary}`, () => {
      for (const { value, code } of cases) {
        const payload = kitchenSinkAccount();
        if (value === REMOVE) remove(payload, field.path);
        else set(payload, field.path, value);
        const errors = errorsOf(payload);
        assert.ok(
          errors.some((e) => e.attr === field.path && e.code === code),
          `${JSON.stringify(value === REMOVE ? '(removed)' : value)} at ${field.path}: expected ${code}, got ${JSON.stringify(errors.filter((e) => e.attr.startsWith(field.path)))}`,
        );
      }
      if (cases.length === 0) {
        const payload = kitchenSinkAccount();
        set(payload, field.path, { deeply: [{ nested: [null, 1, 'x'] }] });
        assert.ok(!errorsOf(payload).some((e) => e.attr.startsWith(field.path)));
      }
    });
  }
});

describe('every object rejects an undocumented field', () => {
  for (const object of objects) {
    test(`${object.label || '(account)'}: unknown_field`, () => {
      const payload = kitchenSinkAccount();
      const attr = object.path === '' ? 'not_a_field' : `${object.path}.not_a_field`;
      set(payload, attr, 'x');
      assert.ok(errorsOf(payload).some((e) => e.attr === attr && e.code === 'unknown_field'));
    });
  }
});
