/**
 * `ferry wave reconcile <supplier> <wave> [--expectations FILE] [--url U] [--api-key K] [--json]
 * [--kind K] [--measure M] [--differences N]`: the supplier's side of a wave. With --expectations
 * it first uploads the source system's figures (NDJSON, streamed from the file), then prints the
 * reconciliation: the accounts matched, differing, missing and unexpected, the differing ones per
 * measure, the totals of every measure, and the first accounts that do not match (of one kind,
 * differing in one measure, when asked). Exit 0 when nothing differs, 1 otherwise, 2 when it
 * could not run.
 */
import { accessSync, constants } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  ACCOUNT_MEASURES,
  DIFFERENCE_KINDS,
  measureDefinitionLines,
} from '../account-import/waves/measures.ts';
import { WAVE_NAME, WAVE_NAME_DETAIL } from '../accounts/account-checks.ts';
import { CONNECTION_OPTIONS, PushAbort, PushSession } from './push/push-session.ts';
import { renderTable } from './table.ts';

export const WAVE_RECONCILE_USAGE = `Usage:
  ferry wave reconcile <supplier> <wave> [--expectations FILE] [--kind K] [--measure M]
                       [--differences N] [--json] --url <base> --api-key <key>

With --expectations, uploads the source system's figures for the wave first (one JSON line per
account: {external_account_number, ledger_balance?, meter_points?, transactions?,
transactions_total?, transactions_net?}; money as decimal strings; a measure left out is not
compared; it replaces the previous upload), then prints the reconciliation: the accounts per
kind, the differing ones per measure, the totals, and the first N accounts that do not match
(default 20). --url may come from FERRY_URL and --api-key from FERRY_API_KEY.

  --kind K      list only the accounts of this kind: ${DIFFERENCE_KINDS.join(', ')}
  --measure M   list only the differing accounts whose M differs: ${ACCOUNT_MEASURES.join(', ')}

The measures, per account (a wave's total is the sum over its accounts):
${measureDefinitionLines('  ')}

Exit 0: nothing differs; 1: something differs, is missing or unexpected; 2: could not run.
`;

export interface WaveReconcileIo {
  out: (s: string) => void;
  err: (s: string) => void;
  env: NodeJS.ProcessEnv;
}

const defaultIo = (): WaveReconcileIo => ({
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  env: process.env,
});

interface Reconciliation {
  status: string;
  accounts: Record<string, number>;
  differing_measures?: Record<string, number>;
  totals: Record<string, unknown>[];
}

class Refused extends Error {}

/** The answer's body when it is the status expected, else a Refused naming its code and detail. */
function expect<T>(answer: { status: number; body: unknown }, status: number, what: string): T {
  if (answer.status === status) return answer.body as T;
  const body = (answer.body ?? {}) as {
    code?: string;
    detail?: string;
    errors?: { attr: string; code: string; detail: string }[];
  };
  const items = (body.errors ?? []).slice(0, 20).map((e) => `\n  ${e.attr}: ${e.code} (${e.detail})`);
  throw new Refused(
    `${what}: HTTP ${answer.status} ${body.code ?? ''} ${body.detail ?? ''}${items.join('')}`.trim(),
  );
}

