/**
 * `ferry push <kind> <file.ndjson> --url <base> --api-key <key> [--report <file.ndjson>]
 * [--concurrency N] [--dry-run] [--validate-only] [--summary FILE] [--no-wait] [--retry-rejected]`
 * (docs/product.md, Push). Exit 0 when every line succeeded, 1 when some were rejected or
 * errored (the report says which), 2 when the push could not run (usage, unreadable file,
 * unreachable server, bad key, a paused supplier with --no-wait).
 */
import { accessSync, constants } from 'node:fs';
import { parseArgs } from 'node:util';
import { WAVE_NAME } from '../../accounts/account-checks.ts';
import type { BookKind } from '../../flat-files/profile.ts';
import {
  AccountPush,
  type AccountPushMode,
  BULK_PATH,
  STATUSES_PATH,
  VALIDATE_BULK_PATH,
} from './push-accounts.ts';
import { FOLLOW_UP_KINDS, type FollowUpKind, FollowUpPush } from './push-follow-ups.ts';
import { countInputLines } from './push-input.ts';
import { mapBeforePush, type ProfileBook, traceReport } from './push-profile.ts';
import { startProgress } from './push-progress.ts';
import { PushRefusal } from './push-report-binding.ts';
import { CONNECTION_OPTIONS, PushAbort, PushSession } from './push-session.ts';
import { formatSummary, summarizeReport, writeSummary } from './push-summary.ts';
import { DEFAULT_PAUSE_TIMING, type PauseTiming, SUPPLIER_PATH } from './push-supplier-pause.ts';

export const PUSH_USAGE = `Usage:
  ferry push accounts <file.ndjson> --url <base> --api-key <key> [--report <file.ndjson>]
                      [--concurrency N] [--dry-run] [--validate-only] [--summary FILE]
                      [--no-wait] [--retry-rejected] [--wave NAME]
  ferry push accounts [<book.ndjson>] --profile <profile.yaml> --url <base> --api-key <key> […]
  ferry push notes|transactions|statements|payment-instructions <file.ndjson> --url <base>
                      --api-key <key> [--report <file.ndjson>] [--concurrency N]
  ferry push notes|transactions|statements|payment-instructions [<file.ndjson>]
                      --profile <profile.yaml> --url <base> --api-key <key> […]

One request body a line. The report (default <file>.report.ndjson, or <file>.validation.ndjson
with --validate-only) gets one JSON line per account in its final state; re-running the same
command with the same report resumes, and sends again each line changed since it was reported.
--url may come from FERRY_URL and --api-key from FERRY_API_KEY instead.

  --validate-only   validate every account and check the whole book (an external account number
                    or a meter point, reference or CAIS reference on two lines); schedules nothing
  --summary FILE    also write the errors grouped by code and field as JSON (accounts); with
                    --profile, the source files' problems grouped by code and profile key
  --no-wait         stop (exit 2) when the supplier is paused, instead of waiting for it to resume
  --retry-rejected  send again the lines the report holds as REJECTED or ERRORED
  --wave NAME       schedule every account in this wave of its supplier (task_params.wave)
  --profile P.yaml  map the CSV files of a mapping profile into the book first (the file named, or
                    <profile>-v<version>.ndjson; ferry map --help); each error in the report then
                    carries its source: file, line and column. A follow-up's profile declares it
                    (book: transactions, …) and maps to its request bodies

Exit 0: all succeeded; 1: some rejected or errored; 2: could not run.
`;

