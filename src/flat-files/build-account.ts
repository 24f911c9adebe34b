/**
 * One source row made into its payload object, with everything under it: the row's fields, the
 * objects and one-item arrays made from the same row (present when their `when` columns are
 * filled), the repeated column groups, and the items child files' rows add. Each object made from
 * a row of its own records that row as its source (`supply_addresses.0.meter_points.1` →
 * `meter_points.csv:7`), for reporting the service's errors against the source.
 */
import { basename } from 'node:path';
import { cellValue } from './cell-values.ts';
import type { ProblemLog } from './mapping-problems.ts';
import type { BookPlan, FilePlan, ObjectPlan } from './profile-plan.ts';

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
  sources: Record<string, string>;
}

const filled = (row: SourceRow, col: number) => col >= 0 && (row[col + 1] as string).trim() !== '';
const KEY_SEPARATOR = '\u001f';
const child = (attr: string, name: string) => (attr ? `${attr}.${name}` : name);

function buildObject(ctx: RowContext, plan: ObjectPlan, at: Where): Record<string, unknown> {
  const { f, row, n } = at;
  const out: Record<string, unknown> = {};
  for (const field of plan.fields) {
    const col = field.cols[n];
    const got = cellValue(
      field.spec,
      field.kind,
      col < 0 ? undefined : (row[col + 1] as string),
      f.file.format.decimal,
    );
    if ('code' in got) {
      ctx.problems.add({
        code: got.code,
        file: basename(f.file.path),
        line: row[0],
        column: f.positions[col],
        header: f.columns[col],
        key: field.key,
        detail: got.detail,
      });
    } else if (got.value !== undefined) out[field.name] = got.value;
  }
  for (const o of plan.objects) {
    if (o.when && !o.whenCols.some((cols) => filled(row, cols[n]))) continue;
    const attr = o.array ? `${child(at.attr, o.name)}.0` : child(at.attr, o.name);
    const made = buildObject(ctx, o.plan, { ...at, attr });
    out[o.name] = o.array ? [made] : made;
  }
  for (const g of plan.groups) {
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < g.whenCols.length; i++) {
      if (!filled(row, g.whenCols[i])) continue;
      items.push(
        buildObject(ctx, g.plan, { ...at, n: i, attr: `${child(at.attr, g.name)}.${items.length}` }),
      );
    }
    if (items.length > 0) out[g.name] = items;
  }
  if (plan.children.length > 0) {
    const keyAt = f.file.key.map((c) => f.columns.indexOf(c) + 1);
    const key = keyAt.length === 1 ? (row[keyAt[0]] as string) : keyAt.map((j) => row[j]).join(KEY_SEPARATOR);
    for (const c of plan.children) {
      const rows = ctx.children[c.file].get(key);
      if (!rows) continue;
      ctx.children[c.file].delete(key);
      out[c.name] = rows.map((r, i) =>
        buildRow(ctx, { file: c.file, row: r, attr: `${child(at.attr, c.name)}.${i}`, sources: at.sources }),
      );
    }
  }
  return out;
}

/** The object a row of file `file` makes, recording its source under `attr`. */
export function buildRow(
  ctx: RowContext,
  at: { file: number; row: SourceRow; attr: string; sources: Record<string, string> },
): Record<string, unknown> {
  const f = ctx.plan.files[at.file];
  at.sources[at.attr] = `${basename(f.file.path)}:${at.row[0]}`;
  return buildObject(ctx, f.plan, { f, row: at.row, n: 0, attr: at.attr, sources: at.sources });
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
