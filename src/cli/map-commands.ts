/**
 * `ferry map accounts|transactions|notes|statements|payment-instructions --profile P.yaml [--out
 * book.ndjson]` (docs/product.md, Books from flat files; decision 0094 for the follow-ups): the
 * profile's CSV files mapped to an NDJSON book. A profile mistake is found before any row is read
 * (exit 2), a source mistake after every row is (exit 1); either way each problem is one line and
 * nothing is written. `ferry push <kind> --profile` maps through `mapProfileBook` (push-profile.ts).
 */
import { parseArgs } from 'node:util';
import { writeFollowUpBook } from '../flat-files/follow-up-book.ts';
import type { ProblemLog } from '../flat-files/mapping-problems.ts';
import { BOOK_KINDS, type BookKind, loadProfile, ProfileError } from '../flat-files/profile.ts';
import { type BookPlan, planProfile } from '../flat-files/profile-plan.ts';
import { sourcesPathOf, writeBook } from '../flat-files/write-book.ts';

export const MAP_USAGE = `Usage:
  ferry map accounts --profile <profile.yaml> [--out <book.ndjson>]
  ferry map transactions|notes|statements|payment-instructions --profile <profile.yaml>
                      [--out <file.ndjson>]

Maps the CSV files a mapping profile names to a book of accounts, one JSON document a line
(default <profile name>-v<version>.ndjson), with beside it <book>.sources.ndjson: the source rows
of each account. A follow-up profile (book: transactions, …) maps to its request bodies, one a
line, as ferry push <kind> reads them. Every problem is one line: a profile's names its key, a
source file's is file:line:column with the column's header, the profile key and a code. Nothing
is written unless every row maps.

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

/** What to map: the profile, the book it goes to (or the default), and the kind of book the command wants. */
export interface MapRequest {
  profilePath: string;
  bookPath: string | undefined;
  kind: BookKind;
}

/** The plan of the profile, which must map `kind`; throws ProfileError. */
function planFor(request: MapRequest): BookPlan {
  const profile = loadProfile(request.profilePath);
  if (profile.book !== request.kind)
    throw new ProfileError([
      `book: the profile maps ${profile.book}, not ${request.kind}${profile.book === 'accounts' ? ' (book: is absent)' : ''}`,
    ]);
  return planProfile(profile);
}

/** The profile's book written, accounts or follow-up bodies, and what the line says it holds. */
async function writeAny(plan: BookPlan, book: string) {
  if (plan.profile.book === 'accounts') {
    const result = await writeBook(plan, book);
    return { result, lines: result.accounts, made: `${result.accounts} accounts` };
  }
  const result = await writeFollowUpBook(plan, book);
  const empty = result.empty > 0 ? ` (${result.empty} without any item left out)` : '';
  return {
    result,
    lines: result.bodies,
    made: `${result.bodies} ${plan.profile.book} request bodies${empty}`,
  };
}

export type MapOutcome =
  | { code: 0; plan: BookPlan; book: string; lines: number }
  | { code: 1; problems: ProblemLog }
  | { code: 2 };

/**
 * Maps the profile into its book, printing each problem on `err` with `label`. The exit code is 0
 * with the plan and book path when it mapped; 1 with the source files' problems.
 */
export async function mapProfileBook(
  request: MapRequest,
  io: MapIo & { label: string },
): Promise<MapOutcome> {
  const { profilePath } = request;
  let plan: BookPlan;
  try {
    plan = planFor(request);
  } catch (err) {
    if (!(err instanceof ProfileError)) throw err;
    for (const problem of err.problems) io.err(`${io.label}: ${profilePath}: ${problem}\n`);
    io.err(`${io.label}: the profile has ${err.problems.length} problem(s); nothing was read or written.\n`);
    return { code: 2 };
  }
  const book = request.bookPath ?? defaultBookPath(plan);
  let written: Awaited<ReturnType<typeof writeAny>>;
  try {
    written = await writeAny(plan, book);
  } catch (err) {
    if (!(err instanceof ProfileError)) throw err;
    for (const problem of err.problems) io.err(`${io.label}: ${profilePath}: ${problem}\n`);
    return { code: 2 };
  }
  const { problems, rows } = written.result;
  if (problems.total > 0) {
    for (const line of problems.lines()) io.err(`${io.label}: ${line}\n`);
    const byCode = [...problems.byCode].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ${n}`);
    io.err(
      `${io.label}: ${problems.total} problem(s) in the source files (${byCode.join(', ')}); nothing was written.\n`,
    );
    return { code: 1, problems };
  }
  io.out(
    `${io.label}: ${written.made} from ${rows} rows (profile ${plan.profile.name} version ${plan.profile.version}) in ${book}; sources in ${sourcesPathOf(book)}\n`,
  );
  return { code: 0, plan, book, lines: written.lines };
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
  const problem = !BOOK_KINDS.includes(kind as BookKind)
    ? kind
      ? `unknown kind "${kind}" (one of ${BOOK_KINDS.join(', ')})`
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
  const mapped = await mapProfileBook(
    { profilePath: values.profile as string, bookPath: values.out, kind: kind as BookKind },
    { ...io, label: 'ferry map' },
  );
  return mapped.code;
}
