/**
 * What the dashboard's catalogue page shows beside the versions: the current version's tariffs per
 * region and payment method, how many accounts use each product, and the tariffs accounts use
 * that the catalogue does not hold (accounts imported before any catalogue keep their tariffs).
 */
import { type Queryable, sql } from '../infra/db/db.ts';

/** Rows a table of the page lists at most. */
const SHOWN = 200;

const tariffsPerRegion = sql(
  'selectCatalogueTariffsPerRegion',
  `SELECT region, payment_method, count(*)::int AS tariffs FROM catalogue_tariffs
    WHERE version = $1 GROUP BY region, payment_method ORDER BY region, payment_method`,
);
const accountsPerProduct = sql(
  'selectCatalogueAccountsPerProduct',
  `SELECT t.product_code, count(DISTINCT mp.account_id)::int AS accounts
     FROM agreements a
     JOIN meter_points mp ON mp.id = a.meter_point_id
     JOIN catalogue_tariffs t ON t.version = $1 AND t.code = a.tariff_code
    GROUP BY t.product_code ORDER BY accounts DESC, t.product_code LIMIT $2`,
);
const tariffsNotInCatalogue = sql(
  'selectTariffsNotInCatalogue',
  `SELECT a.tariff_code, count(DISTINCT mp.account_id)::int AS accounts
     FROM agreements a
     JOIN meter_points mp ON mp.id = a.meter_point_id
    WHERE a.tariff_code IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM catalogue_tariffs t WHERE t.version = $1 AND t.code = a.tariff_code)
    GROUP BY a.tariff_code ORDER BY accounts DESC, a.tariff_code LIMIT $2`,
);

export interface CataloguePageFacts {
  perRegion: Array<{ region: string; payment_method: string; tariffs: number }>;
  perProduct: Array<{ product_code: string; accounts: number }>;
  notInCatalogue: Array<{ tariff_code: string; accounts: number }>;
}

export async function cataloguePageFacts(db: Queryable, version: number): Promise<CataloguePageFacts> {
  const [perRegion, perProduct, notInCatalogue] = await Promise.all([
    db.query<CataloguePageFacts['perRegion'][number]>(tariffsPerRegion, [version]),
    db.query<CataloguePageFacts['perProduct'][number]>(accountsPerProduct, [version, SHOWN]),
    db.query<CataloguePageFacts['notInCatalogue'][number]>(tariffsNotInCatalogue, [version, SHOWN]),
  ]);
  return { perRegion: perRegion.rows, perProduct: perProduct.rows, notInCatalogue: notInCatalogue.rows };
}
