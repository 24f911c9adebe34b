import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type MappedAccount, mapBook } from '../../src/flat-files/map-book.ts';
import { parseProfile } from '../../src/flat-files/profile.ts';
import { planProfile } from '../../src/flat-files/profile-plan.ts';

const PROFILE = `
profile: errors
version: 1
format: { encoding: windows-1252, delimiter: ";", decimal: "," }
files:
  accounts: { path: acc.csv, key: NO }
  premises: { path: prem.csv, key: PID, parent: accounts, join: NO, fills: supply_addresses }
  points: { path: mp.csv, parent: premises, join: PID, fills: "supply_addresses[].meter_points" }
fields:
  import_supplier: { const: ACME }
  external_account_number: NO
  account_type: { column: KIND, map: { D: DOMESTIC } }
  transfer_balance: BAL
  smart_read_cycle_day: DAY
  supply_addresses[].supply_address1: A1
  supply_addresses[].supply_postcode: PC
  supply_addresses[].customer_at_supply_address_from_date: { column: FROM, date: dd/MM/yyyy }
  supply_addresses[].meter_points[].identifier: MPXN
  supply_addresses[].meter_points[].supply_type: { const: ELECTRICITY }
  supply_addresses[].meter_points[].mpid: { const: ACME }
  supply_addresses[].meter_points[].supply_start_date: { column: START, date: dd/MM/yyyy }
`;

const GOOD = {
  'acc.csv': 'NO;KIND;BAL;DAY\n1;D;1,50;3\n2;D;-0,25;\n',
  'prem.csv': 'PID;NO;A1;PC;FROM\nP1;1;1 High St;W1F 9DE;01/02/2020\nP2;2;2 High St;W1F 9DE;01/02/2020\n',
  'mp.csv': 'MPXN;PID;START\n1000000000012;P1;01/02/2020\n1000000000021;P2;01/02/2020\n',
};

