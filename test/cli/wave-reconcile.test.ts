/**
 * `ferry wave reconcile`: uploads the source's figures from a file (streamed), prints the
 * reconciliation and the first differences, and exits 1 while anything differs, 0 once clean.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWaveReconcile } from '../../src/cli/wave-reconcile.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { scheduleInWave } from '../helpers/waves.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

const SUPPLIER = 'RECONCILING';

describe('ferry wave reconcile', () => {
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  let dir: string;

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    let headers: Record<string, string>;
    ({ apiKey, headers } = await tokenFor(t.app, [SUPPLIER]));
    await scheduleInWave(t.app, headers, [accountFor(SUPPLIER, 1), accountFor(SUPPLIER, 2)], 'w1');
    await runWorkerUntilIdle(t.config, t.db);
    dir = mkdtempSync(join(tmpdir(), 'ferry-reconcile-'));
  });
  after(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const reconcile = async (args: string[]) => {
    let out = '';
    let err = '';
    const code = await runWaveReconcile([SUPPLIER, 'w1', '--url', baseUrl, '--api-key', apiKey, ...args], {
      out: (s) => {
        out += s;
      },
      err: (s) => {
        err += s;
      },
      env: {},
    });
    return { code, out, err };
  };

  it('uploads the figures, prints the differences and exits 1; exits 0 once they agree', async () => {
    const { rows } = await t.db.query<{ external_account_number: string; balance: string }>(
      sql(
        '',
        `SELECT external_account_number, round(balance, 2)::text AS balance FROM accounts
          WHERE import_supplier = $1 ORDER BY 1`,
      ),
      [SUPPLIER],
    );
    const [first, second] = rows;
    const file = join(dir, 'source.ndjson');
    writeFileSync(
      file,
      `${JSON.stringify({ external_account_number: first.external_account_number, ledger_balance: first.balance })}\n` +
        `${JSON.stringify({ external_account_number: second.external_account_number, ledger_balance: '0.01' })}\n`,
    );
    const differing = await reconcile(['--expectations', file]);
    assert.equal(differing.code, 1, differing.err);
    assert.match(differing.out, /Uploaded the expectations of 2 accounts/);
    assert.match(differing.out, /differences\. Accounts: 2 expected, 2 imported, 1 matched, 1 differing/);
    assert.match(
      differing.out,
      new RegExp(
        `${second.external_account_number}\\s+differing\\s+ledger_balance\\s+0\\.01\\s+${second.balance}`,
      ),
    );

    writeFileSync(
      file,
      rows
        .map((r) =>
          JSON.stringify({ external_account_number: r.external_account_number, ledger_balance: r.balance }),
        )
        .join('\n'),
    );
    const clean = await reconcile(['--expectations', file, '--json']);
    assert.equal(clean.code, 0, clean.err);
    const body = JSON.parse(clean.out);
    assert.equal(body.status, 'matched');
    assert.deepEqual(body.differences, []);
  });

  it('narrows the accounts listed with --kind and --measure, after the counts per kind and measure', async () => {
    const { rows } = await t.db.query<{ external_account_number: string; balance: string }>(
      sql('', 'SELECT external_account_number FROM accounts WHERE import_supplier = $1 ORDER BY 1'),
      [SUPPLIER],
    );
    const file = join(dir, 'narrow.ndjson');
    writeFileSync(
      file,
      [
        { external_account_number: rows[0].external_account_number, ledger_balance: '0.01' },
        { external_account_number: 'NEVER-IMPORTED', meter_points: 2 },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const all = await reconcile(['--expectations', file]);
    assert.equal(all.code, 1, all.err);
    assert.match(all.out, /1 differing, 1 missing, 1 unexpected/);
    assert.match(all.out, /Differing accounts per measure: ledger_balance 1\./);
    const listed = (out: string) =>
      [...out.matchAll(/^(\S+)\s+(missing|unexpected|differing)\s/gm)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(listed(all.out), [
      `${rows[0].external_account_number} differing`,
      `${rows[1].external_account_number} unexpected`,
      `${rows[1].external_account_number} unexpected`,
      `${rows[1].external_account_number} unexpected`,
      `${rows[1].external_account_number} unexpected`,
      `${rows[1].external_account_number} unexpected`,
      'NEVER-IMPORTED missing',
    ]);
    const missing = await reconcile(['--kind', 'missing']);
    assert.deepEqual(listed(missing.out), ['NEVER-IMPORTED missing']);
    const byMeasure = await reconcile(['--measure', 'ledger_balance', '--json']);
    assert.deepEqual(
      JSON.parse(byMeasure.out).differences.map(
        (d: { external_account_number: string }) => d.external_account_number,
      ),
      [rows[0].external_account_number],
    );
    const none = await reconcile(['--kind', 'missing', '--measure', 'meter_points']);
    assert.match(none.out, /No account that does not match is missing and differing in meter_points/);
    for (const bad of [
      ['--kind', 'lost'],
      ['--measure', 'accounts'],
    ]) {
      const refused = await reconcile(bad);
      assert.equal(refused.code, 2, bad.join(' '));
      assert.match(refused.err, new RegExp(`${bad[0]} is one of`));
    }
  });

  it('checks the wave name before calling the service, and defines every measure in --help', async () => {
    let err = '';
    const code = await runWaveReconcile([SUPPLIER, '..', '--url', 'http://127.0.0.1:9', '--api-key', 'k'], {
      out: () => {},
      err: (s) => {
        err += s;
      },
      env: {},
    });
    assert.equal(code, 2);
    assert.match(err, /"\.\." is not a wave's name: A wave is 1 to 64 of A-Z a-z 0-9 \. _ -/);
    let help = '';
    assert.equal(await runWaveReconcile(['--help'], { out: (s) => (help += s), err: () => {}, env: {} }), 0);
    for (const measure of [
      'accounts',
      'meter_points',
      'ledger_balance',
      'transactions',
      'transactions_total',
      'transactions_net',
    ])
      assert.match(help, new RegExp(`^  ${measure}: \\S`, 'm'), measure);
    assert.match(help, /transactions_net: .*PAYMENT and CREDIT add/);
  });

  it('exits 2 with the refusal when the figures are not valid, and for a missing file', async () => {
    const file = join(dir, 'bad.ndjson');
    writeFileSync(file, '{"external_account_number": "X", "ledger_balance": 1.5}\n');
    const refused = await reconcile(['--expectations', file]);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /1\.ledger_balance: invalid_amount/);
    assert.equal((await reconcile(['--expectations', join(dir, 'none.ndjson')])).code, 2);
  });
});
