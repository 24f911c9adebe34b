import assert from 'node:assert/strict';
import type { TestApp } from './test-app.ts';
import { runWorkerUntilIdle } from './worker-run.ts';

// biome-ignore lint/suspicious/noExplicitAny: fixture accounts are loose JSON
type Account = Record<string, any>;

/** Schedules an account through the API (it must be accepted) without creating it: staged only. */
export async function stageAccount(
  t: TestApp,
  headers: Record<string, string>,
  account: Account,
): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v2/data-import/accounts/',
    headers,
    payload: account,
  });
  assert.equal(res.statusCode, 201, res.body);
  return account.external_account_number;
}

/** Schedules the accounts through the API and runs a worker until they are created; their external numbers. */
export async function importAccounts(
  t: TestApp,
  headers: Record<string, string>,
  accounts: Account[],
): Promise<string[]> {
  for (const a of accounts) await stageAccount(t, headers, a);
  await runWorkerUntilIdle(t.config, t.db);
  return accounts.map((a) => a.external_account_number);
}
