/**
 * A mapping profile (docs/product.md, Books from flat files): the YAML that says which CSV files
 * make a book, how they join, their format, and how each payload field is made from their columns.
 * Reading it checks its shape; `planProfile` (profile-plan.ts) then checks it against the payload.
 * Every problem is one line naming the profile's key, and all are found before any row is read.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

export type Scalar = string | number | boolean;

export interface FileFormat {
  encoding: 'utf-8' | 'windows-1252';
  delimiter: string;
  quote: string;
  /** The decimal separator of the file's numbers. */
  decimal: '.' | ',';
}

export interface ProfileFile {
  name: string;
  /** The file's path, resolved against the profile's folder. */
  path: string;
  format: FileFormat;
  /** The columns that identify a row (what child files join to); empty when none join to it. */
  key: string[];
  parent: string | null;
  /** This file's columns that hold its parent's key, in the order of the parent's key columns. */
  join: string[];
  /** The payload array each row adds an item to (`customers`, `supply_addresses[].meter_points`). */
  fills: string | null;
}

export interface FieldSpec {
  column?: string;
  const?: Scalar;
  map?: Record<string, Scalar>;
  trim?: boolean;
  upper?: boolean;
  lower?: boolean;
  /** A date format of dd, d, MM, M and yyyy with separators, e.g. dd/MM/yyyy. */
  date?: string;
  /** Overrides the file's decimal separator. */
  decimal?: '.' | ',';
  default?: Scalar;
  /** For an object or an array's one item made from the row: present only when one of these columns is filled. */
  when?: string[];
}

export interface GroupSpec {
  /** The repeated columns are numbered from..to (`CUST_{n}_NAME`). */
  from: number;
  to: number;
  /** The column (a template with {n}) whose being filled makes item n exist. */
  when: string;
}

/** What a profile's rows make: accounts, or the request bodies of a follow-up import (decision 0094). */
export const BOOK_KINDS = [
  'accounts',
  'transactions',
  'notes',
  'statements',
  'payment-instructions',
] as const;
export type BookKind = (typeof BOOK_KINDS)[number];

export interface Profile {
  name: string;
  version: number;
  /** `book:` in the YAML; accounts when absent. */
  book: BookKind;
  /** The profile's folder: relative paths in it (files, a statement's PDF) are read against it. */
  dir: string;
  files: ProfileFile[];
  /** Payload path → how it is made; object paths may carry only `when`. */
  fields: Map<string, FieldSpec>;
  /** Array path → repeated column groups that fill it. */
  groups: Map<string, GroupSpec>;
}

export class ProfileError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

const FORMAT_DEFAULTS: FileFormat = { encoding: 'utf-8', delimiter: ',', quote: '"', decimal: '.' };
const FIELD_OPTIONS = new Set([
  'column',
  'const',
  'map',
  'trim',
  'upper',
  'lower',
  'date',
  'decimal',
  'default',
  'when',
]);
const FILE_OPTIONS = new Set([
  'path',
  'key',
  'parent',
  'join',
  'fills',
  'encoding',
  'delimiter',
  'quote',
  'header',
  'decimal',
]);
const TOP_KEYS = new Set(['profile', 'version', 'book', 'format', 'files', 'fields', 'groups']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown): v is Scalar => ['string', 'number', 'boolean'].includes(typeof v);

/** A column list: one name or several. */
function columns(value: unknown): string[] | null {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0) return null;
  return list.every((c) => typeof c === 'string' && c !== '') ? (list as string[]) : null;
}

function readFormat(raw: Obj, at: string, base: FileFormat, problems: string[]): FileFormat {
  const format = { ...base };
  if (raw.encoding !== undefined) {
    const e = String(raw.encoding).toLowerCase();
    if (e === 'utf-8' || e === 'utf8') format.encoding = 'utf-8';
    else if (e === 'windows-1252' || e === 'cp1252') format.encoding = 'windows-1252';
    else problems.push(`${at}.encoding: "${raw.encoding}" is not one of utf-8, windows-1252`);
  }
  for (const option of ['delimiter', 'quote'] as const) {
    const v = raw[option];
    if (v === undefined) continue;
    if (typeof v === 'string' && v.length === 1 && v !== '\n' && v !== '\r') format[option] = v;
    else problems.push(`${at}.${option}: must be one character`);
  }
  if (raw.decimal !== undefined) {
    if (raw.decimal === '.' || raw.decimal === ',') format.decimal = raw.decimal;
    else problems.push(`${at}.decimal: must be "." or ","`);
  }
  if (raw.header !== undefined && raw.header !== true) {
    problems.push(`${at}.header: only files with a header row are read (header: true)`);
  }
  if (format.delimiter === format.quote) problems.push(`${at}: the delimiter and the quote are the same`);
  return format;
}