export async function runWaveReconcile(argv: string[], io: WaveReconcileIo = defaultIo()): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    io.err(`ferry wave reconcile: ${(err as Error).message}\n\n${WAVE_RECONCILE_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(WAVE_RECONCILE_USAGE);
    return 0;
  }
  const [supplier, wave, ...extra] = positionals;
  const url = values.url ?? io.env.FERRY_URL;
  const apiKey = values['api-key'] ?? io.env.FERRY_API_KEY;
  const limit = values.differences === undefined ? 20 : Number(values.differences);
  const { kind, measure } = values;
  const problem =
    !supplier || !wave
      ? 'the supplier and the wave are required'
      : extra.length > 0
        ? `unexpected argument "${extra[0]}"`
        : !WAVE_NAME.test(wave)
          ? `"${wave}" is not a wave's name: ${WAVE_NAME_DETAIL}`
          : kind !== undefined && !(DIFFERENCE_KINDS as readonly string[]).includes(kind)
            ? `--kind is one of ${DIFFERENCE_KINDS.join(', ')}`
            : measure !== undefined && !(ACCOUNT_MEASURES as readonly string[]).includes(measure)
              ? `--measure is one of ${ACCOUNT_MEASURES.join(', ')}`
              : !url
                ? '--url (or FERRY_URL) is required'
                : !apiKey
                  ? '--api-key (or FERRY_API_KEY) is required'
                  : !Number.isInteger(limit) || limit < 0
                    ? '--differences must be a whole number'
                    : null;
  if (problem) {
    io.err(`ferry wave reconcile: ${problem}\n\n${WAVE_RECONCILE_USAGE}`);
    return 2;
  }
  const file = values.expectations;
  if (file) {
    try {
      accessSync(file, constants.R_OK);
    } catch (err) {
      io.err(`ferry wave reconcile: cannot read ${file}: ${(err as Error).message}\n`);
      return 2;
    }
  }
  const base = `/v2/data-import/waves/${encodeURIComponent(supplier)}/${encodeURIComponent(wave)}/`;
  const session = new PushSession({ baseUrl: url as string, apiKey: apiKey as string, concurrency: 2 });
  try {
    await session.start();
    if (file) {
      const uploaded = await session.request(
        session.raw(`${base}expectations/`, {
          method: 'PUT',
          bodyFile: file,
          contentType: 'application/x-ndjson',
        }),
      );
      const { accounts } = expect<{ accounts: number }>(uploaded, 200, 'the expectations were refused');
      if (!values.json) io.out(`Uploaded the expectations of ${accounts} accounts.\n`);
    }
    const answer = await session.request(session.raw(`${base}reconciliation/`, { method: 'GET' }));
    const reconciliation = expect<Reconciliation>(answer, 200, 'no reconciliation');
    const filter = new URLSearchParams();
    if (kind) filter.set('kind', kind);
    if (measure) filter.set('measure', measure);
    const q = filter.size > 0 ? `?${filter}` : '';
    const differing = await session.request(
      session.raw(`${base}reconciliation/differences/${q}`, { method: 'GET', asText: true }),
    );
    const lines = String(expect<string>(differing, 200, 'no differences') ?? '')
      .split('\n')
      .filter(Boolean)
      .slice(0, limit)
      .map((l) => JSON.parse(l) as { external_account_number: string; kind: string; measures: unknown[] });
    if (values.json) {
      io.out(`${JSON.stringify({ ...reconciliation, differences: lines })}\n`);
    } else {
      const a = reconciliation.accounts;
      io.out(
        `Wave ${wave} of ${supplier}: ${reconciliation.status}. Accounts: ${a.expected} expected, ${a.imported} imported, ` +
          `${a.matched} matched, ${a.differing} differing, ${a.missing} missing, ${a.unexpected} unexpected.\n`,
      );
      const perMeasure = Object.entries(reconciliation.differing_measures ?? {}).filter(([, n]) => n > 0);
      if (perMeasure.length > 0)
        io.out(`Differing accounts per measure: ${perMeasure.map(([m, n]) => `${m} ${n}`).join(', ')}.\n`);
      io.out('\n');
      io.out(`${renderTable(reconciliation.totals, ['measure', 'expected', 'stored', 'difference'])}\n`);
      if (q && lines.length === 0)
        io.out(
          `\nNo account that does not match is ${[kind, measure && `differing in ${measure}`].filter(Boolean).join(' and ')}.\n`,
        );
      if (lines.length > 0) {
        const rows = lines.flatMap((d) =>
          (d.measures.length > 0 ? d.measures : [{}]).map((m) => ({
            external_account_number: d.external_account_number,
            kind: d.kind,
            ...(m as Record<string, unknown>),
          })),
        );
        io.out(
          `\n${renderTable(rows, ['external_account_number', 'kind', 'measure', 'expected', 'stored'])}\n`,
        );
      }
    }
    const a = reconciliation.accounts;
    return a.expected > 0 && a.differing + a.missing + a.unexpected === 0 ? 0 : 1;
  } catch (err) {
    if (err instanceof Refused || err instanceof PushAbort) {
      io.err(`ferry wave reconcile: ${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    session.stop();
  }
}

function parse(argv: string[]) {
  const options = {
    ...CONNECTION_OPTIONS,
    expectations: { type: 'string' },
    differences: { type: 'string' },
    kind: { type: 'string' },
    measure: { type: 'string' },
    json: { type: 'boolean' },
  } as const;
  return parseArgs({ args: argv, allowPositionals: true, strict: true, options });
}
