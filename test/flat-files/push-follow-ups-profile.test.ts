/**
 * `ferry push transactions|notes --profile` (decision 0094): the example legacy export's accounts
 * are imported, then its transactions and notes are mapped and pushed end to end against a service
 * on loopback, and the service holds exactly those, amounts to the penny; a re-run resumes from the
 * report. A follow-up profile mistake and a source mistake each stop before anything is sent.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runPushCommand } from '../../src/cli/push/push-command.ts';
import { sql } from '../../src/infra/db/db.ts';
import { readNdjson, serviceForPush } from '../helpers/push-run.ts';
import { tokenFor } from '../helpers/test-app.ts';

const EXAMPLE = new URL('../../examples/legacy-export/', import.meta.url).pathname;
const SUPPLIER = 'MERIDIAN';

/** `ferry push KIND …` in this process: its exit code and what it wrote. */
async function pushKind(kind: string, args: string[]) {
  let out = '';
  let err = '';
  const progressStream = { isTTY: false, write: (s: string) => (err += s) } as unknown as NodeJS.WriteStream;
  const code = await runPushCommand([kind, ...args], {
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
    progressStream,
    env: { FERRY_PUSH_PROGRESS_MS: '60000' },
  });
  return { code, out, err };
}

describe('ferry push <follow-up> --profile (the legacy export, end to end)', () => {
  let service: Awaited<ReturnType<typeof serviceForPush>>;
  let apiKey: string;
  let dir: string;
  const transactions = async () =>
    (
      await service.t.db.query<{ ext: string; id: string; type: string; date: string; amount: string }>(
        sql(
          '',
          `SELECT a.external_account_number AS ext, t.transaction_id AS id, t.type,
                  t.transaction_date::text AS date, t.amount::text AS amount
             FROM transactions t JOIN accounts a ON a.id = t.account_id
            WHERE a.import_supplier = $1 ORDER BY t.transaction_id`,
        ),
        [SUPPLIER],
      )
    ).rows.map((r) => [r.ext, r.id, r.type, r.date, r.amount]);
  const pushExport = (kind: string, profile: string, folder = dir, ...options: string[]) =>
    pushKind(kind, [
      '--profile',
      join(folder, profile),
      '--url',
      service.baseUrl,
      '--api-key',
      apiKey,
      ...options,
    ]);
  /** A copy of the example export, `file`'s text (windows-1252) edited. */
  const exportCopy = (name: string, file: string, edit: (text: string) => string) => {
    const copy = join(service.dir, name);
    cpSync(EXAMPLE, copy, { recursive: true });
    writeFileSync(join(copy, file), edit(readFileSync(join(copy, file), 'latin1')), 'latin1');
    return copy;
  };

  before(async () => {
    service = await serviceForPush('ferry-push-follow-ups-');
    ({ apiKey } = await tokenFor(service.t.app, [SUPPLIER]));
    dir = join(service.dir, 'export');
    cpSync(EXAMPLE, dir, { recursive: true });
    // The accounts first: follow-ups are for accounts that exist.
    const accounts = await pushExport('accounts', 'profile.yaml', dir, join(dir, 'book.ndjson'));
    assert.equal(accounts.code, 0, `${accounts.out}\n${accounts.err}`);
  });
  after(() => service?.close());

  it('a follow-up profile mistake stops before anything is sent: one line per problem, exit 2', async () => {
    const copy = exportCopy('bad-profile', 'transactions.profile.yaml', (text) =>
      text
        .replace('transactions[].amount:', 'transactions[].amont:')
        .replace('fills: transactions', 'fills: transaction'),
    );
    const run = await pushExport('transactions', 'transactions.profile.yaml', copy);
    assert.equal(run.code, 2, run.err);
    const profile = join(copy, 'transactions.profile.yaml');
    assert.deepEqual(run.err.trim().split('\n'), [
      `ferry push: ${profile}: files.transactions.fills: transaction is not an array of the transactions body`,
      `ferry push: ${profile}: fields.transactions[].amont: not a field of the transactions body`,
      // With no file filling it, the array is made from the accounts' rows: its required amount is unmapped.
      `ferry push: ${profile}: files.accounts: transactions[].amount is required by the transactions body and mapped by nothing`,
      'ferry push: the profile has 3 problem(s); nothing was read or written.',
    ]);
    assert.deepEqual(await transactions(), []);
  });

  it('a source mistake stops before anything is sent, located in its file, exit 1', async () => {
    const copy = exportCopy('bad-source', 'TRANSACTIONS.CSV', (text) => text.replace('7,25', '7.25'));
    const run = await pushExport('transactions', 'transactions.profile.yaml', copy);
    assert.equal(run.code, 1, run.err);
    assert.deepEqual(run.err.trim().split('\n'), [
      'ferry push: TRANSACTIONS.CSV:3:5 unparseable_decimal fields.transactions[].amount [AMOUNT]: "7.25" is not a decimal with "," and no thousands separator',
      'ferry push: 1 problem(s) in the source files (unparseable_decimal 1); nothing was written.',
    ]);
    assert.equal(existsSync(join(copy, 'meridian-legacy-transactions-v1.ndjson')), false);
    assert.deepEqual(await transactions(), []);
  });

  it('maps and pushes the transactions: the service holds exactly those, amounts exact; a re-run resumes', async () => {
    const book = join(dir, 'transactions.ndjson');
    const run = await pushExport('transactions', 'transactions.profile.yaml', dir, book);
    assert.equal(run.code, 0, `${run.out}\n${run.err}`);
    assert.match(
      run.out,
      /2 transactions request bodies \(1 without any item left out\) from 8 rows \(profile meridian-legacy-transactions version 1\)/,
    );
    const report = readNdjson(join(dir, 'transactions.report.ndjson'));
    assert.deepEqual(report.map((l) => [l.line, l.external_account_number, l.status]).sort(), [
      [1, '100001', 'CREATED'],
      [2, '100002', 'CREATED'],
    ]);
    const expected = [
      ['100001', 'T-90011', 'PAYMENT', '2024-11-04', '12.50'],
      ['100001', 'T-90012', 'CHARGE', '2024-11-18', '7.25'],
      ['100001', 'T-90013', 'CREDIT', '2024-11-20', '-1.05'],
      ['100002', 'T-90021', 'PAYMENT', '2024-11-01', '45.00'],
      ['100002', 'T-90022', 'CREDIT', '2024-11-15', '10.00'],
    ];
    assert.deepEqual(await transactions(), expected);
    // The same command again: the report holds every line final, so nothing is sent twice.
    const again = await pushExport('transactions', 'transactions.profile.yaml', dir, book);
    assert.equal(again.code, 0, `${again.out}\n${again.err}`);
    assert.equal(readNdjson(join(dir, 'transactions.report.ndjson')).length, 2);
    assert.deepEqual(await transactions(), expected);
  });

  it("traces a refused transaction's error to its source row and column", async () => {
    const copy = exportCopy('refused', 'TRANSACTIONS.CSV', (text) =>
      text.replace('T-90021;100002;01/11/2024;PAY;45,00', 'T-90024;100002;01/11/2024;PAY;-45,00'),
    );
    const run = await pushExport(
      'transactions',
      'transactions.profile.yaml',
      copy,
      join(copy, 'transactions.ndjson'),
    );
    assert.equal(run.code, 1, `${run.out}\n${run.err}`);
    const report = readNdjson(join(copy, 'transactions.report.ndjson'));
    const refused = report.find((l) => l.external_account_number === '100002');
    assert.equal(refused?.status, 'REJECTED');
    // A payment may not be negative: refused, its error traced to the row and column it came from.
    assert.deepEqual(
      refused?.errors.map((e: { code: string; attr: string; source: string }) => [e.code, e.attr, e.source]),
      [['min_value', 'transactions.0.amount', 'TRANSACTIONS.CSV:4 (AMOUNT)']],
    );
  });

  it('maps and pushes the notes, one body a row', async () => {
    const run = await pushExport('notes', 'notes.profile.yaml', dir, join(dir, 'notes.ndjson'));
    assert.equal(run.code, 0, `${run.out}\n${run.err}`);
    const notes = await service.t.db.query<{ ext: string; body: string; pinned: boolean }>(
      sql(
        '',
        `SELECT a.external_account_number AS ext, n.body, n.is_pinned AS pinned
           FROM notes n JOIN accounts a ON a.id = n.account_id
          WHERE a.import_supplier = $1 ORDER BY a.external_account_number`,
      ),
      [SUPPLIER],
    );
    assert.deepEqual(
      notes.rows.map((r) => [r.ext, r.body, r.pinned]),
      [
        ['100001', 'The café owner next door holds a spare key – ask for Zoë.', false],
        ['100002', 'Prefers letters addressed to both Mr and Mrs Okafor.', true],
        ['100003', 'Asked about a smart meter, to be called back.', false],
      ],
    );
  });
});
