/**
 * A profile checked against the account payload (or, for a follow-up profile, its request body's
 * schema: decision 0094) and turned into one plan per file: the tree of
 * objects a row of that file makes (its fields, the objects and one-item arrays made from the same
 * row, the repeated column groups, and the arrays child files fill). Problems — an unknown payload
 * path, a required field mapped by nothing, a join to a file the profile does not name — are one
 * line each, naming the profile key, and all are reported before any row is read.
 */
import { BOOK_SCHEMAS, type FieldKind, pathSteps, resolvePath as resolveIn } from './payload-paths.ts';
import { type FieldSpec, type GroupSpec, type Profile, ProfileError, type ProfileFile } from './profile.ts';

export interface FieldPlan {
  name: string;
  /** The profile key that made it (`fields.customers[].email`), for error lines. */
  key: string;
  spec: FieldSpec;
  kind: FieldKind;
  /** The column's index in the file's kept columns, per group number (index 0 outside a group). */
  cols: Int32Array;
}

export interface InlinePlan {
  name: string;
  /** A one-item array made from the row, rather than an object. */
  array: boolean;
  when: string[] | null;
  whenCols: Int32Array[];
  plan: ObjectPlan;
}

export interface GroupPlan {
  name: string;
  key: string;
  spec: GroupSpec;
  whenCols: Int32Array;
  plan: ObjectPlan;
}

export interface ObjectPlan {
  /** The payload path of the object (`customers[]`). */
  path: string;
  fields: FieldPlan[];
  objects: InlinePlan[];
  groups: GroupPlan[];
  /** Arrays filled by child files: the field and the file's index. */
  children: { name: string; file: number }[];
}

export interface FilePlan {
  file: ProfileFile;
  index: number;
  parent: number;
  /** The payload path of the object each row makes: '' for the top file, `customers[]`… */
  scope: string;
  plan: ObjectPlan;
  /** Every column the profile reads from this file (groups expanded), in a fixed order. */
  columns: string[];
  /** Where each kept column is in the file (1-based), once its header has been read. */
  positions: number[];
}

export interface BookPlan {
  profile: Profile;
  /** Parents before their children; index 0 is the top file (one row, one account). */
  files: FilePlan[];
}

/** What the profile's paths are checked against, and how its messages name it. */
const bookOf = (profile: Profile) => BOOK_SCHEMAS[profile.book];
const resolvePath = (path: string, profile: Profile) => resolveIn(path, bookOf(profile).schema);

const emptyPlan = (path: string): ObjectPlan => ({ path, fields: [], objects: [], groups: [], children: [] });
const expand = (template: string, n: number) => template.replaceAll('{n}', String(n));

/** Files ordered parents first, or problems when the parents do not make one tree. */
function orderFiles(profile: Profile, problems: string[]): ProfileFile[] {
  const byName = new Map(profile.files.map((f) => [f.name, f]));
  const roots = profile.files.filter((f) => f.parent === null);
  if (roots.length !== 1) {
    problems.push(
      `files: exactly one file has no parent (its rows make the book's lines), found ${roots.length}: ${roots.map((f) => f.name).join(', ') || 'none'}`,
    );
  }
  for (const f of profile.files) {
    if (f.parent === null) continue;
    const parent = byName.get(f.parent);
    if (!parent) {
      problems.push(`files.${f.name}.parent: "${f.parent}" is not a file of this profile`);
      continue;
    }
    if (parent.key.length === 0)
      problems.push(`files.${parent.name}.key: ${f.name} joins to it, so it needs a key`);
    else if (parent.key.length !== f.join.length) {
      problems.push(
        `files.${f.name}.join: ${f.join.length} column(s) for ${parent.name}'s key of ${parent.key.length}`,
      );
    }
  }
  const ordered: ProfileFile[] = [];
  const placed = new Set<string>();
  let frontier = roots.slice(0, 1);
  while (frontier.length > 0) {
    for (const f of frontier) placed.add(f.name);
    ordered.push(...frontier);
    frontier = profile.files.filter((f) => f.parent !== null && !placed.has(f.name) && placed.has(f.parent));
  }
  // A file left out lies below a parent the profile lacks (reported above) or in a cycle.
  for (const f of profile.files) {
    if (placed.has(f.name) || roots.length !== 1) continue;
    const seen = new Set<string>();
    let at: ProfileFile | undefined = f;
    while (at && !seen.has(at.name)) {
      seen.add(at.name);
      at = byName.get(at.parent ?? '');
    }
    if (at) problems.push(`files.${f.name}.parent: the parents form a cycle`);
  }
  return ordered;
}

