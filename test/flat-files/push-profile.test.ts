/**
 * `ferry push accounts --profile`: the example legacy export is mapped, pushed into a wave and
 * reconciled against the source's own figures, end to end against a service on loopback; the
 * report traces a validation error to its source row and column; a profile mistake and a source
 * mistake each stop before any request is sent.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWaveReconcile } from '../../src/cli/wave-reconcile.ts';
import { sql } from '../../src/infra/db/db.ts';
import { push, readNdjson, serviceForPush } from '../helpers/push-run.ts';
import { tokenFor } from '../helpers/test-app.ts';

const EXAMPLE = new URL('../../examples/legacy-export/', import.meta.url).pathname;
const SUPPLIER = 'MERIDIAN';

describe('ferry push accounts --profile (the legacy export, end to end)', () => {
  let service: Awaited<ReturnType<typeof serviceForPush>>;
  let apiKey: string;
  const processes = async () =>
    (
      await service.t.db.query<{ n: number }>(
        sql('', 'SELECT count(*)::int AS n FROM import_processes WHERE import_supplier = $1'),
        [SUPPLIER],
      )
    ).rows[0].n;
  /** A copy of the example export in its own folder, `edit` applied to its files. */
  const exportCopy = (name: string, edit: (file: string, text: string) => string = (_, t) => t) => {
    const dir = join(service.dir, name);
    cpSync(EXAMPLE, dir, { recursive: true });
    for (const file of ['profile.yaml', 'ACCOUNTS.CSV', 'CUSTOMERS.CSV', 'METER_POINTS.CSV']) {
      const text = readFileSync(join(dir, file), 'latin1');
      writeFileSync(join(dir, file), edit(file, text), 'latin1');
    }
    return dir;
  };
  const pushExport = (dir: string, ...options: string[]) =>
    push([
      join(dir, 'book.ndjson'),
      '--profile',
      join(dir, 'profile.yaml'),
      '--url',
      service.baseUrl,
      '--api-key',
      apiKey,
      ...options,
    ]);

  before(async () => {
    service = await serviceForPush('ferry-push-profile-');
    ({ apiKey } = await tokenFor(service.t.app, [SUPPLIER]));
  });
  after(() => service?.close());

  it('a profile mistake stops before anything is sent: one line per problem, exit 2', async () => {
    const dir = exportCopy('bad-profile', (file, text) =>
      file === 'profile.yaml'
        ? text.replace('fills: customers', 'fills: customer').replace('BILL_NAME', 'BILL NAME')
        : text,
    );
    const run = await pushExport(dir);
    assert.equal(run.code, 2, run.err);
    assert.match(run.err, /files\.customers\.fills: customer is not an array of the account payload\n/);
    assert.equal(existsSync(join(dir, 'book.ndjson')), false);
    assert.equal(existsSync(join(dir, 'book.report.ndjson')), false);
    assert.equal(await processes(), 0);
  });

  it('a source mistake stops before anything is sent: each located in its file, exit 1', async () => {
    const dir = exportCopy('bad-source', (file, text) =>
      file === 'METER_POINTS.CSV' ? text.replace('P-31;E', 'P-13;E').replace(';E;MERI', ';X;MERI') : text,
    );
    const run = await pushExport(dir);
    assert.equal(run.code, 1, run.err);
    assert.deepEqual(run.err.trim().split('\n'), [
      'ferry push: METER_POINTS.CSV:3:3 unmapped_value fields.supply_addresses[].meter_points[].supply_type [FUEL]: "X" is not one of the map\'s values (E, G)',
      'ferry push: METER_POINTS.CSV:4:2 orphan_row files.meter_points.join [PREMISE_ID]: no row of PREMISES.CSV has the key "P-13"',
      'ferry push: METERS.CSV:2:1 orphan_row files.meters.join [MPXN]: the row of METER_POINTS.CSV with the key "1000000000021" belongs to no account',
      'ferry push: READINGS.CSV:4:1 orphan_row files.readings.join [MPXN+SERIAL]: the row of METERS.CSV with the key "1000000000021+E19K00231" belongs to no account',
      'ferry push: READINGS.CSV:5:1 orphan_row files.readings.join [MPXN+SERIAL]: the row of METERS.CSV with the key "1000000000021+E19K00231" belongs to no account',
      'ferry push: 5 problem(s) in the source files (orphan_row 4, unmapped_value 1); nothing was written.',
    ]);
    assert.equal(await processes(), 0);
  });

  it("--validate-only: the report traces each error to its source row and the profile's column", async () => {
    const dir = exportCopy('invalid-mobile', (file, text) =>
      file === 'CUSTOMERS.CSV' ? text.replace('07911 123403', '0791') : text,
    );
    const run = await pushExport(dir, '--validate-only');
    assert.equal(run.code, 1, run.err);
    const report = readNdjson(join(dir, 'book.validation.ndjson'));
    const rejected = report.find((l) => l.external_account_number === '100002');
    assert.deepEqual(
      rejected?.errors.map((e: { code: string; attr: string; source: string }) => [e.code, e.attr, e.source]),
      [['invalid_phone_number', 'customers.1.mobile', 'CUSTOMERS.CSV:4 (MOBILE)']],
    );
    assert.equal(await processes(), 0);
  });

  it('maps, pushes into a wave and reconciles with the source system’s balances', async () => {
    const dir = exportCopy('good');
    const run = await pushExport(dir, '--wave', 'legacy-1');
    assert.equal(run.code, 0, `${run.out}\n${run.err}`);
    assert.match(run.out, /3 accounts from 26 rows \(profile meridian-legacy version 1\)/);
    const report = readNdjson(join(dir, 'book.report.ndjson'));
    assert.deepEqual(report.map((l) => [l.external_account_number, l.status]).sort(), [
      ['100001', 'PROCESSED'],
      ['100002', 'PROCESSED'],
      ['100003', 'PROCESSED'],
    ]);
    // The legacy system's own figures: each account's balance as its export states it.
    const expectations = join(dir, 'expectations.ndjson');
    writeFileSync(
      expectations,
      [
        '{"external_account_number":"100001","ledger_balance":"-12.50"}',
        '{"external_account_number":"100002","ledger_balance":"0.00"}',
        '{"external_account_number":"100003","ledger_balance":"0.00"}',
      ].join('\n'),
    );
    let out = '';
    const code = await runWaveReconcile(
      [SUPPLIER, 'legacy-1', '--expectations', expectations, '--url', service.baseUrl, '--api-key', apiKey],
      {
        out: (s) => {
          out += s;
        },
        err: (s) => {
          out += s;
        },
        env: {},
      },
    );
    assert.equal(code, 0, out);
    assert.match(out, /3 expected, 3 imported, 3 matched/);
  });
});
