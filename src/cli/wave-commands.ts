/**
 * `ferry wave approve|rollback <supplier> <wave>`: the operator's acts on a wave, over the admin
 * API. A rollback first shows what it would remove (the dry run) and goes on only when the
 * operator types the wave's name back (or passed --yes): it deletes accounts.
 */
import { createInterface } from 'node:readline/promises';
import { WAVE_NAME, WAVE_NAME_DETAIL } from '../accounts/account-checks.ts';
import { type AdminApi, AdminApiError, bodyOf } from './admin-client.ts';
import { type Flags, type ListIo, UsageError } from './operator-lists.ts';
import { renderRecord, renderTable } from './table.ts';

export interface WaveIo extends ListIo {
  /** Asks the operator a question and answers the line typed; stdin by default. */
  ask?: (question: string) => Promise<string>;
}

async function askOnStdin(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

interface ConflictBody {
  code?: string;
  totals?: { measure: string; expected: unknown; stored: unknown; difference: unknown }[];
  external_account_numbers?: string[];
}

/** A 409 said with what its body carries (the totals, the accounts written to), then thrown on. */
function explainConflict(err: unknown, io: WaveIo): never {
  if (err instanceof AdminApiError && err.status === 409 && !io.json) {
    const body = (err.body ?? {}) as ConflictBody;
    if (body.code === 'reconciliation_differences' && body.totals) {
      process.stderr.write(`${renderTable(body.totals, ['measure', 'expected', 'stored', 'difference'])}\n`);
    }
    if (body.code === 'welcome_emails_sent' && body.external_account_numbers) {
      const shown = body.external_account_numbers.slice(0, 20);
      const more = body.external_account_numbers.length - shown.length;
      process.stderr.write(`E-mailed accounts: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}\n`);
    }
  }
  throw err;
}

const tableRows = (rows: Record<string, number>) =>
  Object.entries(rows)
    .filter(([, n]) => n > 0)
    .map(([table, n]) => ({ table, rows: n }));

/** `wave approve` and `wave rollback`: 0 when done, 1 when refused or not confirmed, 2 on bad usage. */
export async function runWaveCommand(
  api: AdminApi,
  action: 'approve' | 'rollback',
  args: string[],
  flags: Flags,
  io: WaveIo,
): Promise<number> {
  const [supplier, wave] = args;
  if (!supplier || !wave) throw new UsageError(`usage: ferry wave ${action} <supplier> <wave>`);
  if (!WAVE_NAME.test(wave)) throw new UsageError(`"${wave}" is not a wave's name: ${WAVE_NAME_DETAIL}`);
  const params = { path: { supplier, wave } };
  const show = (value: unknown, human: () => string) =>
    io.out(io.json ? JSON.stringify(value, null, 2) : human());

  if (action === 'approve') {
    if (flags.by !== undefined && (typeof flags.by !== 'string' || flags.by.trim() === ''))
      throw new UsageError('--by names who approves: give a name');
    const body = {
      force: flags.force === true,
      ...(typeof flags.by === 'string' ? { approved_by: flags.by.trim() } : {}),
    };
    const approved = await bodyOf(
      api.POST('/admin/v1/waves/{supplier}/{wave}/approve/', { params, body }),
    ).catch((err) => explainConflict(err, io));
    show(approved, () => {
      const { approval, ...head } = approved;
      const forced = approval.forced ? ' (forced past the differences)' : '';
      return `Approved wave ${wave} of ${supplier}${forced}.\n${renderRecord(head)}\n\n${renderTable(approval.totals, ['measure', 'expected', 'stored', 'difference'])}`;
    });
    return 0;
  }

  const rollback = (dryRun: boolean) =>
    bodyOf(
      api.POST('/admin/v1/waves/{supplier}/{wave}/rollback/', { params, body: { dry_run: dryRun } }),
    ).catch((err) => explainConflict(err, io));
  const preview = await rollback(true);
  if (!io.json || flags.yes !== true) {
    const what = tableRows(preview.rows);
    process.stderr.write(
      `Rolling back wave ${wave} of ${supplier} cancels ${preview.processes} import processes and deletes:\n${renderTable(what, ['table', 'rows'])}\n`,
    );
  }
  if (flags.yes !== true) {
    const typed = (await (io.ask ?? askOnStdin)(`Type the wave's name (${wave}) to roll it back: `)).trim();
    if (typed !== wave) {
      process.stderr.write('Not rolled back: the name typed is not the wave’s.\n');
      return 1;
    }
  }
  const done = await rollback(false);
  show(
    done,
    () =>
      `Rolled back wave ${wave} of ${supplier}: ${done.processes} processes CANCELLED, ${done.rows.accounts} accounts deleted.\n${renderTable(tableRows(done.rows), ['table', 'rows'])}`,
  );
  return 0;
}