interface Descent {
  plan: ObjectPlan;
  /** The object or one-item array the last step made, when it was one. */
  inline: InlinePlan | null;
  /** Whether the path went through a group (its columns may then use {n}). */
  inGroup: boolean;
}

/** The object plan at `relative` under `plan`, made on the way (inline objects and groups). */
function descend(
  plan: ObjectPlan,
  relative: string,
  ctx: { profile: Profile; scope: string; problems: string[]; key: string; inGroup?: boolean },
): Descent | null {
  const at: Descent = { plan, inline: null, inGroup: ctx.inGroup ?? false };
  let path = ctx.scope;
  for (const step of pathSteps(relative) ?? []) {
    const full = path ? `${path}.${step.name}` : step.name;
    path = step.items ? `${full}[]` : full;
    const group = ctx.profile.groups.get(full);
    if (step.items && group) {
      if (at.inGroup) {
        ctx.problems.push(`${ctx.key}: groups.${full} lies inside another group`);
        return null;
      }
      let g = at.plan.groups.find((x) => x.name === step.name);
      if (!g) {
        g = {
          name: step.name,
          key: `groups.${full}`,
          spec: group,
          whenCols: new Int32Array(0),
          plan: emptyPlan(path),
        };
        at.plan.groups.push(g);
      }
      Object.assign(at, { plan: g.plan, inline: null, inGroup: true });
      continue;
    }
    let o = at.plan.objects.find((x) => x.name === step.name);
    if (!o) {
      o = { name: step.name, array: step.items, when: null, whenCols: [], plan: emptyPlan(path) };
      at.plan.objects.push(o);
    }
    if (o.array !== step.items) {
      ctx.problems.push(`${ctx.key}: ${full} is written both with and without []`);
      return null;
    }
    Object.assign(at, { plan: o.plan, inline: o });
  }
  return at;
}

/** The file whose row makes `path`: the one whose scope is the longest prefix of it. */
function ownerOf(path: string, files: FilePlan[]): FilePlan | undefined {
  let best: FilePlan | undefined;
  for (const f of files) {
    const inside = f.scope === '' || path === f.scope || path.startsWith(`${f.scope}.`);
    if (inside && (!best || f.scope.length > best.scope.length)) best = f;
  }
  return best;
}

const relativeTo = (scope: string, path: string) => (scope === '' ? path : path.slice(scope.length + 1));

function placeField(
  path: string,
  spec: FieldSpec,
  files: FilePlan[],
  ctx: { profile: Profile; problems: string[] },
) {
  const key = `fields.${path}`;
  const node = resolvePath(path, ctx.profile);
  if (node === null) {
    ctx.problems.push(`${key}: not a field of ${bookOf(ctx.profile).name}`);
    return;
  }
  const owner = ownerOf(path, files);
  if (!owner) return;
  const isObject = node.kind === 'object' || node.kind === 'array';
  if (isObject) {
    const extra = Object.keys(spec).filter((k) => k !== 'when');
    if (extra.length > 0 || !spec.when) {
      ctx.problems.push(`${key}: an object takes only when (its fields are mapped one by one)`);
      return;
    }
    if (path === owner.scope || ctx.profile.groups.has(path.replace(/\[\]$/, ''))) {
      ctx.problems.push(
        `${key}.when: applies to an object made from its parent's row, not to a file's or a group's items`,
      );
      return;
    }
    const at = descend(owner.plan, relativeTo(owner.scope, path), { ...ctx, scope: owner.scope, key });
    if (at?.inline) at.inline.when = spec.when;
    return;
  }
  if (spec.when) ctx.problems.push(`${key}.when: applies to objects, not to a field`);
  if (spec.column === undefined && spec.const === undefined) {
    ctx.problems.push(`${key}: needs a column or a const`);
    return;
  }
  if (spec.date && node.kind !== 'date') ctx.problems.push(`${key}.date: the field is not a date`);
  if (spec.decimal && node.kind !== 'decimal')
    ctx.problems.push(`${key}.decimal: the field is not a decimal`);
  const cut = path.lastIndexOf('.');
  const name = path.slice(cut + 1);
  const parent = descend(owner.plan, relativeTo(owner.scope, cut < 0 ? '' : path.slice(0, cut)), {
    ...ctx,
    scope: owner.scope,
    key,
  });
  if (!parent) return;
  if (spec.column?.includes('{n}') && !parent.inGroup)
    ctx.problems.push(`${key}.column: {n} is only for a field inside a group`);
  parent.plan.fields.push({ name, key, spec, kind: node.kind, cols: new Int32Array(0) });
}

