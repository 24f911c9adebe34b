/**
 * Problems found in the source files while mapping, each located as `file:line:column` with the
 * column's header, the profile key whose mapping met it, and a stable code. The log keeps the
 * first ones in full and counts every one by code (the summary groups them as validation errors).
 */
import type { CellProblemCode } from './cell-values.ts';

export type MappingCode =
  | CellProblemCode
  | 'orphan_row'
  | 'duplicate_key'
  | 'missing_required_column'
  | 'encoding_error'
  | 'malformed_csv'
  // A statement's PDF, named by a path column relative to the profile's folder (decision 0094).
  | 'invalid_document_path'
  | 'document_not_found'
  | 'invalid_statement_document';

export interface MappingProblem {
  code: MappingCode;
  /** The file's name as the profile's path writes it (no folders). */
  file: string;
  line: number;
  column: number;
  header: string | null;
  /** The profile key that met the problem (`fields.customers[].email`, `files.customers.join`). */
  key: string;
  detail: string;
}

/** One line: `customers.csv:3:5 unparseable_date fields.customers[].date_of_birth [BIRTH_DATE]: …`. */
export function formatProblem(p: MappingProblem): string {
  const header = p.header === null ? '' : ` [${p.header}]`;
  return `${p.file}:${p.line}:${p.column} ${p.code} ${p.key}${header}: ${p.detail}`;
}

/** Where a problem was met, as a group's example names it. */
export interface ProblemExample {
  file: string;
  line: number;
  column: number;
  header: string | null;
}

/** The problems of one code met by one profile key: the summary's group (as validation errors are grouped). */
export interface ProblemGroup {
  code: MappingCode;
  key: string;
  count: number;
  /** The detail of the group's first problem: a sample (details name a row's own values). */
  detail: string;
  examples: ProblemExample[];
}

/** Places named per group. */
const GROUP_EXAMPLES = 5;

export class ProblemLog {
  readonly kept: MappingProblem[] = [];
  readonly byCode = new Map<MappingCode, number>();
  readonly #groups = new Map<string, ProblemGroup>();
  total = 0;

  constructor(private readonly keep = 1_000) {}

  add(problem: MappingProblem) {
    this.total++;
    this.byCode.set(problem.code, (this.byCode.get(problem.code) ?? 0) + 1);
    if (this.kept.length < this.keep) this.kept.push(problem);
    const id = `${problem.code}\u0000${problem.key}`;
    let group = this.#groups.get(id);
    if (!group) {
      group = { code: problem.code, key: problem.key, count: 0, detail: problem.detail, examples: [] };
      this.#groups.set(id, group);
    }
    group.count++;
    if (group.examples.length < GROUP_EXAMPLES) {
      const { file, line, column, header } = problem;
      group.examples.push({ file, line, column, header });
    }
  }

  /** Every problem grouped by code and profile key, most frequent first; examples in file order. */
  groups(): ProblemGroup[] {
    const inOrder = (a: ProblemExample, b: ProblemExample) =>
      a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column;
    for (const g of this.#groups.values()) g.examples.sort(inOrder);
    return [...this.#groups.values()].sort(
      (a, b) => b.count - a.count || a.code.localeCompare(b.code) || a.key.localeCompare(b.key),
    );
  }

  /** The kept problems in file and line order, one line each, and how many more there were. */
  lines(): string[] {
    const sorted = [...this.kept].sort(
      (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column,
    );
    const lines = sorted.map(formatProblem);
    if (this.total > this.kept.length) lines.push(`… and ${this.total - this.kept.length} more`);
    return lines;
  }
}
