/**
 * One source row made into its payload object, with everything under it: the row's fields, the
 * objects and one-item arrays made from the same row (present when their `when` columns are
 * filled), the repeated column groups, and the items child files' rows add. Each object made from
 * a row of its own records that row as its source (`supply_addresses.0.meter_points.1` →
 * `meter_points.csv:7`), for reporting the service's errors against the source.
 */
import { basename } from 'node:path';
import { type CellConverter, CellProblem, compileCell } from './cell-values.ts';
import type { ProblemLog } from './mapping-problems.ts';
import type { BookPlan, FieldPlan, FilePlan, ObjectPlan } from './profile-plan.ts';

/** A row as the buckets keep it: its line, then the kept columns' cells. */
export type SourceRow = [number, ...string[]];

export interface RowContext {
  plan: BookPlan;
  /** Per file, its rows of this bucket by the parent key they join to (taken as they are used). */
  children: Map<string, SourceRow[]>[];
  problems: ProblemLog;
}

interface Where {
  f: FilePlan;
  row: SourceRow;
  /** The group number's index, 0 outside a group. */
  n: number;
  attr: string;
  sources: string[];
}

/** What a file's rows make, compiled once per plan: each field's converter, the file's key columns. */
interface Compiled {
  converters: Map<FieldPlan, CellConverter>;
  /** Per file: its name in source lines, and its key's places in a SourceRow. */
  names: string[];
  keyAt: number[][];
}

const compiledPlans = new WeakMap<BookPlan, Compiled>();

function compiled(plan: BookPlan): Compiled {
  let c = compiledPlans.get(plan);
  if (c) return c;
  const converters = new Map<FieldPlan, CellConverter>();
  const visit = (f: FilePlan, o: ObjectPlan) => {
    for (const field of o.fields) {
      converters.set(field, compileCell(field.spec, field.kind, f.file.format.decimal));
    }
    for (const inline of o.objects) visit(f, inline.plan);
    for (const g of o.groups) visit(f, g.plan);
  };
  for (const f of plan.files) visit(f, f.plan);
  c = {
    converters,
    names: plan.files.map((f) => basename(f.file.path)),
    keyAt: plan.files.map((f) => f.file.key.map((k) => f.columns.indexOf(k) + 1)),
  };
  compiledPlans.set(plan, c);
  return c;
}

const filled = (row: SourceRow, col: number) => col >= 0 && (row[col + 1] as string).trim() !== '';
const KEY_SEPARATOR = '\u001f';
const child = (attr: string, name: string) => (attr ? `${attr}.${name}` : name);

function buildObject(ctx: RowContext, plan: ObjectPlan, at: Where): Record<string, unknown> {
  const { f, row, n } = at;
  const c = compiled(ctx.plan);
  const out: Record<string, unknown> = {};
  for (const field of plan.fields) {
    const col = field.cols[n];
    const got = (c.converters.get(field) as CellConverter)(col < 0 ? undefined : (row[col + 1] as string));
    if (got instanceof CellProblem) {
      ctx.problems.add({
        code: got.code,
        file: basename(f.file.path),
        line: row[0],
        column: f.positions[col],
        header: f.columns[col],
        key: field.key,
        detail: got.detail,
      });
    } else if (got !== undefined) out[field.name] = got;
  }
  for (const o of plan.objects) {
    if (o.when && !o.whenCols.some((cols) => filled(row, cols[n]))) continue;
    const attr = o.array ? `${child(at.attr, o.name)}.0` : child(at.attr, o.name);
    const made = buildObject(ctx, o.plan, { f, row, n, attr, sources: at.sources });
    out[o.name] = o.array ? [made] : made;
  }
  for (const g of plan.groups) {
    let items: Record<string, unknown>[] | null = null;
    for (let i = 0; i < g.whenCols.length; i++) {
      if (!filled(row, g.whenCols[i])) continue;
      items ??= [];
      const attr = `${child(at.attr, g.name)}.${items.length}`;
      items.push(buildObject(ctx, g.plan, { f, row, n: i, attr, sources: at.sources }));
    }
    if (items !== null) out[g.name] = items;
  }
  if (plan.children.length > 0) {
    const keyAt = c.keyAt[f.index];
    const key = keyAt.length === 1 ? (row[keyAt[0]] as string) : keyAt.map((j) => row[j]).join(KEY_SEPARATOR);
    for (const ch of plan.children) {
      const rows = ctx.children[ch.file].get(key);
      if (!rows) continue;
      ctx.children[ch.file].delete(key);
      const prefix = `${child(at.attr, ch.name)}.`;
      const items = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) {
        items[i] = buildRow(ctx, { file: ch.file, row: rows[i], attr: `${prefix}${i}`, sources: at.sources });
      }
      out[ch.name] = items;
    }
  }
  return out;
}

/**
 * The object a row of file `file` makes, recording its source under `attr` in `sources`: pairs of
 * attr and row, flat (an object keyed by every attr would make the engine intern each one).
 */
export function buildRow(
  ctx: RowContext,
  at: { file: number; row: SourceRow; attr: string; sources: string[] },
): Record<string, unknown> {
  const f = ctx.plan.files[at.file];
  at.sources.push(at.attr, `${compiled(ctx.plan).names[at.file]}:${at.row[0]}`);
  return buildObject(ctx, f.plan, { f, row: at.row, n: 0, attr: at.attr, sources: at.sources });
}

/** The sources pairs as the object they stand for. */
export function sourcesObject(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < pairs.length; i += 2) out[pairs[i]] = pairs[i + 1];
  return out;
}

/** The sources pairs as JSON: what JSON.stringify of their object writes (no attr is a number). */
export function sourcesJson(pairs: string[]): string {
  let out = '{';
  for (let i = 0; i < pairs.length; i += 2) {
    out += `${i === 0 ? '' : ','}${JSON.stringify(pairs[i])}:${JSON.stringify(pairs[i + 1])}`;
  }
  return `${out}}`;
}

/**
 * Where the value at `attr` (an error's `supply_addresses.0.meter_points.1.identifier`) came
 * from: the row of its nearest object with a source, and the column the profile reads for it.
 */
export function sourceOf(
  sources: Record<string, string>,
  attr: string | null,
  plan: BookPlan,
): string | null {
  if (attr === null) return sources[''] ?? null;
  let prefix = attr;
  for (;;) {
    if (Object.hasOwn(sources, prefix)) break;
    const cut = prefix.lastIndexOf('.');
    if (cut < 0) {
      prefix = '';
      break;
    }
    prefix = prefix.slice(0, cut);
  }
  const row = sources[prefix];
  if (row === undefined) return null;
  const path = attr.replace(/\.\d+(?=\.|$)/g, '[]');
  const column = plan.profile.fields.get(path)?.column;
  return column ? `${row} (${column})` : row;
}