/** Fields the payload requires of each object the plan makes, mapped by nothing. */
function checkRequired(plan: ObjectPlan, owner: string, ctx: { profile: Profile; problems: string[] }) {
  const { problems } = ctx;
  const node = resolvePath(plan.path, ctx.profile);
  if (!node) return;
  const mapped = new Set([
    ...plan.fields.map((f) => f.name),
    ...plan.objects.map((o) => o.name),
    ...plan.groups.map((g) => g.name),
    ...plan.children.map((c) => c.name),
  ]);
  for (const name of node.required) {
    if (!mapped.has(name)) {
      problems.push(
        `${owner}: ${plan.path ? `${plan.path}.` : ''}${name} is required by ${bookOf(ctx.profile).name} and mapped by nothing`,
      );
    }
  }
  for (const o of plan.objects) checkRequired(o.plan, owner, ctx);
  for (const g of plan.groups) checkRequired(g.plan, g.key, ctx);
}

/** Every column the plan reads, groups expanded over `ns`. */
function columnsOf(plan: ObjectPlan, ns: number[], into: Set<string>) {
  for (const f of plan.fields) if (f.spec.column) for (const n of ns) into.add(expand(f.spec.column, n));
  for (const o of plan.objects) {
    for (const c of o.when ?? []) for (const n of ns) into.add(expand(c, n));
    columnsOf(o.plan, ns, into);
  }
  for (const g of plan.groups) {
    const range = Array.from({ length: g.spec.to - g.spec.from + 1 }, (_, i) => g.spec.from + i);
    for (const n of range) into.add(expand(g.spec.when, n));
    columnsOf(g.plan, range, into);
  }
}

/** Sets each field's and condition's column indexes, from the file's kept columns. */
function bindColumns(plan: ObjectPlan, ns: number[], index: Map<string, number>) {
  const cols = (template: string) => Int32Array.from(ns, (n) => index.get(expand(template, n)) ?? -1);
  for (const f of plan.fields)
    f.cols = f.spec.column ? cols(f.spec.column) : new Int32Array(ns.length).fill(-1);
  for (const o of plan.objects) {
    o.whenCols = (o.when ?? []).map(cols);
    bindColumns(o.plan, ns, index);
  }
  for (const g of plan.groups) {
    const range = Array.from({ length: g.spec.to - g.spec.from + 1 }, (_, i) => g.spec.from + i);
    g.whenCols = Int32Array.from(range, (n) => index.get(expand(g.spec.when, n)) ?? -1);
    bindColumns(g.plan, range, index);
  }
}

/** The profile's plan; throws ProfileError with every problem found. */
export function planProfile(profile: Profile): BookPlan {
  const problems: string[] = [];
  const ordered = orderFiles(profile, problems);
  const files: FilePlan[] = [];
  for (const file of ordered) {
    const index = files.length;
    const parent = file.parent === null ? -1 : files.findIndex((f) => f.file.name === file.parent);
    let scope = '';
    if (file.fills !== null) {
      const node = resolvePath(file.fills, profile);
      const owner = parent >= 0 ? files[parent] : undefined;
      if (node?.kind !== 'array') {
        problems.push(`files.${file.name}.fills: ${file.fills} is not an array of ${bookOf(profile).name}`);
      } else if (owner && ownerOf(file.fills, files) !== owner) {
        problems.push(
          `files.${file.name}.fills: ${file.fills} is not inside what ${owner.file.name} makes (${owner.scope || 'the account'})`,
        );
      } else if (owner) {
        scope = `${file.fills}[]`;
        const cut = file.fills.lastIndexOf('.');
        const at = descend(owner.plan, relativeTo(owner.scope, cut < 0 ? '' : file.fills.slice(0, cut)), {
          profile,
          problems,
          scope: owner.scope,
          key: `files.${file.name}.fills`,
        });
        at?.plan.children.push({ name: file.fills.slice(cut + 1), file: index });
      }
      if (scope === '') continue;
    }
    files.push({ file, index, parent, scope, plan: emptyPlan(scope), columns: [], positions: [] });
  }
  for (const path of profile.groups.keys()) {
    const node = resolvePath(path, profile);
    if (node?.kind !== 'array') problems.push(`groups.${path}: not an array of ${bookOf(profile).name}`);
    else if (files.some((f) => f.scope === `${path}[]`))
      problems.push(`groups.${path}: the array is filled by a file already`);
  }
  for (const [path, spec] of profile.fields) placeField(path, spec, files, { profile, problems });
  for (const f of files) checkRequired(f.plan, `files.${f.file.name}`, { profile, problems });
  if (problems.length > 0) throw new ProfileError(problems);
  for (const f of files) {
    const keep = new Set<string>([...f.file.key, ...f.file.join]);
    columnsOf(f.plan, [0], keep);
    f.columns = [...keep];
    bindColumns(f.plan, [0], new Map(f.columns.map((c, i) => [c, i])));
  }
  return { profile, files };
}
