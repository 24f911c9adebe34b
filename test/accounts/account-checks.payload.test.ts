import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  prepareAccountPayloadValidation,
  validateAccountPayload,
} from '../../src/accounts/account-checks.ts';
import { AccountPayloadSchema } from '../../src/accounts/payload/account-payload.schema.ts';
import { kitchenSinkAccount } from './payload/fixtures/kitchen-sink-account.ts';
import {
  assertRejects,
  assertValid,
  errorsOf,
  exampleAccount,
  exampleWith,
  get,
  set,
  TODAY,
} from './payload/support/payload-fixtures.ts';
import { walkSchema } from './payload/support/schema-fields.ts';

describe('the reference example account', () => {
  test('validates with zero errors', () => assertValid(exampleAccount()));

  test('validates with zero errors today', () =>
    assertValid(exampleAccount(), new Date().toISOString().slice(0, 10)));

  test('comes back as the same object when nothing needs normalising', () => {
    const payload = exampleAccount();
    const result = validateAccountPayload(payload, { today: TODAY });
    assert.ok(result.ok);
    assert.equal(result.value, payload);
  });
});

describe('normalisation', () => {
  test('takes decimals sent as JSON numbers, as the real examples send them, and returns their exact text', () => {
    const payload = exampleWith({ transfer_balance: 30.0, 'ledgers.0.ledger_balance': 30 });
    const result = validateAccountPayload(payload, { today: TODAY });
    assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
    assert.equal(result.value.transfer_balance, '30');
    assert.equal(result.value.ledgers?.[0].ledger_balance, '30');
    assert.equal(payload.transfer_balance, 30, 'the input is not modified');
  });

  test('rules read a JSON-number decimal by its value: a mismatch is still found', () => {
    const payload = exampleWith({ transfer_balance: 30.5 });
    assert.ok(errorsOf(payload).some((e) => e.code === 'ledger_balances_not_equal_to_transfer_balance'));
  });

  test('refuses blank decimals and dates, which no column could store', () => {
    const payload = exampleWith({ 'ledgers.0.ledger_balance': '', 'customers.0.date_of_birth': '' });
    assert.deepEqual(
      errorsOf(payload).map((e) => `${e.attr}: ${e.code}`),
      ['customers.0.date_of_birth: blank', 'ledgers.0.ledger_balance: blank'],
    );
  });

  test('returns postcodes in canonical form without modifying the input', () => {
    const payload = exampleWith({
      billing_postcode: 'w1f9de',
      'supply_addresses.0.supply_postcode': ' w1f  9de ',
    });
    const before = JSON.stringify(payload);
    const result = validateAccountPayload(payload, { today: TODAY });
    assert.ok(result.ok);
    assert.equal(result.value.billing_postcode, 'W1F 9DE');
    assert.equal(result.value.supply_addresses?.[0].supply_postcode, 'W1F 9DE');
    assert.equal(JSON.stringify(payload), before);
    assert.equal(result.value.customers, payload.customers, 'untouched parts are shared, not copied');
  });
});