function readFile(name: string, raw: unknown, ctx: { dir: string; format: FileFormat }, problems: string[]) {
  const at = `files.${name}`;
  if (!isObj(raw)) {
    problems.push(`${at}: must be a mapping`);
    return null;
  }
  for (const key of Object.keys(raw))
    if (!FILE_OPTIONS.has(key)) problems.push(`${at}.${key}: unknown option`);
  if (typeof raw.path !== 'string' || raw.path === '') problems.push(`${at}.path: is required`);
  const key = raw.key === undefined ? [] : columns(raw.key);
  if (key === null) problems.push(`${at}.key: must be a column or a list of columns`);
  const join = raw.join === undefined ? [] : columns(raw.join);
  if (join === null) problems.push(`${at}.join: must be a column or a list of columns`);
  const parent = raw.parent === undefined ? null : String(raw.parent);
  const fills = raw.fills === undefined ? null : String(raw.fills);
  if (parent !== null && (join === null || join.length === 0))
    problems.push(`${at}.join: a child file names its join columns`);
  if (parent !== null && fills === null)
    problems.push(`${at}.fills: a child file names the payload array it fills`);
  if (parent === null && (raw.join !== undefined || fills !== null)) {
    problems.push(`${at}: join and fills belong to a child file (one with a parent)`);
  }
  return {
    name,
    path: resolve(ctx.dir, String(raw.path ?? '')),
    format: readFormat(raw, at, ctx.format, problems),
    key: key ?? [],
    parent,
    join: join ?? [],
    fills,
  } satisfies ProfileFile;
}

function readField(path: string, raw: unknown, problems: string[]): FieldSpec | null {
  const at = `fields.${path}`;
  if (typeof raw === 'string') return { column: raw };
  if (!isObj(raw)) {
    problems.push(`${at}: must be a column name or a mapping`);
    return null;
  }
  for (const key of Object.keys(raw))
    if (!FIELD_OPTIONS.has(key)) problems.push(`${at}.${key}: unknown option`);
  const spec: FieldSpec = {};
  if (raw.column !== undefined) {
    if (typeof raw.column === 'string' && raw.column !== '') spec.column = raw.column;
    else problems.push(`${at}.column: must be a column name`);
  }
  if (raw.const !== undefined) {
    if (isScalar(raw.const)) spec.const = raw.const;
    else problems.push(`${at}.const: must be a string, number or boolean`);
  }
  if (spec.column !== undefined && spec.const !== undefined)
    problems.push(`${at}: column and const exclude each other`);
  if (raw.map !== undefined) {
    if (isObj(raw.map) && Object.values(raw.map).every(isScalar))
      spec.map = raw.map as Record<string, Scalar>;
    else problems.push(`${at}.map: must map source values to strings, numbers or booleans`);
  }
  for (const flag of ['trim', 'upper', 'lower'] as const) {
    if (raw[flag] === undefined) continue;
    if (typeof raw[flag] === 'boolean') spec[flag] = raw[flag];
    else problems.push(`${at}.${flag}: must be true or false`);
  }
  if (spec.upper && spec.lower) problems.push(`${at}: upper and lower exclude each other`);
  if (raw.date !== undefined) {
    if (
      typeof raw.date === 'string' &&
      /^(dd?|MM?|yyyy)([^dMy]?(dd?|MM?|yyyy)){2}$/.test(raw.date) &&
      ['d', 'M', 'yyyy'].every((t) => (raw.date as string).includes(t))
    )
      spec.date = raw.date;
    else problems.push(`${at}.date: "${raw.date}" is not a date format of dd, MM and yyyy (e.g. dd/MM/yyyy)`);
  }
  if (raw.decimal !== undefined) {
    if (raw.decimal === '.' || raw.decimal === ',') spec.decimal = raw.decimal;
    else problems.push(`${at}.decimal: must be "." or ","`);
  }
  if (raw.default !== undefined) {
    if (isScalar(raw.default)) spec.default = raw.default;
    else problems.push(`${at}.default: must be a string, number or boolean`);
  }
  if (raw.when !== undefined) {
    const when = columns(raw.when);
    if (when) spec.when = when;
    else problems.push(`${at}.when: must be a column or a list of columns`);
  }
  return spec;
}