describe('mapping problems, each located as file:line:column', () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** Maps GOOD with `change` applied to its files; the problems' lines and the accounts. */
  async function mapWith(change: Partial<Record<keyof typeof GOOD, string | Buffer>>, profile = PROFILE) {
    const dir = mkdtempSync(join(tmpdir(), 'ferry-map-errors-'));
    dirs.push(dir);
    for (const [name, text] of Object.entries({ ...GOOD, ...change })) {
      writeFileSync(join(dir, name), typeof text === 'string' ? Buffer.from(text, 'latin1') : text);
    }
    const accounts: MappedAccount[] = [];
    const result = await mapBook(planProfile(parseProfile(profile, dir)), (m) => void accounts.push(m), {
      bucketBytes: 40,
    });
    return { lines: result.problems.lines(), accounts: accounts.map((m) => m.account) };
  }

  it('maps the good files without a problem (the baseline of every case)', async () => {
    const { lines, accounts } = await mapWith({});
    assert.deepEqual(lines, []);
    const byNo = Object.fromEntries(accounts.map((a) => [a.external_account_number, a]));
    assert.equal(byNo['1'].transfer_balance, '1.50');
    assert.equal(byNo['1'].smart_read_cycle_day, 3);
    assert.equal(byNo['2'].smart_read_cycle_day, undefined, 'a blank cell makes no field');
  });

  it('unparseable_date: a day that does not exist, or a month-first date', async () => {
    const { lines } = await mapWith({
      'prem.csv': GOOD['prem.csv']
        .replace('01/02/2020\nP2', '2020-02-01\nP2')
        .replace(/01\/02\/2020\n$/, '30/02/2020\n'),
    });
    assert.deepEqual(lines, [
      'prem.csv:2:5 unparseable_date fields.supply_addresses[].customer_at_supply_address_from_date [FROM]: "2020-02-01" is not a date written dd/MM/yyyy',
      'prem.csv:3:5 unparseable_date fields.supply_addresses[].customer_at_supply_address_from_date [FROM]: "30/02/2020" is not a date written dd/MM/yyyy',
    ]);
  });

  it('unparseable_decimal: a thousands separator or a decimal point where the file writes commas', async () => {
    const { lines } = await mapWith({ 'acc.csv': 'NO;KIND;BAL;DAY\n1;D;1.234,50;3\n2;D;0.25;\n' });
    assert.deepEqual(lines, [
      'acc.csv:2:3 unparseable_decimal fields.transfer_balance [BAL]: "1.234,50" is not a decimal with "," and no thousands separator',
      'acc.csv:3:3 unparseable_decimal fields.transfer_balance [BAL]: "0.25" is not a decimal with "," and no thousands separator',
    ]);
  });

  it('unmapped_value and unparseable_integer', async () => {
    const { lines } = await mapWith({ 'acc.csv': 'NO;KIND;BAL;DAY\n1;B;1,50;3\n2;D;0,25;3rd\n' });
    assert.deepEqual(lines, [
      'acc.csv:2:2 unmapped_value fields.account_type [KIND]: "B" is not one of the map\'s values (D)',
      'acc.csv:3:4 unparseable_integer fields.smart_read_cycle_day [DAY]: "3rd" is not a whole number',
    ]);
  });

  it('orphan_row names both files, for a child of the accounts and a grandchild', async () => {
    const { lines } = await mapWith({
      'prem.csv': `${GOOD['prem.csv']}P3;9;3 High St;W1F 9DE;01/02/2020\n`,
      'mp.csv': `${GOOD['mp.csv']}1000000000030;P4;01/02/2020\n`,
    });
    assert.deepEqual(lines, [
      'mp.csv:4:2 orphan_row files.points.join [PID]: no row of prem.csv has the key "P4"',
      'prem.csv:4:2 orphan_row files.premises.join [NO]: no row of acc.csv has the key "9"',
    ]);
  });

  it('duplicate_key in the accounts file and in a parent file', async () => {
    const { lines } = await mapWith({
      'acc.csv': `${GOOD['acc.csv']}1;D;0,00;\n`,
      'prem.csv': `${GOOD['prem.csv']}P1;2;9 High St;W1F 9DE;01/02/2020\n`,
    });
    assert.deepEqual(lines, [
      'acc.csv:4:1 duplicate_key files.accounts.key [NO]: the key "1" is on line 2 already',
      'prem.csv:4:1 duplicate_key files.premises.key [PID]: the key "P1" is on line 2 already',
    ]);
  });

  it('missing_required_column: at the end of the header, before any row is read', async () => {
    const { lines, accounts } = await mapWith({
      'prem.csv': 'PID;NO;A1;POSTCODE;FROM\nP1;1;x;y;01/02/2020\n',
    });
    assert.deepEqual(lines, [
      'prem.csv:1:6 missing_required_column files.premises [PC]: the header has no column PC, which the profile reads',
    ]);
    assert.deepEqual(accounts, []);
  });

  it('encoding_error: a byte windows-1252 does not define, and bad UTF-8', async () => {
    const bad = Buffer.concat([
      Buffer.from('PID;NO;A1;PC;FROM\nP1;1;1 High St'),
      Buffer.from([0x81]),
      Buffer.from(';W1F 9DE;01/02/2020\nP2;2;2 High St;W1F 9DE;01/02/2020\n'),
    ]);
    assert.deepEqual((await mapWith({ 'prem.csv': bad })).lines, [
      'prem.csv:2:3 encoding_error files.premises [A1]: bytes that are not windows-1252',
    ]);
    const utf8 = PROFILE.replace('prem.csv, key: PID', 'prem.csv, encoding: utf-8, key: PID');
    const latin1 = Buffer.from(
      'PID;NO;A1;PC;FROM\nP1;1;Zoë;W1F 9DE;01/02/2020\nP2;2;2 High St;W1F 9DE;01/02/2020\n',
      'latin1',
    );
    assert.deepEqual((await mapWith({ 'prem.csv': latin1 }, utf8)).lines, [
      'prem.csv:2:3 encoding_error files.premises [A1]: bytes that are not utf-8',
    ]);
    const withBom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(latin1.toString('latin1'), 'utf8'),
    ]);
    assert.deepEqual((await mapWith({ 'prem.csv': withBom }, utf8)).lines, [], 'UTF-8 with a BOM');
    const ok = await mapWith({
      'acc.csv': Buffer.from('NO;KIND;BAL;DAY\n1;D;1,50;3\n2;D;\x80;\n', 'latin1'),
    });
    assert.deepEqual(ok.lines, [
      'acc.csv:3:3 unparseable_decimal fields.transfer_balance [BAL]: "€" is not a decimal with "," and no thousands separator',
    ]);
  });

  it('malformed_csv: a row with more fields than the header (its children then have no parent)', async () => {
    const { lines } = await mapWith({ 'acc.csv': 'NO;KIND;BAL;DAY\n1;D;1,50;3;extra\n2;D;0,25;\n' });
    assert.deepEqual(lines, [
      'acc.csv:2:5 malformed_csv files.accounts: the row has 5 fields, the header 4',
      'mp.csv:2:2 orphan_row files.points.join [PID]: the row of prem.csv with the key "P1" belongs to no account',
      'prem.csv:2:2 orphan_row files.premises.join [NO]: no row of acc.csv has the key "1"',
    ]);
  });
});