describe('reporting every error at once', () => {
  test('a payload with 50 distinct errors reports all 50', () => {
    const mistakes: Array<[string, unknown, string]> = [
      ['import_supplier', '', 'blank'],
      ['external_account_number', 'X'.repeat(129), 'max_length'],
      ['unknown_occupier', 'no', 'invalid'],
      ['account_type', 'HOUSEHOLD', 'invalid_choice'],
      ['billing_name', 42, 'invalid'],
      ['billing_address2', 'X'.repeat(513), 'max_length'],
      ['billing_postcode', 'NOT A CODE', 'invalid_postcode'],
      ['billing_email', 'nobody', 'invalid_email'],
      ['sales_channel', 'DOOR_TO_DOOR', 'invalid_choice'],
      ['date_of_sale', '2019-02-29', 'invalid_date'],
      ['smart_read_cycle_day', 1.5, 'invalid'],
      ['communication_preference', null, 'null'],
      ['document_accessibility', 'AUDIO', 'invalid_choice'],
      ['language_preference', 'en', 'invalid_choice'],
      ['transfer_balance', true, 'invalid'],
      ['company_number', 'ABC', 'invalid_company_number'],
      ['billing_delivery_point_identifier', 'abc', 'invalid_delivery_point_identifier'],
      ['not_a_field', 1, 'unknown_field'],
      ['customers.0.given_name', 'X'.repeat(256), 'max_length'],
      ['customers.0.email', 'test@example.com', 'possible_test_email_address'],
      ['customers.0.mobile', '07', 'invalid_phone_number'],
      ['customers.0.landline', 2072343456, 'invalid'],
      ['customers.0.date_of_birth', '11/01/1989', 'invalid_date'],
      ['customers.0.title', 'X'.repeat(21), 'max_length'],
      ['customers.0.psr.0.elec_industry_code', '1', 'psr_invalid_industry_code'],
      ['customers.0.psr.1.effective_from', 'soon', 'invalid_datetime'],
      ['customers.0.customer_preferences.opted_into_sms', 'yes', 'invalid'],
      ['customers.0.credit_score', 10000, 'max_value'],
      ['customers.0.pronouns', 'IT', 'invalid_choice'],
      ['supply_addresses.0.supply_address1', '', 'blank'],
      ['supply_addresses.0.supply_postcode', 'W1F', 'invalid_postcode'],
      ['supply_addresses.0.meter_points.0.identifier', '1200060176721', 'invalid_supply_point_identifier'],
      ['supply_addresses.0.meter_points.0.mpid', 'tent', 'market_participant_not_found'],
      ['supply_addresses.0.meter_points.0.agreements.0.tariff_code', 'ELEC 1234', 'tariff_code_not_found'],
      [
        'supply_addresses.0.meter_points.0.meters.0.meter_serial_number',
        'z16n389556',
        'invalid_meter_serial_number',
      ],
      ['supply_addresses.0.meter_points.0.meters.0.registers.0.number_of_digits', 0, 'min_value'],
      ['supply_addresses.0.meter_points.0.meters.0.registers.0.tpr', '1', 'tpr_not_found'],
      ['supply_addresses.0.meter_points.0.eac_history.0.consumption', '123456789', 'max_whole_digits'],
      ['supply_addresses.0.meter_points.0.smart_refusal_interest.source', 'POST', 'invalid_choice'],
      ['supply_addresses.0.meter_points.1.identifier', '9353824108', 'invalid_supply_point_identifier'],
      [
        'supply_addresses.0.meter_points.1.meters.0.transfer_readings.0.reading_value',
        '500.000000000001',
        'max_decimal_places',
      ],
      ['supply_addresses.0.meter_points.1.aq_history.0.source', 'X'.repeat(256), 'max_length'],
      ['supply_addresses.0.property_administrators.0.landline', '+44 20', 'invalid_phone_number'],
      ['ledgers.0.current_statement_transactions.0.reason', 'BECAUSE', 'invalid_choice'],
      ['ledgers.0.historical_statement_transactions.0.transaction_id', '', 'blank'],
      ['payment_schedules.0.means', 'CASH', 'invalid_choice'],
      ['references.0.namespace', 'X'.repeat(51), 'max_length'],
      ['notes.0.created_at', '2018-10-10 10:20', 'invalid_datetime'],
      ['notes.0.document_paths.0.document_path', '../../etc/passwd', 'invalid_document_path'],
      ['warm_home_discount.0.tax_year', '2017', 'incorrect_format_for_tax_year'],
    ];
    assert.equal(new Set(mistakes.map(([path]) => path)).size, 50);
    const payload = exampleAccount();
    for (const [path, value] of mistakes) set(payload, path, value);
    const errors = errorsOf(payload);
    for (const [attr, , code] of mistakes) {
      assert.ok(
        errors.some((e) => e.attr === attr && e.code === code),
        `missing ${attr}: ${code}`,
      );
    }
    assert.ok(errors.every((e) => typeof e.detail === 'string' && e.detail.length > 0));
  });

  test('reports structural and domain errors together', () => {
    const payload = exampleWith({ 'customers.0.mobile': '07', 'ledgers.0.ledger_balance': '31.00' });
    const codes = errorsOf(payload).map((e) => e.code);
    assert.ok(codes.includes('invalid_phone_number'));
    assert.ok(codes.includes('balance_mismatch_on_ledger_balance'));
  });

  test('skips the domain rules of a meter point with a wrongly typed part, but still checks the rest', () => {
    const payload = exampleWith({
      'supply_addresses.0.meter_points.0.meters.0.registers': 'none',
      transfer_balance: '31.00',
    });
    const errors = errorsOf(payload);
    assert.deepEqual(
      errors.map((e) => `${e.attr}: ${e.code}`),
      [
        'supply_addresses.0.meter_points.0.meters.0.registers: not_a_list',
        'transfer_balance: ledger_balances_not_equal_to_transfer_balance',
      ],
    );
  });
});

describe('hostile input', () => {
  test('rejects __proto__ and constructor keys as unknown fields without polluting prototypes', () => {
    const json = JSON.stringify(exampleAccount()).replace(
      '{"import_supplier"',
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"import_supplier"',
    );
    const payload = JSON.parse(json);
    set(
      payload,
      'customers.0',
      JSON.parse(`{"__proto__":{"isAdmin":true},${JSON.stringify(get(payload, 'customers.0')).slice(1)}`),
    );
    const errors = errorsOf(payload);
    for (const attr of ['__proto__', 'constructor', 'customers.0.__proto__']) {
      assert.ok(
        errors.some((e) => e.attr === attr && e.code === 'unknown_field'),
        attr,
      );
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(({} as Record<string, unknown>).isAdmin, undefined);
  });

  test('accepts deeply nested JSON where any JSON is allowed, without recursing into it', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assertValid(exampleWith({ 'metadata.0.value': deep }));
  });

  test('rejects deeply nested garbage in a typed field with one error at its top', () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.deepEqual(
      errorsOf(exampleWith({ customers: deep })).map((e) => `${e.attr}: ${e.code}`),
      ['customers.0: invalid'],
    );
  });

  test('rejects a payload that is not an object with one error at the root', () => {
    for (const payload of [null, [], 'account', 42, true]) {
      const errors = errorsOf(payload);
      assert.equal(errors.length, 1, JSON.stringify(payload));
      assert.equal(errors[0].attr, '');
    }
  });

  test('never throws, whatever wrong type any field holds', () => {
    const { fields } = walkSchema(
      AccountPayloadSchema as unknown as Record<string, unknown>,
      kitchenSinkAccount(),
    );
    for (const field of fields) {
      for (const value of [null, 0, 'x', [], {}, [null]]) {
        const payload = kitchenSinkAccount();
        set(payload, field.path, value);
        const errors = errorsOf(payload);
        assert.ok(
          errors.every((e) => typeof e.attr === 'string' && typeof e.code === 'string'),
          field.path,
        );
      }
    }
  });

  test('rejects a wrong type on the account type without running the rules that depend on it', () => {
    assertRejects(exampleWith({ account_type: 7 }), 'account_type', 'invalid');
    assert.ok(
      !errorsOf(exampleWith({ account_type: 7 })).some((e) => e.code === 'customer_family_name_required'),
    );
  });
});

describe('start-up', () => {
  test('the validator can be compiled ahead of the first request', () => {
    prepareAccountPayloadValidation();
    assertValid(exampleAccount());
  });
});