function readGroup(path: string, raw: unknown, problems: string[]): GroupSpec | null {
  const at = `groups.${path}`;
  if (!isObj(raw)) {
    problems.push(`${at}: must be a mapping with from, to and when`);
    return null;
  }
  const { from, to, when } = raw;
  if (
    !Number.isInteger(from) ||
    !Number.isInteger(to) ||
    (from as number) < 0 ||
    (to as number) < (from as number) ||
    (to as number) - (from as number) > 99
  ) {
    problems.push(`${at}: from and to must be whole numbers, from <= to, at most 100 apart`);
    return null;
  }
  if (typeof when !== 'string' || !when.includes('{n}')) {
    problems.push(`${at}.when: must be a column template with {n} (e.g. CUST_{n}_NAME)`);
    return null;
  }
  for (const key of Object.keys(raw))
    if (!['from', 'to', 'when'].includes(key)) problems.push(`${at}.${key}: unknown option`);
  return { from: from as number, to: to as number, when };
}

/** The profile in `text` (YAML), its relative file paths read against `dir`; throws ProfileError. */
export function parseProfile(text: string, dir: string): Profile {
  const problems: string[] = [];
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new ProfileError([`profile: not YAML: ${(err as Error).message.split('\n')[0]}`]);
  }
  if (!isObj(raw)) throw new ProfileError(['profile: must be a YAML mapping']);
  for (const key of Object.keys(raw)) if (!TOP_KEYS.has(key)) problems.push(`${key}: unknown key`);
  if (typeof raw.profile !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(raw.profile)) {
    problems.push('profile: a name of 1 to 64 of A-Z a-z 0-9 . _ - is required');
  }
  // The service records the version a process was built with as a 32-bit integer.
  if (
    !Number.isInteger(raw.version) ||
    (raw.version as number) < 1 ||
    (raw.version as number) > 2_147_483_647
  )
    problems.push('version: a whole number from 1 to 2147483647 is required');
  const book = raw.book ?? 'accounts';
  if (!BOOK_KINDS.includes(book as BookKind))
    problems.push(`book: "${String(book)}" is not one of ${BOOK_KINDS.join(', ')}`);
  const format = isObj(raw.format)
    ? readFormat(raw.format, 'format', FORMAT_DEFAULTS, problems)
    : FORMAT_DEFAULTS;
  if (raw.format !== undefined && !isObj(raw.format)) problems.push('format: must be a mapping');
  const files: ProfileFile[] = [];
  if (!isObj(raw.files) || Object.keys(raw.files).length === 0)
    problems.push('files: at least one file is required');
  else {
    for (const [name, file] of Object.entries(raw.files)) {
      const read = readFile(name, file, { dir, format }, problems);
      if (read) files.push(read);
    }
  }
  const fields = new Map<string, FieldSpec>();
  if (!isObj(raw.fields)) problems.push('fields: a mapping of payload paths is required');
  else {
    for (const [path, field] of Object.entries(raw.fields)) {
      const spec = readField(path, field, problems);
      if (spec) fields.set(path, spec);
    }
  }
  const groups = new Map<string, GroupSpec>();
  if (raw.groups !== undefined && !isObj(raw.groups))
    problems.push('groups: must be a mapping of payload arrays');
  for (const [path, group] of Object.entries(isObj(raw.groups) ? raw.groups : {})) {
    const spec = readGroup(path, group, problems);
    if (spec) groups.set(path, spec);
  }
  if (problems.length > 0) throw new ProfileError(problems);
  return {
    name: raw.profile as string,
    version: raw.version as number,
    book: book as BookKind,
    dir,
    files,
    fields,
    groups,
  };
}

/** The profile in the YAML file at `path`; throws ProfileError. */
export function loadProfile(path: string): Profile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ProfileError([`profile: cannot read ${path}: ${(err as Error).message}`]);
  }
  return parseProfile(text, dirname(resolve(path)));
}
