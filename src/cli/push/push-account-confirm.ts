/**
 * A re-run of `ferry push accounts` asks the service whether what the earlier report calls final
 * still is, before it skips a line (docs/decisions/0080): a wave rolled back, an account
 * cancelled or retried since, or a service that never saw the account (another database) must
 * not read as "final" from memory. The accounts are confirmed in batches, one statuses request
 * per supplier and thousand accounts (decision 0046), one status request each only where the
 * service answers no batches.
 */
import { asKeyPart, asObject, type Entry } from './push-account-lines.ts';
import type { ReportedError } from './push-input.ts';
import { PushAbort, type PushSession } from './push-session.ts';

/** Report statuses the service holds a process for: what is confirmed before it is skipped. */
export const CONFIRMED_STATUSES = new Set([
  'PROCESSED',
  'ERRORED',
  'CANCELLED',
  'DRY_RUN_SUCCEEDED',
  'DRY_RUN_ERRORED',
]);

const WAITING = new Set(['PENDING', 'IN_PROGRESS']);
const ROLLED_BACK_EVENT = 'EVENT_ACCOUNT_IMPORT_PROCESS_ROLLED_BACK';
const BATCH = 1_000;

/** What the service says of an account its report calls final. */
export type Confirmation =
  /** Still what the report says. */
  | { kind: 'final' }
  /** Waiting for the worker again (retried): followed to its end. */
  | { kind: 'poll' }
  /** Gone (rolled back, or unknown to this service): sent again. */
  | { kind: 'send'; why: string }
  /** Final in another state (cancelled by the operator, retried and ended otherwise): reported anew. */
  | { kind: 'changed'; status: string; accountNumber: string | null; errors: ReportedError[] };

/** An account to confirm: its line, and what the report says of it. */
export interface Reported {
  entry: Entry;
  status: string;
  /** Whether the service's account number is the one reported. */
  sameAccount(accountNumber: string | null): boolean;
}

interface StatusRecord {
  status?: unknown;
  service_identifier?: unknown;
  latest_error?: { code?: unknown; detail?: unknown } | null;
  latest_event?: { event?: unknown } | null;
}

/** What the service's status answer (200 with its record, or 404) means for a reported account. */
export function confirmationOf(reported: Reported, httpStatus: number, body: unknown): Confirmation {
  if (httpStatus === 404) return { kind: 'send', why: 'the service has no such process' };
  const record = (asObject(body) ?? {}) as StatusRecord;
  const status = String(record.status);
  const accountNumber = asKeyPart(record.service_identifier);
  // Any other answer confirms nothing: sending again could create what the report says exists, and
  // skipping would believe the report. The run stops (exit 2) and the report stays as it was.
  if (httpStatus !== 200) {
    const ext = reported.entry.ext ?? '';
    throw new PushAbort(
      `could not confirm ${ext} with the service (it answered ${httpStatus}); the report is unchanged`,
    );
  }
  if (WAITING.has(status)) return { kind: 'poll' };
  if (status === 'CANCELLED') {
    const rolledBack = record.latest_event?.event === ROLLED_BACK_EVENT;
    // An account created and since removed (its wave rolled back) is to be created again; one the
    // operator cancelled, never created, stays as the operator left it.
    if (rolledBack || reported.status === 'PROCESSED' || reported.status === 'DRY_RUN_SUCCEEDED')
      return { kind: 'send', why: rolledBack ? 'rolled back' : 'cancelled' };
  }
  if (status === reported.status && (status !== 'PROCESSED' || reported.sameAccount(accountNumber)))
    return { kind: 'final' };
  const error = record.latest_error;
  return {
    kind: 'changed',
    status,
    accountNumber,
    errors: error ? [{ code: String(error.code), attr: null, detail: String(error.detail) }] : [],
  };
}

/**
 * Confirms reported accounts with the service: in batches where it answers them (`batchStatus`),
 * else one status request each, `concurrency` at a time. Answers in the order given.
 */
export async function confirmWithService(
  session: PushSession,
  reported: Reported[],
  options: { batchStatus: boolean; concurrency: number },
): Promise<Confirmation[]> {
  const out = new Array<Confirmation>(reported.length);
  const bySupplier = new Map<string, number[]>();
  reported.forEach((r, i) => {
    const supplier = r.entry.supplier ?? '';
    const group = bySupplier.get(supplier);
    if (group) group.push(i);
    else bySupplier.set(supplier, [i]);
  });
  const single = async (i: number) => {
    const { entry } = reported[i];
    const answer = await session.request(() =>
      session.client.GET('/v2/data-import/accounts/{import_supplier_code}/{external_identifier}/', {
        params: {
          path: { import_supplier_code: entry.supplier ?? '', external_identifier: entry.ext ?? '' },
        },
      }),
    );
    out[i] = confirmationOf(reported[i], answer.status, answer.body);
  };
  const singly = async (indexes: number[]) => {
    for (let k = 0; k < indexes.length; k += options.concurrency)
      await Promise.all(indexes.slice(k, k + options.concurrency).map(single));
  };
  for (const [supplier, indexes] of bySupplier) {
    for (let k = 0; k < indexes.length; k += BATCH) {
      const batch = indexes.slice(k, k + BATCH);
      if (!options.batchStatus) {
        await singly(batch);
        continue;
      }
      const answer = await session.request(() =>
        session.client.POST('/v2/data-import/accounts/statuses/', {
          body: {
            import_supplier: supplier,
            external_identifiers: batch.map((i) => reported[i].entry.ext ?? ''),
          },
        }),
      );
      const results = asObject(answer.body)?.results;
      if (answer.status !== 200 || !Array.isArray(results) || results.length !== batch.length) {
        // Not the contract's answer (an identifier the request could not carry, say): each alone.
        await singly(batch);
        continue;
      }
      batch.forEach((i, n) => {
        const r = asObject(results[n]);
        out[i] = confirmationOf(reported[i], Number(r?.status), r?.body);
      });
    }
  }
  return out;
}
