/**
 * A follow-up profile's book (decision 0094): one follow-up request body a line, what `ferry push
 * transactions|notes|statements|payment-instructions` reads. The rows are mapped as an account
 * profile's are (map-book.ts); then a body with no items is left out (an account of the parent
 * file without transactions, say: the endpoint takes 1 to 1,000 items), one with more than the
 * endpoint takes is cut into several, and each statement's PDF, a path relative to the profile's
 * folder, is checked to be there and a PDF. As for accounts, nothing is written unless every row
 * maps, and the sources file beside the book traces the report's errors to their rows.
 */
import { closeSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { type MapOptions, type MappedAccount, type MapResult, mapBook } from './map-book.ts';
import { ProblemLog } from './mapping-problems.ts';
import type { BookKind } from './profile.ts';
import type { BookPlan, FieldPlan, ObjectPlan } from './profile-plan.ts';
import { LineWriter, sourcesPathOf } from './write-book.ts';

/** The array each follow-up body carries its items in; a payment instruction is one body, no items. */
export const ITEMS_OF: Record<BookKind, string | null> = {
  accounts: null,
  transactions: 'transactions',
  notes: 'notes',
  statements: 'statements',
  'payment-instructions': null,
};

/** The most items one follow-up request takes (the endpoints' own limit). */
export const MAX_ITEMS = 1_000;

export interface FollowUpBookResult extends MapResult {
  /** Bodies written (a body cut in two counts twice). */
  bodies: number;
  /** Bodies left out because they had no item. */
  empty: number;
}

/** The sources of items `from`…`from + count - 1` of `items`, renumbered from 0; the rest as they are. */
function sourcesOfSlice(sources: Record<string, string>, items: string, from: number, count: number) {
  const out: Record<string, string> = {};
  const prefix = `${items}.`;
  for (const [attr, row] of Object.entries(sources)) {
    if (!attr.startsWith(prefix)) {
      out[attr] = row;
      continue;
    }
    const rest = attr.slice(prefix.length);
    const cut = rest.indexOf('.');
    const index = Number(cut < 0 ? rest : rest.slice(0, cut));
    if (index < from || index >= from + count) continue;
    out[`${prefix}${index - from}${cut < 0 ? '' : rest.slice(cut)}`] = row;
  }
  return out;
}

/** The bodies one mapped row makes: none without items, several when it has more than one request takes. */
export function bodiesOf(mapped: MappedAccount, items: string | null): MappedAccount[] {
  if (items === null) return [mapped];
  const list = mapped.account[items];
  if (!Array.isArray(list) || list.length === 0) return [];
  if (list.length <= MAX_ITEMS) return [mapped];
  const out: MappedAccount[] = [];
  for (let from = 0; from < list.length; from += MAX_ITEMS) {
    const count = Math.min(MAX_ITEMS, list.length - from);
    out.push({
      account: { ...mapped.account, [items]: list.slice(from, from + count) },
      sources: sourcesOfSlice(mapped.sources, items, from, count),
    });
  }
  return out;
}

/** The field the profile key `key` made, and the file whose rows make it. */
function fieldOf(plan: BookPlan, key: string) {
  const find = (o: ObjectPlan): FieldPlan | undefined =>
    o.fields.find((f) => f.key === key) ??
    o.objects.map((x) => find(x.plan)).find(Boolean) ??
    o.groups.map((x) => find(x.plan)).find(Boolean);
  for (const file of plan.files) {
    const field = find(file.plan);
    if (field) return { file, field };
  }
  return null;
}

const PDF_MAGIC = '%PDF-';

/** Why the document at `path` (relative to `dir`) cannot be sent, or null when it can. */
function documentProblem(dir: string, path: string) {
  const parts = path.split('/');
  if (isAbsolute(path) || path.includes('\\') || parts.includes('..') || /^[a-z][a-z0-9+.-]*:/i.test(path))
    return {
      code: 'invalid_document_path' as const,
      detail: `"${path}" is not a path inside the profile's folder`,
    };
  let fd: number;
  try {
    fd = openSync(resolve(dir, path), 'r');
  } catch (err) {
    return {
      code: 'document_not_found' as const,
      detail: `${path}: ${(err as NodeJS.ErrnoException).code} in the profile's folder`,
    };
  }
  const head = Buffer.alloc(PDF_MAGIC.length);
  try {
    // A folder opens, and reading it fails (EISDIR): it is not a PDF either.
    readSync(fd, head, 0, head.length, 0);
  } catch {
    head.fill(0);
  } finally {
    closeSync(fd);
  }
  return head.toString('latin1') === PDF_MAGIC
    ? null
    : { code: 'invalid_statement_document' as const, detail: `${path} is not a PDF (by its first bytes)` };
}

const STATEMENT_PATH_KEY = 'fields.statements[].statement_path';

/** Each statement's PDF checked in the profile's folder; a problem is located at its row and column. */
function checkStatements(plan: BookPlan, mapped: MappedAccount, problems: ProblemLog) {
  const statements = mapped.account.statements;
  const located = fieldOf(plan, STATEMENT_PATH_KEY);
  if (!Array.isArray(statements) || !located) return;
  const col = located.field.cols[0];
  statements.forEach((statement: { statement_path?: unknown }, i) => {
    if (typeof statement.statement_path !== 'string') return;
    const problem = documentProblem(plan.profile.dir, statement.statement_path);
    if (!problem) return;
    const row = mapped.sources[`statements.${i}`] ?? mapped.sources[''] ?? '';
    problems.add({
      ...problem,
      file: basename(located.file.file.path),
      line: Number(row.slice(row.lastIndexOf(':') + 1)),
      column: located.file.positions[col],
      header: located.file.columns[col] ?? null,
      key: STATEMENT_PATH_KEY,
    });
  });
}

/** Maps a follow-up profile's `plan` into `bookPath` (and its sources); nothing is written on a problem. */
export async function writeFollowUpBook(
  plan: BookPlan,
  bookPath: string,
  options: MapOptions = {},
): Promise<FollowUpBookResult> {
  const problems = options.problems ?? new ProblemLog();
  const items = ITEMS_OF[plan.profile.book];
  const book = new LineWriter(`${bookPath}.partial`);
  const sources = new LineWriter(`${sourcesPathOf(bookPath)}.partial`);
  let result: MapResult | undefined;
  let bodies = 0;
  let empty = 0;
  try {
    result = await mapBook(
      plan,
      (mapped) => {
        if (plan.profile.book === 'statements') checkStatements(plan, mapped, problems);
        const made = bodiesOf(mapped, items);
        if (made.length === 0) empty++;
        // Once a problem is found the book will not be kept: stop writing it.
        if (problems.total > 0) return;
        for (const body of made) {
          bodies++;
          book.line(JSON.stringify(body.account));
          sources.line(
            JSON.stringify({
              external_account_number: body.account.external_account_number ?? null,
              sources: body.sources,
            }),
          );
        }
      },
      { ...options, problems },
    );
  } finally {
    book.close();
    sources.close();
    if (result === undefined || problems.total > 0) {
      rmSync(book.path, { force: true });
      rmSync(sources.path, { force: true });
    }
  }
  if (problems.total === 0) {
    renameSync(book.path, bookPath);
    renameSync(sources.path, sourcesPathOf(bookPath));
  }
  return { ...result, bodies, empty };
}
