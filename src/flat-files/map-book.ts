/**
 * A book mapped from unsorted CSV files in bounded memory (decision 0089). The first pass streams
 * each file, parents first, and appends every row to one of B bucket files in a temporary folder:
 * the bucket of the account it belongs to (a hash of the account's key; a grandchild finds its
 * parent's bucket in a compact key index). The second pass reads one bucket at a time — every row of
 * a few thousand accounts — joins children to parents by their real keys and builds the accounts.
 * Memory holds one bucket and the key indexes, whatever the book's size.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { buildRow, type RowContext, type SourceRow, sourcesJson, sourcesObject } from './build-account.ts';
import { readCsvRows } from './csv-rows.ts';
import { hash64, KeyIndex } from './key-index.ts';
import { ProblemLog } from './mapping-problems.ts';
import { ProfileError } from './profile.ts';
import type { BookPlan, FilePlan } from './profile-plan.ts';

export interface MappedAccount {
  account: Record<string, unknown>;
  /** The source row of each object of the account: `customers.1` → `customers.csv:4`. */
  sources: Record<string, string>;
  /** The same as JSON, where the mapping made it (made on demand: the book's writer wants only this). */
  sourcesJson?: () => string;
}

export interface MapOptions {
  /** Where the bucket files go (a folder of its own is made inside); the system's by default. */
  tempDir?: string;
  /** About how many bytes of CSV make one bucket (default 4 MiB: a bucket's rows then mostly die young, and memory stays low). */
  bucketBytes?: number;
  problems?: ProblemLog;
}

export interface MapResult {
  problems: ProblemLog;
  accounts: number;
  rows: number;
  buckets: number;
}

const KEY_SEPARATOR = '\u001f';
/** The bucket a key index gives a row that is itself an orphan. */
const ORPHANED = -2;
/** A bucket's pending rows, in UTF-16 units (some 200 buckets pend at once at 1.5 million accounts). */
const FLUSH_CHARS = 1 << 16;

const keyOf = (cells: string[], at: number[]) =>
  at.length === 1 ? cells[at[0]] : at.map((i) => cells[i]).join(KEY_SEPARATOR);
const bucketOfKey = (key: string, buckets: number) => (buckets === 1 ? 0 : hash64(key)[1] % buckets);

/** Reads every file's header; a column the profile reads that a header lacks is a problem. */
async function checkHeaders(plan: BookPlan, problems: ProblemLog) {
  for (const f of plan.files) {
    try {
      statSync(f.file.path);
    } catch (err) {
      throw new ProfileError([
        `files.${f.file.name}.path: cannot read ${f.file.path}: ${(err as NodeJS.ErrnoException).code}`,
      ]);
    }
    const rows = readCsvRows(
      { path: f.file.path, format: f.file.format, key: `files.${f.file.name}` },
      f.columns,
      {
        problems,
        onLayout: (layout) => {
          const width = layout.positions.length === 0 ? 1 : Math.max(...layout.positions) + 1;
          layout.positions.forEach((p, i) => {
            if (p > 0) return;
            problems.add({
              code: 'missing_required_column',
              file: layout.file,
              line: 1,
              column: width,
              header: layout.columns[i],
              key: `files.${f.file.name}`,
              detail: `the header has no column ${layout.columns[i]}, which the profile reads`,
            });
          });
          return false;
        },
      },
    );
    for await (const _ of rows) break;
  }
}

/**
 * A bucket's rows are written as UTF-16 with two high surrogates in a row between cells and after
 * each row: decoded text is well-formed (a decoder makes U+FFFD of what it cannot read), and in
 * well-formed UTF-16 a high surrogate is always followed by a low one, so neither mark can occur
 * in a cell (one high surrogate alone can: it starts every character past U+FFFF), no cell needs
 * escaping, and UTF-16 is copied to and from the file rather than transcoded.
 */
const CELL_END = '\uD800\uD800';
const ROW_END = '\uDBFF\uDBFF';

class BucketWriter {
  private readonly pending: string[];

  constructor(
    private readonly dir: string,
    private readonly file: number,
    buckets: number,
  ) {
    this.pending = new Array(buckets).fill('');
  }

  write(bucket: number, line: number, cells: string[]) {
    this.pending[bucket] += `${line}${CELL_END}${cells.join(CELL_END)}${ROW_END}`;
    if (this.pending[bucket].length > FLUSH_CHARS) this.flush(bucket);
  }

