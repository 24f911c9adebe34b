import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MappedAccount, mapBook } from '../../src/flat-files/map-book.ts';
import { loadProfile } from '../../src/flat-files/profile.ts';
import { planProfile } from '../../src/flat-files/profile-plan.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: mapped JSON
type Obj = Record<string, any>;

const PROFILE = new URL('../../examples/legacy-export/profile.yaml', import.meta.url).pathname;

async function mapExample(bucketBytes?: number) {
  const mapped: MappedAccount[] = [];
  const result = await mapBook(planProfile(loadProfile(PROFILE)), (m) => void mapped.push(m), {
    bucketBytes,
  });
  return { mapped, result };
}

describe('the legacy export example (examples/legacy-export)', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  before(async () => {
    t = await createTestApp();
    ({ headers } = await tokenFor(t.app, ['MERIDIAN']));
  });
  after(() => t.close());

  it('maps to three accounts without a problem, windows-1252 and decimal commas read exactly', async () => {
    const { mapped, result } = await mapExample();
    assert.deepEqual(result.problems.lines(), []);
    assert.deepEqual(
      mapped.map((m) => m.account.external_account_number),
      ['100001', '100002', '100003'],
    );
    const [zoe, okafor, renee] = mapped.map((m) => m.account as Obj);
    assert.equal(zoe.billing_name, 'Zoë Brontë');
    assert.equal(zoe.transfer_balance, '-12.50');
    assert.equal(zoe.customers[0].date_of_birth, '1988-03-17');
    assert.equal(okafor.customers.length, 2);
    assert.equal(okafor.customers[1].given_name, 'Chinedu');
    assert.equal(renee.ledgers, undefined, 'no statement date, no ledger');
    const [gas, elec] = zoe.supply_addresses[0].meter_points;
    assert.deepEqual([gas.supply_type, elec.supply_type], ['GAS', 'ELECTRICITY']);
    assert.equal(gas.meters[0].transfer_readings[0].reading_value, '4410.5');
    assert.deepEqual(
      okafor.supply_addresses[0].meter_points[0].meters[0].registers.map((r: Obj) => r.tpr),
      ['00206', '00210'],
    );
    assert.deepEqual(mapped[1].sources, {
      '': 'ACCOUNTS.CSV:3',
      'customers.0': 'CUSTOMERS.CSV:2',
      'customers.1': 'CUSTOMERS.CSV:4',
      'supply_addresses.0': 'PREMISES.CSV:4',
      'supply_addresses.0.meter_points.0': 'METER_POINTS.CSV:4',
      'supply_addresses.0.meter_points.0.meters.0': 'METERS.CSV:2',
      'supply_addresses.0.meter_points.0.meters.0.transfer_readings.0': 'READINGS.CSV:4',
      'supply_addresses.0.meter_points.0.meters.0.transfer_readings.1': 'READINGS.CSV:5',
    });
  });

  it('maps the same accounts when the rows are spread over many buckets', async () => {
    const one = await mapExample();
    const many = await mapExample(64);
    assert.ok(many.result.buckets > 10);
    const byNumber = (list: MappedAccount[]) =>
      Object.fromEntries(list.map((m) => [m.account.external_account_number as string, m]));
    assert.deepEqual(byNumber(many.mapped), byNumber(one.mapped));
  });

  it('every mapped account passes the service validation', async () => {
    const { mapped } = await mapExample();
    for (const { account } of mapped) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/data-import/validate-account/',
        headers,
        payload: account as never,
      });
      assert.equal(res.statusCode, 200, `${account.external_account_number}: ${res.body}`);
    }
  });
});
