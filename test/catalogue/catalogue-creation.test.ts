/**
 * After the 201 (decision 0091): the worker checks the account against the catalogue again when
 * it creates it, and counts a late refusal; the transactions endpoint refuses a supply charge on
 * a product the catalogue does not hold as a TRANSACTION_IMPORT_ERROR.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { sql } from '../../src/infra/db/db.ts';
import { dashboardSession } from '../helpers/dashboard.ts';
import { importAccounts, stageAccount } from '../helpers/imported-accounts.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';
import { exampleProducts, type Obj, regionCAccount, uploadCatalogue } from './catalogue-fixtures.ts';

const SUPPLIER = 'CATALOGUE_LATE';

describe('the catalogue after an account was accepted', () => {
  let t: TestApp;
  let headers: Record<string, string>;

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    ({ headers } = await tokenFor(t.app, [SUPPLIER]));
    assert.equal((await uploadCatalogue(t.app, exampleProducts())).status, 200);
  });
  after(() => t.close());

  const processOf = async (external: string) =>
    (
      await t.db.query<{ status: string; latest_error: Obj | null }>(
        sql('', 'SELECT status, latest_error FROM import_processes WHERE external_account_number = $1'),
        [external],
      )
    ).rows[0];

  it('fails at creation an account the changed catalogue refuses, and counts it', async () => {
    const external = await stageAccount(t, headers, regionCAccount(SUPPLIER, 1));
    // Changed, not removed (so allowed): the product is now available only after the agreement starts.
    const later = exampleProducts();
    later[0].available_from = '2020-01-01';
    assert.equal((await uploadCatalogue(t.app, later)).status, 200);
    const metrics = new Registry();
    await runWorkerUntilIdle(t.config, t.db, { metrics });
    const process = await processOf(external);
    assert.equal(process.status, 'ERRORED');
    assert.equal(process.latest_error?.code, 'catalogue_check_failed');
    assert.match(String(process.latest_error?.detail), /agreement_cannot_start_before_product_available/);
    const counted = (await metrics.getSingleMetric('ferry_worker_catalogue_refusals_total')?.get())?.values;
    assert.deepEqual(
      counted?.map((v) => [v.labels.supplier, v.value]),
      [[SUPPLIER, 1]],
    );
  });

  it('refuses a supply charge on an unknown product on the transactions endpoint', async () => {
    assert.equal((await uploadCatalogue(t.app, exampleProducts())).status, 200);
    const [external] = await importAccounts(t, headers, [regionCAccount(SUPPLIER, 2)]);
    const charge = (id: string, product: string) => ({
      transaction_id: id,
      transaction_date: '2020-01-31',
      amount: '10.00',
      type: 'SUPPLY_CHARGE',
      product_code: product,
      supply_point_identifier: '1200000000020',
      line_items: [
        {
          start_date: '2020-01-01',
          end_date: '2020-01-31',
          net_amount: '10.00',
          number_of_units: '40',
          rate_band: 'DAY',
        },
      ],
    });
    const post = (transactions: Obj[]) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/data-import/transactions/create/',
        headers,
        payload: { import_supplier: SUPPLIER, external_account_number: external, transactions },
      });
    const refused = await post([charge('sc-1', 'ELEC-1234'), charge('sc-2', 'NOPE-9')]);
    assert.equal(refused.statusCode, 400, refused.body);
    const body = refused.json();
    assert.equal(body.status, 'TRANSACTION_IMPORT_ERROR');
    assert.equal(body.code, 'product_code_does_not_exist');
    assert.equal(body.transaction_data.transaction_id, 'sc-2');
    const added = await post([charge('sc-3', 'ELEC-1234')]);
    assert.equal(added.statusCode, 201, added.body);
  });

  it('shows the catalogue on the dashboard: versions, tariffs per region, accounts per product', async () => {
    const session = await dashboardSession(t.app);
    const res = await session.get('/dashboard/catalogue/');
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, /Version 3: 2 products, 2 tariffs/);
    assert.match(res.body, /<tr data-product="ELEC-1234"><th scope="row">ELEC-1234<\/th><td>1<\/td>/);
    assert.match(res.body, /<th scope="row">C<\/th><td>PREPAYMENT<\/td><td>1<\/td>/);
    assert.match(res.body, /<tr data-list="tpr"><th scope="row">tpr<\/th><td colspan="3">none loaded/);
  });
});