  flush(bucket: number) {
    if (this.pending[bucket].length === 0) return;
    appendFileSync(join(this.dir, `${this.file}.${bucket}`), Buffer.from(this.pending[bucket], 'utf16le'));
    this.pending[bucket] = '';
  }

  close() {
    for (let b = 0; b < this.pending.length; b++) this.flush(b);
  }
}

/** Pass one: every row of every file to its account's bucket. */
async function partition(plan: BookPlan, ctx: { dir: string; buckets: number; problems: ProblemLog }) {
  const indexes = plan.files.map(() => new KeyIndex());
  let rows = 0;
  for (const f of plan.files) {
    const keyAt = f.file.key.map((c) => f.columns.indexOf(c));
    const joinAt = f.file.join.map((c) => f.columns.indexOf(c));
    const indexed = plan.files.some((child) => child.parent === f.index) && f.parent >= 0;
    const parent = f.parent >= 0 ? plan.files[f.parent] : null;
    const writer = new BucketWriter(ctx.dir, f.index, ctx.buckets);
    const source = { path: f.file.path, format: f.file.format, key: `files.${f.file.name}` };
    let positions: number[] = [];
    for await (const row of readCsvRows(source, f.columns, {
      problems: ctx.problems,
      onLayout: (layout) => {
        positions = layout.positions;
        return true;
      },
    })) {
      rows++;
      let bucket: number;
      if (parent === null)
        bucket = bucketOfKey(keyAt.length ? keyOf(row.cells, keyAt) : String(row.line), ctx.buckets);
      else if (parent.parent < 0) bucket = bucketOfKey(keyOf(row.cells, joinAt), ctx.buckets);
      else {
        bucket = indexes[parent.index].bucketOf(keyOf(row.cells, joinAt));
        if (bucket < 0) {
          orphan(ctx.problems, {
            f,
            parent,
            line: row.line,
            column: positions[joinAt[0]],
            value: keyOf(row.cells, joinAt),
            parentOrphaned: bucket === ORPHANED,
          });
          // Indexed as orphaned, so that its own children say so rather than that it is missing.
          if (indexed) indexes[f.index].add(keyOf(row.cells, keyAt), ORPHANED, row.line);
          continue;
        }
      }
      if (indexed) {
        const first = indexes[f.index].add(keyOf(row.cells, keyAt), bucket, row.line);
        if (first > 0) {
          duplicate(ctx.problems, {
            f,
            line: row.line,
            column: positions[keyAt[0]],
            first,
            value: keyOf(row.cells, keyAt),
          });
          continue;
        }
      }
      writer.write(bucket, row.line, row.cells);
    }
    writer.close();
    f.positions = positions;
    // A parent's index is done with once the last of its child files is read: 1.5 million
    // accounts' premises alone fill a 64 MiB table.
    if (f.parent >= 0 && !plan.files.some((c) => c.index > f.index && c.parent === f.parent)) {
      indexes[f.parent] = new KeyIndex(1);
    }
  }
  return rows;
}

export function orphan(
  problems: ProblemLog,
  p: { f: FilePlan; parent: FilePlan; line: number; column: number; value: string; parentOrphaned?: boolean },
) {
  const key = JSON.stringify(p.value.replaceAll(KEY_SEPARATOR, '+'));
  const parentFile = basename(p.parent.file.path);
  problems.add({
    code: 'orphan_row',
    file: basename(p.f.file.path),
    line: p.line,
    column: p.column,
    header: p.f.file.join.join('+'),
    key: `files.${p.f.file.name}.join`,
    detail: p.parentOrphaned
      ? `the row of ${parentFile} with the key ${key} belongs to no account`
      : `no row of ${parentFile} has the key ${key}`,
  });
}

export function duplicate(
  problems: ProblemLog,
  p: { f: FilePlan; line: number; column: number; first: number; value: string },
) {
  problems.add({
    code: 'duplicate_key',
    file: basename(p.f.file.path),
    line: p.line,
    column: p.column,
    header: p.f.file.key.join('+'),
    key: `files.${p.f.file.name}.key`,
    detail: `the key ${JSON.stringify(p.value.replaceAll(KEY_SEPARATOR, '+'))} is on line ${p.first} already`,
  });
}

function readBucket(dir: string, file: number, bucket: number): SourceRow[] {
  let text: string;
  try {
    text = readFileSync(join(dir, `${file}.${bucket}`)).toString('utf16le');
  } catch {
    return [];
  }
  const lines = text.split(ROW_END);
  lines.pop();
  const rows = new Array<SourceRow>(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const row = lines[i].split(CELL_END) as unknown as SourceRow;
    row[0] = Number(row[0]);
    rows[i] = row;
  }
  return rows;
}

