/**
 * The code lists in the database: an upload (one value a line) replaces a list whole as a new
 * version of that list, all or nothing, with the same in-use rule as the catalogue.
 */
import { validationFailed } from '../errors/error-catalogue.ts';
import { type ErrorItem, item } from '../errors/error-items.ts';
import { type Db, type Queryable, sql } from '../infra/db/db.ts';
import { CODE_LISTS, type CodeList, jsonPathOf } from './code-lists.ts';
import {
  answerOrDryRun,
  countInUseOf,
  currentVersions,
  DryRunAnswer,
  type InUse,
  inUseRefusal,
  lockCurrentVersion,
  MAX_REPORTED_ERRORS,
  type ReferenceVersion,
  recordVersion,
} from './reference-versions.queries.ts';

const MAX_VALUE_LENGTH = 255;
const BATCH_VALUES = 5_000;

const insertValues = sql(
  'insertCodeListValues',
  `INSERT INTO code_list_values (name, version, value)
   SELECT $1, $2, v FROM unnest($3::text[]) AS v ON CONFLICT DO NOTHING`,
);
const selectRemoved = sql(
  'selectRemovedCodeListValues',
  `SELECT o.value FROM code_list_values o
    WHERE o.name = $1 AND o.version = $2
      AND NOT EXISTS (SELECT 1 FROM code_list_values n WHERE n.name = $1 AND n.version = $3 AND n.value = o.value)`,
);
const countValues = sql(
  'countCodeListValues',
  'SELECT count(*)::int AS n FROM code_list_values WHERE name = $1 AND version = $2',
);
const selectValues = sql(
  'selectCodeListValues',
  'SELECT value FROM code_list_values WHERE name = $1 AND version = $2 ORDER BY value',
);

export interface CodeListUpload {
  version: ReferenceVersion | null;
  dry_run: boolean;
  diff: { added: number; removed: number; removed_values: string[]; in_use: InUse };
}

/** Replaces list `list` with the values of `lines` (blank lines skipped, repeats kept once). */
export async function replaceCodeList(
  db: Db,
  list: CodeList,
  options: { lines: AsyncIterable<string>; dryRun: boolean; by: string },
): Promise<CodeListUpload> {
  return answerOrDryRun(() =>
    db.transaction(async (tx) => {
      const current = await lockCurrentVersion(tx, list.name);
      const from = current?.version ?? 0;
      const next = from + 1;
      const values = await storeValues(tx, list.name, next, options.lines);
      const removed = (await tx.query<{ value: string }>(selectRemoved, [list.name, from, next])).rows.map(
        (r) => r.value,
      );
      const before =
        from === 0 ? 0 : (await tx.query<{ n: number }>(countValues, [list.name, from])).rows[0].n;
      // The first upload is exempt, as for the catalogue.
      const inUse =
        from === 0
          ? { accounts: 0, processes: 0 }
          : await countInUseOf(
              tx,
              removed,
              list.places.map((place) => jsonPathOf(place.value)),
            );
      const diff = {
        added: values - (before - removed.length),
        removed: removed.length,
        removed_values: removed.slice(0, 1_000),
        in_use: inUse,
      };
      if (options.dryRun) throw new DryRunAnswer<CodeListUpload>({ version: null, dry_run: true, diff });
      if (inUse.accounts > 0 || inUse.processes > 0) throw inUseRefusal('code_in_use', inUse, removed);
      const version = await recordVersion(tx, {
        registry: list.name,
        version: next,
        by: options.by,
        counts: { values },
      });
      return { version, dry_run: false, diff };
    }),
  );
}

async function storeValues(tx: Queryable, name: string, version: number, lines: AsyncIterable<string>) {
  const errors: ErrorItem[] = [];
  const seen = new Set<string>();
  let batch: string[] = [];
  let lineNo = 0;
  const flush = async () => {
    if (batch.length > 0 && errors.length === 0) await tx.query(insertValues, [name, version, batch]);
    batch = [];
  };
  for await (const raw of lines) {
    lineNo++;
    const value = raw.trim();
    if (errors.length >= MAX_REPORTED_ERRORS || value === '') continue;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (value.length > MAX_VALUE_LENGTH || /[\u0000-\u001f]/.test(value)) {
      errors.push(
        item(
          String(lineNo),
          'invalid_code_list_value',
          `A value has at most ${MAX_VALUE_LENGTH} characters and no control characters.`,
        ),
      );
      continue;
    }
    if (seen.has(value)) continue;
    seen.add(value);
    batch.push(value);
    if (batch.length >= BATCH_VALUES) await flush();
  }
  await flush();
  if (errors.length > 0)
    throw validationFailed(
      'validation_error',
      errors,
      'Some lines of the list are not valid; nothing was stored.',
    );
  return seen.size;
}

export interface CodeListSummary {
  name: string;
  code: string;
  /** The current version; null: never uploaded (the form check holds). */
  version: ReferenceVersion | null;
}

/** Every code list Ferry knows, with its current version. */
export async function listCodeLists(db: Queryable): Promise<CodeListSummary[]> {
  const versions = await currentVersions(db);
  return CODE_LISTS.map((list) => ({
    name: list.name,
    code: list.code,
    version: versions.get(list.name) ?? null,
  }));
}

/** The current values of every uploaded list, by name. */
export async function loadCodeLists(
  db: Queryable,
  versions: ReadonlyMap<string, ReferenceVersion>,
): Promise<Map<string, string[]>> {
  const lists = new Map<string, string[]>();
  for (const list of CODE_LISTS) {
    const version = versions.get(list.name);
    if (!version) continue;
    const { rows } = await db.query<{ value: string }>(selectValues, [list.name, version.version]);
    lists.set(
      list.name,
      rows.map((r) => r.value),
    );
  }
  return lists;
}
