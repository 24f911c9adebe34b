/**
 * The product catalogue in the database: an upload replaces it whole as a new version, in one
 * transaction, streamed in batches (a few thousand products in memory, whatever the upload's
 * length). A bad line stores nothing: every error is collected (up to 100) and the transaction
 * rolled back. A dry run answers the diff against the current version and stores nothing.
 */
import { validationFailed } from '../errors/error-catalogue.ts';
import { type ErrorItem, item } from '../errors/error-items.ts';
import { type Db, type Queryable, sql } from '../infra/db/db.ts';
import { PRODUCT_CODE_PATHS, TARIFF_CODE_PATH } from './code-lists.ts';
import { type Product, readProductLine } from './product-lines.ts';
import {
  answerOrDryRun,
  countInUseOf,
  currentVersion,
  DryRunAnswer,
  type InUse,
  inUseRefusal,
  lockCurrentVersion,
  MAX_REPORTED_ERRORS,
  type ReferenceVersion,
  recordVersion,
} from './reference-versions.queries.ts';

export const PRODUCTS = 'products';
const BATCH_PRODUCTS = 1_000;
/** Codes a diff lists of each kind (it counts them all). */
const DIFF_LISTED = 1_000;

const insertProducts = sql(
  'insertCatalogueProducts',
  `INSERT INTO catalogue_products (version, code, product)
   SELECT $1, p.product->>'code', p.product FROM jsonb_array_elements($2::jsonb) AS p(product)`,
);
const insertTariffRows = sql(
  'insertCatalogueTariffRows',
  `INSERT INTO catalogue_tariffs (version, code, product_code, region, payment_method)
   SELECT $1, t.code, t.product_code, t.region, t.payment_method
     FROM jsonb_to_recordset($2::jsonb) AS t(code text, product_code text, region text, payment_method text)`,
);
const selectDiff = sql(
  'selectCatalogueDiff',
  `SELECT coalesce(n.code, o.code) AS code,
          CASE WHEN o.code IS NULL THEN 'added' WHEN n.code IS NULL THEN 'removed' ELSE 'changed' END AS change
     FROM (SELECT code, product FROM catalogue_products WHERE version = $1) o
     FULL JOIN (SELECT code, product FROM catalogue_products WHERE version = $2) n ON n.code = o.code
    WHERE o.code IS NULL OR n.code IS NULL OR o.product <> n.product
    ORDER BY 1`,
);
const selectRemovedTariffs = sql(
  'selectRemovedCatalogueTariffs',
  `SELECT o.code FROM catalogue_tariffs o
    WHERE o.version = $1 AND NOT EXISTS (SELECT 1 FROM catalogue_tariffs n WHERE n.version = $2 AND n.code = o.code)
   UNION ALL
   SELECT o.code FROM catalogue_products o
    WHERE o.version = $1 AND NOT EXISTS (SELECT 1 FROM catalogue_products n WHERE n.version = $2 AND n.code = o.code)`,
);
const selectProductsPage = sql(
  'selectCatalogueProductsPage',
  `SELECT product FROM catalogue_products WHERE version = $1 AND code > $2 ORDER BY code LIMIT $3`,
);
const selectAllProducts = sql(
  'selectCatalogueProducts',
  'SELECT product FROM catalogue_products WHERE version = $1',
);

export interface CatalogueDiff {
  added: number;
  removed: number;
  changed: number;
  /** The codes of each kind, up to 1,000 each. */
  codes: { added: string[]; removed: string[]; changed: string[] };
  /** Who uses what the upload leaves out (an upload that is not a dry run is refused when any does). */
  in_use: InUse;
  /** The tariff and product codes the upload leaves out, whether in use or not. */
  in_use_codes?: string[];
}

export interface CatalogueUpload {
  version: ReferenceVersion | null;
  dry_run: boolean;
  diff: CatalogueDiff;
}

/**
 * Replaces the catalogue with the products of `lines` (from 1; blank lines skipped but counted)
 * as a new version, unless `dryRun`. Throws a validation failure naming the bad lines, or 409
 * product_in_use when the upload leaves out a product or tariff in use (the first upload is exempt).
 */
export async function replaceCatalogue(
  db: Db,
  options: { lines: AsyncIterable<string>; dryRun: boolean; by: string },
): Promise<CatalogueUpload> {
  return answerOrDryRun(() =>
    db.transaction(async (tx) => {
      const current = await lockCurrentVersion(tx, PRODUCTS);
      const next = (current?.version ?? 0) + 1;
      const counts = await storeLines(tx, next, options.lines);
      const diff = await diffOf(tx, current?.version ?? 0, next);
      if (options.dryRun) throw new DryRunAnswer<CatalogueUpload>({ version: null, dry_run: true, diff });
      if (diff.in_use.accounts > 0 || diff.in_use.processes > 0)
        throw inUseRefusal('product_in_use', diff.in_use, diff.in_use_codes ?? []);
      const version = await recordVersion(tx, { registry: PRODUCTS, version: next, by: options.by, counts });
      return { version, dry_run: false, diff };
    }),
  );
}

