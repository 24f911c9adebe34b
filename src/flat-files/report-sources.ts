/**
 * A push report's errors traced to the source files: each error of a mapped account gains
 * `source`, the file and line its field came from and the column the profile reads
 * (`CUSTOMERS.CSV:4 (MOBILE)`). The book's sources file has one line per book line, and the report
 * names each account's book line, so the three files are read as streams; the report is rewritten
 * under a temporary name and renamed over itself, whole.
 */

import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, renameSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { sourceOf } from './build-account.ts';
import type { BookPlan } from './profile-plan.ts';

type Obj = Record<string, unknown>;

async function* jsonLines(path: string): AsyncGenerator<Obj | null> {
  for await (const text of createInterface({
    input: createReadStream(path),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    if (!text.trim()) continue;
    try {
      yield JSON.parse(text) as Obj;
    } catch {
      yield null;
    }
  }
}

const hasErrors = (line: Obj | null): line is Obj & { line: number; errors: Obj[] } =>
  line !== null && typeof line.line === 'number' && Array.isArray(line.errors) && line.errors.length > 0;

/** Adds `source` to every error of `reportPath` that a line of `sourcesPath` explains. */
export async function addSourcesToReport(
  reportPath: string,
  sourcesPath: string,
  plan: BookPlan,
): Promise<number> {
  if (!existsSync(reportPath) || !existsSync(sourcesPath)) return 0;
  const wanted = new Set<number>();
  for await (const line of jsonLines(reportPath)) if (hasErrors(line)) wanted.add(line.line);
  if (wanted.size === 0) return 0;
  const sources = new Map<number, Record<string, string>>();
  let n = 0;
  for await (const line of jsonLines(sourcesPath)) {
    n++;
    if (wanted.has(n) && line) sources.set(n, line.sources as Record<string, string>);
  }
  const temporary = `${reportPath}.sources`;
  const out = createWriteStream(temporary);
  let traced = 0;
  for await (const line of jsonLines(reportPath)) {
    if (line === null) continue;
    const rows = hasErrors(line) ? sources.get(line.line) : undefined;
    if (rows && hasErrors(line)) {
      for (const error of line.errors) {
        const source = sourceOf(rows, typeof error.attr === 'string' ? error.attr : null, plan);
        if (source !== null) {
          error.source = source;
          traced++;
        }
      }
    }
    if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  renameSync(temporary, reportPath);
  return traced;
}
