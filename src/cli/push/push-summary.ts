/**
 * The summary of an account push's report: lines per status, and its errors grouped by code and
 * `attr`, each with its count, a sample of its detail (the first line's) and the first few accounts
 * (external number and line) that have it. Read from the report itself once the run is complete, so it covers the whole book, resumed
 * lines included; and the catalogue's refusals by tariff code (push-catalogue-summary.ts). Printed
 * after the run, and written as JSON with --summary FILE. When `--profile` met problems in the
 * source files, nothing is sent and the summary holds those instead, grouped the same way: by code
 * and profile key, with counts, a sample detail and the first places (`mapping`).
 */
import { writeFileSync } from 'node:fs';
import type { ProblemExample, ProblemGroup, ProblemLog } from '../../flat-files/mapping-problems.ts';
import { asKeyPart, asObject } from './push-account-lines.ts';
import {
  type CatalogueRefusal,
  catalogueRefusalOf,
  formatTariffGroups,
  groupByTariff,
  type TariffGroup,
} from './push-catalogue-summary.ts';
import { ndjsonRecords } from './push-report.ts';

/** Accounts named per group. */
const EXAMPLES = 5;

export interface SummaryExample {
  external_account_number: string | null;
  line: number | null;
}

export interface ErrorGroup {
  code: string;
  attr: string | null;
  count: number;
  /** The detail of the group's first error: a sample (details may name a line's own values). */
  detail: string | null;
  examples: SummaryExample[];
}

export interface ReportSummary {
  /** null when nothing was sent: the mapping met problems. */
  report: string | null;
  lines: number;
  statuses: Record<string, number>;
  /** Most frequent first. */
  errors: ErrorGroup[];
  /** The catalogue's refusals by tariff code, most accounts first (push-catalogue-summary.ts). */
  catalogue: Record<string, TariffGroup>;
  /** Problems the mapping met in the source files, most frequent first (none once it mapped). */
  mapping: ProblemGroup[];
}

/** The summary of a push that stopped at the mapping: the source files' problems, grouped. */
export const mappingSummary = (problems: ProblemLog): ReportSummary => ({
  report: null,
  lines: 0,
  statuses: {},
  errors: [],
  catalogue: {},
  mapping: problems.groups(),
});

/** `bookPath`: the pushed book, read again for the tariffs of the catalogue's refusals. */
export async function summarizeReport(reportPath: string, bookPath: string): Promise<ReportSummary> {
  const statuses: Record<string, number> = {};
  const groups = new Map<string, ErrorGroup>();
  const refusals = new Map<number, CatalogueRefusal>();
  let lines = 0;
  for await (const { value } of ndjsonRecords(reportPath)) {
    if (!value || typeof value.status !== 'string') continue;
    lines++;
    statuses[value.status] = (statuses[value.status] ?? 0) + 1;
    const example = {
      external_account_number: asKeyPart(value.external_account_number),
      line: typeof value.line === 'number' ? value.line : null,
    };
    const errors: unknown[] = Array.isArray(value.errors) ? value.errors : [];
    const refusal = catalogueRefusalOf(example.line, example.external_account_number, errors);
    if (refusal) refusals.set(refusal.line, refusal);
    for (const e of errors) {
      const code = String(asObject(e)?.code ?? 'unknown');
      const attr = asKeyPart(asObject(e)?.attr);
      const detail = asObject(e)?.detail;
      const key = `${code}\u0000${attr ?? ''}`;
      let group = groups.get(key);
      if (!group) {
        group = { code, attr, count: 0, detail: typeof detail === 'string' ? detail : null, examples: [] };
        groups.set(key, group);
      }
      group.count++;
      const last = group.examples.at(-1);
      const sameLine =
        last &&
        last.line === example.line &&
        last.external_account_number === example.external_account_number;
      if (group.examples.length < EXAMPLES && !sameLine) group.examples.push(example);
    }
  }
  const errors = [...groups.values()].sort(
    (a, b) => b.count - a.count || a.code.localeCompare(b.code) || (a.attr ?? '').localeCompare(b.attr ?? ''),
  );
  const catalogue = await groupByTariff(bookPath, refusals);
  return { report: reportPath, lines, statuses, errors, catalogue, mapping: [] };
}

const describeExample = (e: SummaryExample) =>
  `${e.external_account_number ?? '(no external account number)'}${e.line === null ? '' : ` (line ${e.line})`}`;

/** The summary's errors as lines for the terminal; empty when the report has none. */
export function formatSummary(summary: ReportSummary): string {
  if (summary.mapping.length > 0) return formatMappingGroups(summary.mapping);
  if (summary.errors.length === 0) return '';
  return formatErrorGroups(summary) + formatTariffGroups(summary.catalogue);
}

const describePlace = (e: ProblemExample) =>
  `${e.file}:${e.line}:${e.column}${e.header === null ? '' : ` [${e.header}]`}`;

function formatMappingGroups(groups: ProblemGroup[]): string {
  const width = String(groups[0].count).length;
  const lines = groups.map(
    (g) =>
      `  ${String(g.count).padStart(width)}  ${g.code} at ${g.key}: ` +
      `${g.examples.map(describePlace).join(', ')}${g.count > g.examples.length ? ', …' : ''}` +
      `\n  ${' '.repeat(width)}  e.g. ${g.detail}`,
  );
  return `Mapping problems by code and profile key (count: first places, then a sample detail):\n${lines.join('\n')}\n`;
}

function formatErrorGroups(summary: ReportSummary): string {
  const width = String(summary.errors[0].count).length;
  const lines = summary.errors.map(
    (g) =>
      `  ${String(g.count).padStart(width)}  ${g.code}${g.attr ? ` at ${g.attr}` : ''}: ` +
      `${g.examples.map(describeExample).join(', ')}${g.count > g.examples.length ? ', …' : ''}` +
      (g.detail ? `\n  ${' '.repeat(width)}  e.g. ${g.detail}` : ''),
  );
  return `Errors by code and field (count: first accounts, then a sample detail):\n${lines.join('\n')}\n`;
}

export function writeSummary(path: string, summary: ReportSummary): void {
  writeFileSync(path, `${JSON.stringify(summary, null, 2)}\n`);
}