async function storeLines(tx: Queryable, version: number, lines: AsyncIterable<string>) {
  const errors: ErrorItem[] = [];
  const productLine = new Map<string, number>();
  const tariffLine = new Map<string, number>();
  let batch: Product[] = [];
  let tariffs = 0;
  let lineNo = 0;
  const flush = async () => {
    if (batch.length > 0 && errors.length === 0) await insertBatch(tx, version, batch);
    batch = [];
  };
  for await (const raw of lines) {
    lineNo++;
    if (errors.length >= MAX_REPORTED_ERRORS || raw.trim() === '') continue;
    const read = readProductLine(raw, lineNo);
    if (!read.ok) {
      errors.push(...read.errors);
      continue;
    }
    const product = read.value;
    const first = productLine.get(product.code);
    if (first !== undefined) {
      errors.push(
        item(`${lineNo}.code`, 'repeated_product_code', `This product is given on line ${first} too.`),
      );
      continue;
    }
    productLine.set(product.code, lineNo);
    product.tariffs.forEach((tariff, i) => {
      const firstTariff = tariffLine.get(tariff.code);
      if (firstTariff !== undefined && firstTariff !== lineNo)
        errors.push(
          item(
            `${lineNo}.tariffs.${i}.code`,
            'repeated_tariff_code',
            `This tariff is listed on line ${firstTariff} too.`,
          ),
        );
      tariffLine.set(tariff.code, lineNo);
    });
    tariffs += product.tariffs.length;
    batch.push(product);
    if (batch.length >= BATCH_PRODUCTS) await flush();
  }
  await flush();
  if (errors.length > 0) {
    const lineOf = (e: ErrorItem) => Number.parseInt(e.attr, 10);
    throw validationFailed(
      'validation_error',
      errors.sort((x, y) => lineOf(x) - lineOf(y)).slice(0, MAX_REPORTED_ERRORS),
      'Some lines of the catalogue are not valid; nothing was stored.',
    );
  }
  return { products: productLine.size, tariffs };
}

async function insertBatch(tx: Queryable, version: number, batch: Product[]) {
  await tx.query(insertProducts, [version, JSON.stringify(batch)]);
  const rows = batch.flatMap((p) =>
    p.tariffs.map((t) => ({
      code: t.code,
      product_code: p.code,
      region: t.region,
      payment_method: t.payment_method,
    })),
  );
  await tx.query(insertTariffRows, [version, JSON.stringify(rows)]);
}

async function diffOf(tx: Queryable, from: number, to: number): Promise<CatalogueDiff> {
  const { rows } = await tx.query<{ code: string; change: 'added' | 'removed' | 'changed' }>(selectDiff, [
    from,
    to,
  ]);
  const diff: CatalogueDiff = {
    added: 0,
    removed: 0,
    changed: 0,
    codes: { added: [], removed: [], changed: [] },
    in_use: { accounts: 0, processes: 0 },
  };
  for (const { code, change } of rows) {
    diff[change]++;
    if (diff.codes[change].length < DIFF_LISTED) diff.codes[change].push(code);
  }
  // The first upload removes nothing: accounts imported before any catalogue keep their tariffs.
  if (from > 0) {
    const removed = (await tx.query<{ code: string }>(selectRemovedTariffs, [from, to])).rows.map(
      (r) => r.code,
    );
    diff.in_use = await countInUseOf(tx, removed, [TARIFF_CODE_PATH, ...PRODUCT_CODE_PATHS]);
    diff.in_use_codes = removed.slice(0, DIFF_LISTED);
  }
  return diff;
}

/** A page of a version's products, by code after `after`. */
export async function productsPage(
  db: Queryable,
  options: { version: number; after: string; limit: number },
): Promise<Product[]> {
  const { rows } = await db.query<{ product: Product }>(selectProductsPage, [
    options.version,
    options.after,
    options.limit,
  ]);
  return rows.map((r) => r.product);
}

/** The current catalogue whole (null: none was ever uploaded), with its version. */
export async function loadCatalogue(db: Queryable): Promise<{ version: number; products: Product[] } | null> {
  const current = await currentVersion(db, PRODUCTS);
  if (!current) return null;
  const { rows } = await db.query<{ product: Product }>(selectAllProducts, [current.version]);
  return { version: current.version, products: rows.map((r) => r.product) };
}
