/**
 * The catalogue and code list uploads (decision 0090): streamed, all or nothing, versioned, a
 * diff before applying, and what accounts or processes use cannot vanish.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import {
  exampleProducts,
  type Obj,
  product,
  regionCAccount,
  uploadCatalogue,
  uploadList,
} from './catalogue-fixtures.ts';

const SUPPLIER = 'CATALOGUE_UP';

describe('catalogue uploads', () => {
  let t: TestApp;
  let headers: Record<string, string>;

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    ({ headers } = await tokenFor(t.app, [SUPPLIER]));
  });
  after(() => t.close());

  const page = async (query = '') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/products/${query}`,
      headers: adminHeaders,
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Obj;
  };

  it('stores nothing when one line among 20,000 is bad, and names the line and field', async () => {
    const lines: Obj[] = [];
    for (let i = 1; i <= 20_000; i++) lines.push(product(`BULK-${i}`));
    lines[12_344] = product('BULK-12345', { fuel: 'WATER' });
    const { status, body } = await uploadCatalogue(t.app, lines);
    assert.equal(status, 400, JSON.stringify(body).slice(0, 500));
    assert.deepEqual(
      body.errors.map((e: Obj) => [e.attr, e.code]),
      [['12345.fuel', 'invalid_choice']],
    );
    const after = await page();
    assert.equal(after.version, null);
    assert.deepEqual(after.products, []);
  });

  it('names a line that is not JSON, a repeated product and a tariff field', async () => {
    const { status, body } = await uploadCatalogue(t.app, [
      product('A'),
      'not json',
      product('A'),
      product('B', {
        tariffs: [{ code: 'E-B', region: 'I', payment_method: 'DIRECT_DEBIT', registers: 3, rate_bands: [] }],
      }),
    ]);
    assert.equal(status, 400);
    assert.deepEqual(
      body.errors.map((e: Obj) => `${e.attr} ${e.code}`),
      [
        '2 invalid_catalogue_line',
        '3.code repeated_product_code',
        '4.tariffs.0.registers invalid',
        '4.tariffs.0.region invalid_choice',
      ],
    );
  });

  it('refuses strings the database cannot store (a NUL, half a surrogate pair) at their line and field', async () => {
    const { status, body } = await uploadCatalogue(t.app, [
      product('N', { display_name: 'Nul\u0000name' }),
      product('S', {
        tariffs: [
          {
            code: 'E-S-C',
            region: 'C',
            payment_method: 'DIRECT_DEBIT',
            registers: 1,
            rate_bands: ['\ud800'],
          },
        ],
      }),
      product('\ud83d'),
    ]);
    assert.equal(status, 400, JSON.stringify(body));
    assert.deepEqual(
      body.errors.map((e: Obj) => `${e.attr} ${e.code}`),
      [
        '1.display_name null_characters_not_allowed',
        '2.tariffs.0.rate_bands.0 invalid_unicode',
        // The fixture names the product's display name and tariff after its code.
        '3.code invalid_unicode',
        '3.display_name invalid_unicode',
        '3.tariffs.0.code invalid_unicode',
      ],
    );
    assert.equal((await page()).version, null);
  });

  it('answers a dry run with its diff and stores nothing; an upload is a version', async () => {
    const dry = await uploadCatalogue(t.app, exampleProducts(), '?dry_run=true');
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    assert.equal(dry.body.version, null);
    assert.deepEqual(dry.body.diff.codes.added, ['ELEC-1234', 'GAS-1234']);
    assert.equal((await page()).version, null);

    const first = await uploadCatalogue(t.app, exampleProducts());
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.version.version, 1);
    assert.equal(first.body.version.uploaded_by, 'operator');
    assert.deepEqual(first.body.version.counts, { products: 2, tariffs: 2 });

    const changed = [...exampleProducts(), product('NEW')];
    changed[0].display_name = 'Renamed';
    const diff = await uploadCatalogue(t.app, changed, '?dry_run=true');
    assert.deepEqual(diff.body.diff.codes, { added: ['NEW'], removed: [], changed: ['ELEC-1234'] });
  });

  it('pages the catalogue by code, for the operator (any version) and for suppliers', async () => {
    const second = await uploadCatalogue(t.app, [...exampleProducts(), product('NEW')]);
    assert.equal(second.body.version.version, 2);
    const first = await page('?limit=2');
    assert.deepEqual(
      first.products.map((p: Obj) => p.code),
      ['ELEC-1234', 'GAS-1234'],
    );
    assert.equal(first.next_after, 'GAS-1234');
    assert.deepEqual(
      (await page('?after=GAS-1234')).products.map((p: Obj) => p.code),
      ['NEW'],
    );
    assert.equal((await page('?version=1')).products.length, 2);
    assert.deepEqual(
      (await page()).versions.map((v: Obj) => v.version),
      [2, 1],
    );
    const res = await t.app.inject({
      method: 'GET',
      url: '/v2/data-import/products/?limit=1&after=ELEC-1234',
      headers,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      res.json().products.map((p: Obj) => p.code),
      ['GAS-1234'],
    );
    assert.equal(res.json().version, 2);
  });

  it('refuses to remove a tariff a process uses (409 product_in_use with the counts), and lets it be end-dated', async () => {
    const account = regionCAccount(SUPPLIER, 1);
    const created = await t.app.inject({
      method: 'POST',
      url: '/v2/data-import/accounts/',
      headers,
      payload: account,
    });
    assert.equal(created.statusCode, 201, created.body);
    const gasOnly = exampleProducts().filter((p) => p.code !== 'ELEC-1234');
    const refused = await uploadCatalogue(t.app, gasOnly);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'product_in_use');
    assert.deepEqual([refused.body.accounts, refused.body.processes], [0, 1]);
    assert.ok(refused.body.codes.includes('ELEC-1234-J'));
    assert.equal((await page()).version.version, 2, 'nothing stored');

    const ended = exampleProducts();
    ended[0].available_to = '2030-01-01';
    const endDated = await uploadCatalogue(t.app, ended);
    assert.equal(endDated.status, 200, JSON.stringify(endDated.body));
    assert.deepEqual(endDated.body.diff.codes.removed, ['NEW']);
    assert.deepEqual(endDated.body.diff.in_use_codes, ['E-NEW-C', 'NEW']);
  });

  it('replaces a code list as a new version and lists the lists', async () => {
    const up = await uploadList(t.app, 'operations-team', ['Team A', '', 'Team B', 'Team A']);
    assert.equal(up.status, 200, JSON.stringify(up.body));
    assert.deepEqual(up.body.version.counts, { values: 2 });
    const bad = await uploadList(t.app, 'operations-team', ['ok', 'x'.repeat(300)]);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].attr, '2');
    const res = await t.app.inject({ method: 'GET', url: '/admin/v1/code-lists/', headers: adminHeaders });
    const lists = res.json() as Obj[];
    assert.equal(lists.find((l) => l.name === 'operations-team')?.version.version, 1);
    assert.equal(lists.find((l) => l.name === 'tpr')?.version, null);
    const unknown = await uploadList(t.app, 'no-such-list', ['x']);
    assert.equal(unknown.status, 404);
  });

  it('says in /readyz what is loaded', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    const body = res.json();
    assert.equal(body.catalogue.version, 3);
    assert.match(body.code_lists.tpr, /form check only/);
  });
});
