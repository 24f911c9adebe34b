import assert from 'node:assert/strict';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from './account-fixtures.ts';
import { admin, type TestApp, tokenFor } from './test-app.ts';
import { scheduleInWave } from './waves.ts';
import { runWorkerUntilIdle } from './worker-run.ts';

const storedBalances = sql(
  '',
  `SELECT p.external_account_number, round(a.balance, 2)::text AS balance
     FROM import_processes p JOIN accounts a ON a.id = p.account_id
    WHERE p.import_supplier = $1 AND p.wave = $2 ORDER BY 1`,
);

/**
 * Supplier `supplier` (welcome e-mails sent, and held for their wave's approval) with waves of
 * imported accounts: `waves` maps each wave to how many accounts it gets (numbered from `first`).
 * Answers the supplier API's headers.
 */
export async function importWaves(
  t: TestApp,
  supplier: string,
  waves: Record<string, number>,
  first = 1,
): Promise<Record<string, string>> {
  const { headers } = await tokenFor(t.app, [supplier]);
  await admin(
    t.app,
    'PATCH',
    `/import-suppliers/${supplier}/`,
    { config: { send_welcome_emails: true, hold_welcome_emails: true } },
    200,
  );
  let n = first;
  for (const [wave, count] of Object.entries(waves)) {
    const accounts = Array.from({ length: count }, () => accountFor(supplier, n++));
    await scheduleInWave(t.app, headers, accounts, wave);
  }
  await runWorkerUntilIdle(t.config, t.db);
  return headers;
}

/**
 * Uploads the wave's expectations through the supplier API: each imported account's ledger
 * balance as stored, except `skew.external`'s, which is 1.00 more, and `missing` accounts that
 * were never imported.
 */
export async function uploadExpectations(
  t: TestApp,
  headers: Record<string, string>,
  opts: { supplier: string; wave: string; skew?: string; missing?: string[] },
) {
  const { rows } = await t.db.query<{ external_account_number: string; balance: string }>(storedBalances, [
    opts.supplier,
    opts.wave,
  ]);
  const lines = rows.map((r) =>
    JSON.stringify({
      external_account_number: r.external_account_number,
      ledger_balance:
        r.external_account_number === opts.skew ? (Number(r.balance) + 1).toFixed(2) : r.balance,
    }),
  );
  for (const external of opts.missing ?? [])
    lines.push(JSON.stringify({ external_account_number: external, ledger_balance: '12.30' }));
  const res = await t.app.inject({
    method: 'PUT',
    url: `/v2/data-import/waves/${opts.supplier}/${opts.wave}/expectations/`,
    headers: { ...headers, 'content-type': 'application/x-ndjson' },
    payload: `${lines.join('\n')}\n`,
  });
  assert.equal(res.statusCode, 200, res.body);
  return rows;
}
