/**
 * `ferry map accounts --profile P.yaml [--out book.ndjson]` (docs/product.md, Books from flat
 * files): the profile's CSV files mapped to an NDJSON book. A profile mistake is found before any
 * row is read (exit 2), a source mistake after every row is (exit 1); either way each problem is
 * one line and nothing is written. `ferry push accounts --profile` maps through `mapProfileBook`.
 */
import { parseArgs } from 'node:util';
import { ProfileError } from '../flat-files/profile.ts';
import type { BookPlan } from '../flat-files/profile-plan.ts';
import { addSourcesToReport } from '../flat-files/report-sources.ts';
import { planProfileFile, sourcesPathOf, writeBook } from '../flat-files/write-book.ts';

export const MAP_USAGE = `Usage:
  ferry map accounts --profile <profile.yaml> [--out <book.ndjson>]

Maps the CSV files a mapping profile names to a book of accounts, one JSON document a line
(default <profile name>-v<version>.ndjson), with beside it <book>.sources.ndjson: the source rows
of each account. Every problem is one line: a profile's names its key, a source file's is
file:line:column with the column's header, the profile key and a code. Nothing is written unless
every row maps.

Exit 0: mapped; 1: the source files have problems; 2: the profile has problems (or usage).
`;

interface MapIo {
  out: (s: string) => void;
  err: (s: string) => void;
}

const defaultIo = (): MapIo => ({
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
});

/** The default book of a profile: its name and version, in the working folder. */
export const defaultBookPath = (plan: BookPlan) => `${plan.profile.name}-v${plan.profile.version}.ndjson`;

/**
 * Maps the profile at `profilePath` into `bookPath` (or the default), printing each problem on
 * `err` with `label`. The exit code is 0 with the plan and book path when it mapped.
 */
export async function mapProfileBook(
  profilePath: string,
  bookPath: string | undefined,
  io: MapIo & { label: string },
): Promise<{ code: 0; plan: BookPlan; book: string; accounts: number } | { code: 1 | 2 }> {
  let plan: BookPlan;
  try {
    plan = planProfileFile(profilePath);
  } catch (err) {
    if (!(err instanceof ProfileError)) throw err;
    for (const problem of err.problems) io.err(`${io.label}: ${profilePath}: ${problem}\n`);
    io.err(`${io.label}: the profile has ${err.problems.length} problem(s); nothing was read or written.\n`);
    return { code: 2 };
  }
  const book = bookPath ?? defaultBookPath(plan);
  let result: Awaited<ReturnType<typeof writeBook>>;
  try {
    result = await writeBook(plan, book);
  } catch (err) {
    if (!(err instanceof ProfileError)) throw err;
    for (const problem of err.problems) io.err(`${io.label}: ${profilePath}: ${problem}\n`);
    return { code: 2 };
  }
  const { problems } = result;
  if (problems.total > 0) {
    for (const line of problems.lines()) io.err(`${io.label}: ${line}\n`);
    const byCode = [...problems.byCode].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ${n}`);
    io.err(
      `${io.label}: ${problems.total} problem(s) in the source files (${byCode.join(', ')}); nothing was written.\n`,
    );
    return { code: 1 };
  }
  io.out(
    `${io.label}: ${result.accounts} accounts from ${result.rows} rows (profile ${plan.profile.name} version ${plan.profile.version}) in ${book}; sources in ${sourcesPathOf(book)}\n`,
  );
  return { code: 0, plan, book, accounts: result.accounts };
}

export async function runMapCommand(argv: string[], io: MapIo = defaultIo()): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  const parse = (args: string[]) =>
    parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        profile: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  try {
    parsed = parse(argv);
  } catch (err) {
    io.err(`ferry map: ${(err as Error).message}\n\n${MAP_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(MAP_USAGE);
    return 0;
  }
  const [kind, ...extra] = positionals;
  const problem =
    kind !== 'accounts'
      ? kind
        ? `unknown kind "${kind}" (accounts is mapped)`
        : 'what to map is missing'
      : extra.length > 0
        ? `unexpected argument "${extra[0]}"`
        : values.profile === undefined
          ? '--profile is required'
          : null;
  if (problem) {
    io.err(`ferry map: ${problem}\n\n${MAP_USAGE}`);
    return 2;
  }
  const mapped = await mapProfileBook(values.profile as string, values.out, { ...io, label: 'ferry map' });
  return mapped.code;
}

/** A book `ferry push accounts --profile` mapped, to trace its report's errors to the source. */
export interface ProfileBook {
  plan: BookPlan;
  book: string;
}

/**
 * `ferry push accounts [book.ndjson] --profile P.yaml`: maps before anything is sent. Returns the
 * book to push, or the exit code when the profile or the source files have problems.
 */
export async function mapBeforePush(
  profilePath: string,
  bookPath: string | undefined,
  io: MapIo,
): Promise<ProfileBook | { code: number }> {
  const mapped = await mapProfileBook(profilePath, bookPath, { ...io, label: 'ferry push' });
  return mapped.code === 0 ? { plan: mapped.plan, book: mapped.book } : { code: mapped.code };
}

/** Adds to each error of the push's report the source file, line and column of its field. */
export async function traceReport(mapped: ProfileBook, reportPath: string, io: MapIo): Promise<void> {
  const traced = await addSourcesToReport(reportPath, sourcesPathOf(mapped.book), mapped.plan);
  if (traced > 0)
    io.out(`ferry push: ${traced} error(s) in the report traced to their source rows (source)\n`);
}