/** Pass two: one bucket's accounts, built and handed to `emit` in the order of their rows. */
async function assemble(
  plan: BookPlan,
  ctx: {
    dir: string;
    bucket: number;
    problems: ProblemLog;
    emit: (m: MappedAccount) => void | Promise<void>;
  },
) {
  const rowsByFile = plan.files.map((f) => readBucket(ctx.dir, f.index, ctx.bucket));
  const children = plan.files.map((f, i) => {
    const byKey = new Map<string, SourceRow[]>();
    if (i === 0) return byKey;
    const joinAt = f.file.join.map((c) => f.columns.indexOf(c) + 1);
    for (const row of rowsByFile[i]) {
      const key =
        joinAt.length === 1 ? String(row[joinAt[0]]) : joinAt.map((j) => row[j]).join(KEY_SEPARATOR);
      const list = byKey.get(key);
      if (list) list.push(row);
      else byKey.set(key, [row]);
    }
    return byKey;
  });
  const root = plan.files[0];
  const rootKeyAt = root.file.key.map((c) => root.columns.indexOf(c) + 1);
  const seen = new Map<string, number>();
  const rowContext: RowContext = { plan, children, problems: ctx.problems };
  let accounts = 0;
  for (const row of rowsByFile[0]) {
    if (rootKeyAt.length > 0) {
      const key = rootKeyAt.map((j) => row[j]).join(KEY_SEPARATOR);
      const first = seen.get(key);
      if (first !== undefined) {
        duplicate(ctx.problems, {
          f: root,
          line: row[0] as number,
          column: root.positions[rootKeyAt[0] - 1],
          first,
          value: key,
        });
        continue;
      }
      seen.set(key, row[0] as number);
    }
    const pairs: string[] = [];
    const account = buildRow(rowContext, { file: 0, row, attr: '', sources: pairs });
    accounts++;
    let sources: Record<string, string> | undefined;
    const mapped: MappedAccount = {
      account,
      get sources() {
        sources ??= sourcesObject(pairs);
        return sources;
      },
    };
    // Not enumerable: a mapped account compares equal to {account, sources}.
    Object.defineProperty(mapped, 'sourcesJson', { value: () => sourcesJson(pairs) });
    await ctx.emit(mapped);
  }
  // Whatever no parent took is an orphan: its key matched no parent row of this bucket.
  for (let i = 1; i < plan.files.length; i++) {
    const f = plan.files[i];
    const parent = plan.files[f.parent];
    // A key the parent's rows of this bucket have: that parent row was itself left out.
    const parentKeyAt = parent.file.key.map((c) => parent.columns.indexOf(c) + 1);
    const parentKeys = new Set(
      rowsByFile[f.parent].map((r) => parentKeyAt.map((j) => r[j]).join(KEY_SEPARATOR)),
    );
    for (const [key, rows] of children[i]) {
      for (const row of rows) {
        orphan(ctx.problems, {
          f,
          parent,
          line: row[0] as number,
          column: f.positions[f.columns.indexOf(f.file.join[0])],
          value: key,
          parentOrphaned: parentKeys.has(key),
        });
      }
    }
  }
  return accounts;
}

/** Maps the plan's files to accounts, handed to `emit` one at a time; problems are in the result. */
export async function mapBook(
  plan: BookPlan,
  emit: (mapped: MappedAccount) => void | Promise<void>,
  options: MapOptions = {},
): Promise<MapResult> {
  const problems = options.problems ?? new ProblemLog();
  await checkHeaders(plan, problems);
  if (problems.total > 0) return { problems, accounts: 0, rows: 0, buckets: 0 };
  const bytes = plan.files.reduce((sum, f) => sum + statSync(f.file.path).size, 0);
  const buckets = Math.max(1, Math.ceil(bytes / (options.bucketBytes ?? 4 << 20)));
  const dir = mkdtempSync(join(options.tempDir ?? tmpdir(), 'ferry-map-'));
  try {
    const rows = await partition(plan, { dir, buckets, problems });
    let accounts = 0;
    for (let bucket = 0; bucket < buckets; bucket++) {
      accounts += await assemble(plan, { dir, bucket, problems, emit });
    }
    return { problems, accounts, rows, buckets };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
