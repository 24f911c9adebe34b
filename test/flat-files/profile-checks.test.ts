import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProfileError, parseProfile } from '../../src/flat-files/profile.ts';
import { planProfile } from '../../src/flat-files/profile-plan.ts';

const BASE = `
profile: tiny
version: 2
files:
  accounts: { path: a.csv, key: NO }
  customers: { path: c.csv, parent: accounts, join: ACC, fills: customers }
fields:
  import_supplier: { const: ACME }
  external_account_number: NO
  customers[].given_name: { column: NAME, trim: true }
`;

/** The problems planning `yaml` reports (none: the empty list). */
function problemsOf(yaml: string): string[] {
  try {
    planProfile(parseProfile(yaml, '/tmp'));
    return [];
  } catch (err) {
    if (err instanceof ProfileError) return err.problems;
    throw err;
  }
}

describe('mapping profile checks (before any row is read)', () => {
  it('accepts a small valid profile and keeps the columns each file is read for', () => {
    const plan = planProfile(parseProfile(BASE, '/data'));
    assert.equal(plan.profile.name, 'tiny');
    assert.equal(plan.profile.version, 2);
    assert.deepEqual(
      plan.files.map((f) => [f.file.name, f.file.path, f.scope, f.columns]),
      [
        ['accounts', '/data/a.csv', '', ['NO']],
        ['customers', '/data/c.csv', 'customers[]', ['ACC', 'NAME']],
      ],
    );
  });

  it('names an unknown payload path by its profile key', () => {
    assert.deepEqual(problemsOf(`${BASE}  customers[].nickname: NICK\n  supply_adresses[].x: Y\n`), [
      'fields.customers[].nickname: not a field of the account payload',
      'fields.supply_adresses[].x: not a field of the account payload',
    ]);
  });

  it('names a required payload path that nothing maps, with the file that makes its object', () => {
    const yaml = BASE.replace('  import_supplier: { const: ACME }\n', '').replace(
      '  customers: {',
      '  premises: { path: p.csv, key: P, parent: accounts, join: ACC, fills: supply_addresses }\n  customers: {',
    );
    assert.deepEqual(problemsOf(`${yaml}  supply_addresses[].supply_address1: A1\n`), [
      'files.accounts: import_supplier is required by the account payload and mapped by nothing',
      'files.premises: supply_addresses[].customer_at_supply_address_from_date is required by the account payload and mapped by nothing',
      'files.premises: supply_addresses[].meter_points is required by the account payload and mapped by nothing',
      'files.premises: supply_addresses[].supply_postcode is required by the account payload and mapped by nothing',
    ]);
  });

  it('names a join to a file the profile does not name, and a join that does not match the key', () => {
    assert.deepEqual(problemsOf(BASE.replace('parent: accounts', 'parent: acounts')), [
      'files.customers.parent: "acounts" is not a file of this profile',
    ]);
    assert.deepEqual(problemsOf(BASE.replace('join: ACC', 'join: [ACC, X]')), [
      "files.customers.join: 2 column(s) for accounts's key of 1",
    ]);
  });

  it('names bad options, one line each', () => {
    const yaml = `${BASE.replace('external_account_number: NO', 'external_account_number: { column: NO, const: X, trimm: true }')}  customers[].date_of_birth: { column: DOB, date: MM/yy }\nformat: { encoding: latin9, delimiter: ";;" }\n`;
    assert.deepEqual(problemsOf(yaml), [
      'format.encoding: "latin9" is not one of utf-8, windows-1252',
      'format.delimiter: must be one character',
      'fields.external_account_number.trimm: unknown option',
      'fields.external_account_number: column and const exclude each other',
      'fields.customers[].date_of_birth.date: "MM/yy" is not a date format of dd, MM and yyyy (e.g. dd/MM/yyyy)',
    ]);
  });

  it('refuses a fills that is not an array, a when on a field, and {n} outside a group', () => {
    const yaml = `${BASE.replace('fills: customers', 'fills: billing_name')}  billing_name: { column: X, when: X }\n  billing_address1: "ADDR_{n}"\n`;
    assert.deepEqual(problemsOf(yaml), [
      'files.customers.fills: billing_name is not an array of the account payload',
      'fields.billing_name.when: applies to objects, not to a field',
      'fields.billing_address1.column: {n} is only for a field inside a group',
    ]);
  });

  it('expands a repeated column group into the columns it reads', () => {
    const yaml =
      `${BASE.replace(/ {2}customers: .*\n/, '').replace('  customers[].given_name: { column: NAME, trim: true }\n', '')}groups:\n  customers: { from: 1, to: 3, when: "C{n}_NAME" }\nfields2: x\n`.replace(
        'fields2: x\n',
        '',
      );
    const plan = planProfile(
      parseProfile(
        `${yaml.replace('fields:\n', 'fields:\n  customers[].given_name: "C{n}_NAME"\n  customers[].email: "C{n}_MAIL"\n')}`,
        '/tmp',
      ),
    );
    assert.deepEqual(plan.files[0].columns, [
      'NO',
      'C1_NAME',
      'C2_NAME',
      'C3_NAME',
      'C1_MAIL',
      'C2_MAIL',
      'C3_MAIL',
    ]);
  });
});
