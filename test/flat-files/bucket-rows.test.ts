/**
 * Child rows wait in bucket files between the passes (decision 0089), their cells split by marks
 * no decoded text can hold. A character past U+FFFF starts with a high surrogate, so a one-unit
 * mark would cut such a cell in two and shift every later column: these cells must come back whole.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { mapBook } from '../../src/flat-files/map-book.ts';
import { parseProfile } from '../../src/flat-files/profile.ts';
import { planProfile } from '../../src/flat-files/profile-plan.ts';

const PROFILE = `
profile: astral
version: 1
format: { encoding: utf-8, delimiter: ";" }
files:
  accounts: { path: acc.csv, key: NO }
  premises: { path: prem.csv, key: PID, parent: accounts, join: NO, fills: supply_addresses }
  points: { path: mp.csv, parent: premises, join: PID, fills: "supply_addresses[].meter_points" }
fields:
  import_supplier: { const: ACME }
  external_account_number: NO
  supply_addresses[].supply_address1: A1
  supply_addresses[].supply_address2: A2
  supply_addresses[].supply_postcode: PC
  supply_addresses[].customer_at_supply_address_from_date: { const: "2020-02-01" }
  supply_addresses[].meter_points[].identifier: MPXN
  supply_addresses[].meter_points[].supply_type: { const: ELECTRICITY }
  supply_addresses[].meter_points[].mpid: { const: ACME }
  supply_addresses[].meter_points[].supply_start_date: { const: "2020-02-01" }
`;

// U+10330 (D800 DF30), U+10FC00 (DBFF DC00, the high surrogate of the row mark before), an emoji.
const NAMES = ['𐌰 Gothic Road', '\u{10FC00}', 'Flat 😀 2'];

describe('bucket rows keep characters past U+FFFF', () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('maps each cell whole, the columns after it in their places', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ferry-astral-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'acc.csv'), 'NO\n1\n2\n3\n');
    const premises = NAMES.map((name, i) => `P${i};${i + 1};${name};${NAMES[(i + 1) % 3]};W1F 9DE`);
    writeFileSync(join(dir, 'prem.csv'), `PID;NO;A1;A2;PC\n${premises.join('\n')}\n`);
    writeFileSync(
      join(dir, 'mp.csv'),
      `MPXN;PID\n${NAMES.map((_, i) => `10000000000${i}2;P${i}`).join('\n')}\n`,
    );
    const accounts: Record<string, unknown>[] = [];
    const result = await mapBook(
      planProfile(parseProfile(PROFILE, dir)),
      (m) => void accounts.push(m.account),
      {
        bucketBytes: 40,
      },
    );
    assert.deepEqual(result.problems.lines(), []);
    const byNumber = new Map(accounts.map((a) => [a.external_account_number, a]));
    NAMES.forEach((name, i) => {
      const [address] = (byNumber.get(String(i + 1)) as { supply_addresses: Record<string, unknown>[] })
        .supply_addresses;
      assert.deepEqual(
        [address.supply_address1, address.supply_address2, address.supply_postcode],
        [name, NAMES[(i + 1) % 3], 'W1F 9DE'],
      );
      assert.equal((address.meter_points as { identifier: string }[])[0].identifier, `10000000000${i}2`);
    });
  });
});