export interface PushIo {
  out: (s: string) => void;
  err: (s: string) => void;
  progressStream: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

const defaultIo = (): PushIo => ({
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  progressStream: process.stderr,
  env: process.env,
});

function usage(io: PushIo, message: string): number {
  io.err(`ferry push: ${message}\n\n${PUSH_USAGE}`);
  return 2;
}

export async function runPushCommand(argv: string[], io: PushIo = defaultIo()): Promise<number> {
  let parsed: ReturnType<typeof parsePushArgs>;
  try {
    parsed = parsePushArgs(argv);
  } catch (err) {
    return usage(io, (err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(PUSH_USAGE);
    return 0;
  }
  const [kind, bookFile, ...extra] = positionals;
  let file = bookFile;
  const isAccounts = kind === 'accounts';
  if (!isAccounts && !FOLLOW_UP_KINDS.includes(kind as FollowUpKind)) {
    return usage(io, kind ? `unknown kind "${kind}"` : 'what to push is missing');
  }
  if (!file && values.profile === undefined) return usage(io, 'the NDJSON file is missing');
  if (extra.length > 0) return usage(io, `unexpected argument "${extra[0]}"`);
  const url = values.url ?? io.env.FERRY_URL;
  const apiKey = values['api-key'] ?? io.env.FERRY_API_KEY;
  if (!url) return usage(io, '--url (or FERRY_URL) is required');
  if (!apiKey) return usage(io, '--api-key (or FERRY_API_KEY) is required');
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    return usage(io, `--url "${url}" is not an http(s) URL`);
  }
  const concurrency = values.concurrency === undefined ? 8 : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) {
    return usage(io, '--concurrency must be a whole number from 1 to 256');
  }
  if (values['dry-run'] && values['validate-only']) {
    return usage(io, '--dry-run and --validate-only exclude each other');
  }
  if (!isAccounts) {
    const accountsOnly = [
      'dry-run',
      'validate-only',
      'summary',
      'no-wait',
      'retry-rejected',
      'wave',
    ] as const;
    const given = accountsOnly.find((option) => values[option] !== undefined);
    if (given) return usage(io, `--${given} applies to accounts only`);
  }
  if (values.wave !== undefined && !WAVE_NAME.test(values.wave)) {
    return usage(io, '--wave must be 1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit');
  }
  // With --profile the book is mapped from the CSV files first: a mistake stops before any request.
  let profileBook: ProfileBook | null = null;
  if (values.profile !== undefined) {
    const mapped = await mapBeforePush(
      { profilePath: values.profile, bookPath: file, kind: kind as BookKind, summaryPath: values.summary },
      io,
    );
    if ('code' in mapped) return mapped.code;
    profileBook = mapped;
    file = mapped.book;
  }
  if (!file) return usage(io, 'the NDJSON file is missing');
  try {
    accessSync(file, constants.R_OK);
  } catch (err) {
    io.err(`ferry push: cannot read ${file}: ${(err as Error).message}\n`);
    return 2;
  }
  const mode: AccountPushMode = values['validate-only']
    ? 'validate'
    : values['dry-run']
      ? 'dry-run'
      : 'schedule';
  const reportPath =
    values.report ??
    `${file.replace(/\.ndjson$/, '')}.${mode === 'validate' ? 'validation' : 'report'}.ndjson`;

  let retries = 0;
  const session = new PushSession({
    baseUrl: url,
    apiKey,
    concurrency,
    onRetry: () => {
      retries++;
    },
  });
  try {
    await session.start();
    const total = await countInputLines(file);
    const offered = isAccounts ? await session.offeredPaths() : [];
    const push = isAccounts
      ? new AccountPush({
          session,
          file,
          reportPath,
          mode,
          concurrency,
          bulk: offered.includes(mode === 'validate' ? VALIDATE_BULK_PATH : BULK_PATH),
          batchStatus: offered.includes(STATUSES_PATH),
          supplierStatus: offered.includes(SUPPLIER_PATH),
          followFeed: true,
          retryRejected: values['retry-rejected'] ?? false,
          taskParams: {
            ...(values.wave !== undefined ? { wave: values.wave } : {}),
            ...(profileBook
              ? {
                  mapping_profile: {
                    name: profileBook.plan.profile.name,
                    version: profileBook.plan.profile.version,
                  },
                }
              : {}),
          },
          noWait: values['no-wait'] ?? false,
          pauseTiming: pauseTimingOf(io.env),
          lines: total,
          warn: (line) => io.err(`ferry push: ${line}\n`),
        })
      : new FollowUpPush({ session, kind: kind as FollowUpKind, file, reportPath, concurrency });
    if (push instanceof AccountPush) await push.prepare();
    const progress = startProgress(
      {
        total,
        counts: () => push.counts(),
        final: () => push.finals.size,
        finishedThisRun: () => push.finishedThisRun,
        paused: () => (push instanceof AccountPush ? push.pauses.paused() : []),
      },
      {
        stream: io.progressStream,
        label: `ferry push ${kind}`,
        intervalMs: Number(io.env.FERRY_PUSH_PROGRESS_MS) || 5_000,
      },
    );
    let code: number;
    try {
      code = await push.run();
    } finally {
      progress.stop();
    }
    if (profileBook) await traceReport(profileBook, reportPath, io);
    const counts = Object.entries(push.counts())
      .filter(([state, n]) => n > 0 || state !== 'SCHEDULED')
      .map(([state, n]) => `${state} ${n}`)
      .join(', ');
    io.out(
      `ferry push ${kind}: ${push.finals.size} lines final (${counts || 'none'})` +
        `${retries ? `, ${retries} requests retried` : ''}. Report: ${reportPath}\n`,
    );
    if (isAccounts) {
      const summary = await summarizeReport(reportPath, file);
      io.out(formatSummary(summary));
      if (values.summary) {
        writeSummary(values.summary, summary);
        io.out(`Summary: ${values.summary}\n`);
      }
    }
    return code;
  } catch (err) {
    // Nothing a re-run of the same command can change: told in one line.
    if (err instanceof PushRefusal) {
      io.err(`ferry push: ${err.message}\n`);
      return 2;
    }
    if (err instanceof PushAbort) {
      io.err(
        `ferry push: ${err.message}\nWhat is done is in ${reportPath}; re-run the same command to resume.\n`,
      );
      return 2;
    }
    io.err(`ferry push: ${(err as Error).message}\n`);
    return 2;
  }
}

function parsePushArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      ...CONNECTION_OPTIONS,
      report: { type: 'string' },
      concurrency: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'validate-only': { type: 'boolean' },
      summary: { type: 'string' },
      'no-wait': { type: 'boolean' },
      'retry-rejected': { type: 'boolean' },
      wave: { type: 'string' },
      profile: { type: 'string' },
    },
  });
}

/**
 * The pause timing, shortened by FERRY_PUSH_PAUSE_MAX_MS (the backoff's cap, also the longest
 * wait before a stalled poll reads the supplier's status): tests that pause a supplier for seconds.
 */
function pauseTimingOf(env: NodeJS.ProcessEnv): PauseTiming {
  const max = Number(env.FERRY_PUSH_PAUSE_MAX_MS);
  if (!Number.isFinite(max) || max <= 0) return DEFAULT_PAUSE_TIMING;
  return {
    baseMs: Math.min(DEFAULT_PAUSE_TIMING.baseMs, max),
    maxMs: max,
    stallMs: Math.min(DEFAULT_PAUSE_TIMING.stallMs, max),
  };
}
