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
  | 'malformed_csv';

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

export class ProblemLog {
  readonly kept: MappingProblem[] = [];
  readonly byCode = new Map<MappingCode, number>();
  total = 0;

  constructor(private readonly keep = 1_000) {}

  add(problem: MappingProblem) {
    this.total++;
    this.byCode.set(problem.code, (this.byCode.get(problem.code) ?? 0) + 1);
    if (this.kept.length < this.keep) this.kept.push(problem);
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
