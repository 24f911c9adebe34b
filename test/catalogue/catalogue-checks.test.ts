/**
 * The checks of PRODUCT §13 once a catalogue and code lists are loaded (decision 0091), each in
 * validate, create and a bulk line: the reference's code at the reference's attr. Before any
 * upload, nothing changes (the form checks alone). The example account validates against a
 * catalogue that holds its tariffs. The checks run in a check thread here (CHECK_THREADS=1), which
 * learns each new version from the event loop.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sharedAccountCheckPool } from '../../src/accounts/account-checks.ts';
import { exampleAccount } from '../helpers/account-fixtures.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import {
  exampleProducts,
  type Obj,
  product,
  regionCAccount,
  uploadCatalogue,
  uploadList,
} from './catalogue-fixtures.ts';

const SUPPLIER = 'CATALOGUE_CHECKS';
const POINT = 'supply_addresses.0.meter_points.0';
const AGREEMENT = `${POINT}.agreements.0`;
const CURRENT = 'ledgers.0.current_statement_transactions';

/** An electricity product whose one tariff fits the example's meter point unless `tariff` says otherwise. */
const fitting = (code: string, overrides: Obj = {}, tariff: Obj = {}) =>
  product(code, {
    tariffs: [
      {
        code: `E-${code}`,
        region: 'C',
        payment_method: 'DIRECT_DEBIT',
        registers: 2,
        rate_bands: ['DAY'],
        ...tariff,
      },
    ],
    ...overrides,
  });

const CATALOGUE = [
  ...exampleProducts(),
  fitting('OLD', { available_from: '2010-01-01', available_to: '2018-01-01' }),
  fitting('LATE-VAR', { available_from: '2020-01-01', is_variable: true }),
  fitting('LATE-FIX', { available_from: '2020-01-01T00:00:00Z', is_variable: false }),
  fitting('ENDING', { available_to: '2035-01-01' }),
  fitting('PREPAY', {}, { payment_method: 'PREPAYMENT' }),
  fitting('ONE-REGISTER', {}, { registers: 1 }),
  fitting('REGION-A', {}, { region: 'A' }),
];

const supplyCharge = (changes: Obj = {}) => ({
  type: 'SUPPLY_CHARGE',
  transaction_id: 'sc-1',
  transaction_date: '2019-08-06',
  amount: '12.00',
  product_code: 'ELEC-1234',
  supply_point_identifier: '1200060176720',
  line_items: [
    {
      start_date: '2019-08-01',
      end_date: '2019-08-10',
      net_amount: '10.00',
      number_of_units: '40',
      price_per_unit: '0.25',
      rate_band: 'DAY',
    },
  ],
  tax_items: [
    { amount: '2.00', rate: '0.2', tax_type: 'VAT', unit_type: 'PROPORTION', value_taxed: '10.00' },
  ],
  ...changes,
});
/** Adds the supply charge and a payment cancelling it, so the ledger still reconciles. */
function withCharge(a: Obj, charge: Obj) {
  a.ledgers[0].current_statement_transactions.push(charge, {
    type: 'PAYMENT',
    transaction_id: 'p-9',
    transaction_date: '2019-08-07',
    amount: charge.amount,
  });
}

interface Case {
  rejects: string;
  change: (a: Obj) => void;
  code: string;
  attr: string;
}

const elecAgreement = (a: Obj) => a.supply_addresses[0].meter_points[0].agreements[0];

const CASES: Case[] = [
  {
    rejects: 'a tariff no product lists',
    change: (a) => {
      elecAgreement(a).tariff_code = 'E-1R-NOTREAL-99-01-01-Z';
    },
    code: 'tariff_code_not_found',
    attr: `${AGREEMENT}.tariff_code`,
  },
  {
    rejects: 'a tariff withdrawn before the agreement starts',
    change: (a) => {
      elecAgreement(a).tariff_code = 'E-OLD';
    },
    code: 'tariff_code_not_found',
    attr: `${AGREEMENT}.tariff_code`,
  },
  {
    rejects: 'an agreement starting before its variable product is available',
    change: (a) => {
      elecAgreement(a).tariff_code = 'E-LATE-VAR';
    },
    code: 'agreement_effective_from_before_product_available_from',
    attr: AGREEMENT,
  },
  {
    rejects: 'an agreement starting before its fixed product is available',
    change: (a) => {
      elecAgreement(a).tariff_code = 'E-LATE-FIX';
    },
    code: 'agreement_cannot_start_before_product_available',
    attr: AGREEMENT,
  },
  {
    rejects: 'an open-ended agreement on an end-dated product',
    change: (a) => {
      elecAgreement(a).tariff_code = 'E-ENDING';
    },
    code: 'open_ended_agreement_for_end_dated_product',
    attr: AGREEMENT,
  },
  {
    rejects: 'a prepayment tariff on a credit meter',
    change: (a) => {
      elecAgreement(a).tariff_code = 'E-PREPAY';
    },
    code: 'tariff_type_does_not_match_meter_type',
    attr: AGREEMENT,
  },
  {
    rejects: 'a one-register tariff on a two-register meter',
    change: (a) => {
      elecAgreement(a).tariff_code = 'E-ONE-REGISTER';
    },
    code: 'tariff_type_does_not_match_meter_point_type',
    attr: AGREEMENT,
  },
  {
    rejects: 'a gas tariff on an electricity meter point',
    change: (a) => {
      elecAgreement(a).tariff_code = 'GAS-1234-J';
    },
    code: 'tariff_type_does_not_match_meter_point_type',
    attr: AGREEMENT,
  },
  {
    rejects: "a tariff of another region than the MPAN's distributor",
    change: (a) => {
      elecAgreement(a).tariff_code = 'E-REGION-A';
    },
    code: 'tariff_region_does_not_match_meter_point',
    attr: AGREEMENT,
  },
  {
    rejects: 'a rate override on a band the tariff does not list',
    change: (a) => {
      elecAgreement(a).rate_overrides = [{ rate_band: 'PEAK', unit_price: '0.3' }];
    },
    code: 'rate_band_does_not_exist',
    attr: AGREEMENT,
  },
  {
    rejects: 'a supply charge on a product the catalogue does not hold',
    change: (a) => withCharge(a, supplyCharge({ product_code: 'NOPE-1' })),
    code: 'product_code_does_not_exist',
    attr: `${CURRENT}.2.product_code`,
  },
  {
    rejects: "a supply charge line item on a band its product's tariffs do not list",
    change: (a) =>
      withCharge(a, supplyCharge({ line_items: [{ ...supplyCharge().line_items[0], rate_band: 'PEAK' }] })),
    code: 'rate_band_does_not_exist',
    attr: `${CURRENT}.2.line_items.0.rate_band`,
  },
  {
    rejects: 'a TPR the tpr list lacks',
    change: (a) => {
      a.supply_addresses[0].meter_points[0].meters[0].registers[1].tpr = '00099';
    },
    code: 'tpr_not_found',
    attr: `${POINT}.meters.0.registers.1.tpr`,
  },
  {
    rejects: 'an operations team the list lacks',
    change: (a) => {
      a.operations_team_name = 'Nobody';
    },
    code: 'operations_team_name_does_not_exist',
    attr: 'operations_team_name',
  },
  {
    rejects: 'a PSR description the list lacks',
    change: (a) => {
      a.customers[0].psr[0].description = 'Unheard of';
    },
    code: 'psr_record_description_not_found',
    attr: 'customers.0.psr.0.description',
  },
  {
    rejects: 'a dunning path the list lacks',
    change: (a) => {
      a.dunning_path.path_name = 'no_such_path';
    },
    code: 'dunning_path_not_found',
    attr: 'dunning_path',
  },
  {
    rejects: 'a campaign the list lacks',
    change: (a) => {
      a.account_campaigns[0].slug = 'other_campaign';
    },
    code: 'campaign_not_found',
    attr: 'account_campaigns.0',
  },
];

describe('the account checks against the catalogue and code lists', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let n = 0;

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000', CHECK_THREADS: '1' });
    ({ headers } = await tokenFor(t.app, [SUPPLIER]));
  });
  after(() => t.close());

  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers, payload: payload as Obj });
  const account = () => regionCAccount(SUPPLIER, ++n);

  it('changes nothing before any upload: an unknown tariff has its form check only', async () => {
    const a = account();
    elecAgreement(a).tariff_code = 'E-1R-NOTREAL-99-01-01-Z';
    a.operations_team_name = 'Anyone';
    const res = await post('/v2/data-import/accounts/validate/', a);
    assert.equal(res.statusCode, 200, res.body);
  });

  it('validates the example account against a catalogue that holds its tariffs', async () => {
    assert.equal((await uploadCatalogue(t.app, CATALOGUE)).status, 200);
    for (const [name, values] of [
      ['tpr', ['00001', '00043']],
      ['operations-team', ['Ops']],
      ['psr-description', ['Blind']],
      ['dunning-path', ['standard_domestic']],
      ['campaign', ['super_account']],
    ] as const) {
      assert.equal((await uploadList(t.app, name, [...values])).status, 200);
    }
    const inThreads = sharedAccountCheckPool(1).checksInThreads;
    const example = exampleAccount();
    example.import_supplier = SUPPLIER;
    const res = await post('/v2/data-import/accounts/validate/', example);
    assert.equal(res.statusCode, 200, res.body);
    const charged = account();
    withCharge(charged, supplyCharge());
    const withSupplyCharge = await post('/v2/data-import/accounts/validate/', charged);
    assert.equal(withSupplyCharge.statusCode, 200, withSupplyCharge.body);
    assert.ok(
      sharedAccountCheckPool(1).checksInThreads > inThreads,
      'the check thread answered, with the new data',
    );
  });

  for (const c of CASES) {
    it(`refuses ${c.rejects} (${c.code} at ${c.attr}) in validate, create and a bulk line`, async () => {
      const a = account();
      c.change(a);
      const expect = (body: Obj, where: string) =>
        assert.ok(
          body.errors?.some((e: Obj) => e.code === c.code && e.attr === c.attr),
          `${where}: ${JSON.stringify(body)}`,
        );
      const validated = await post('/v2/data-import/accounts/validate/', a);
      assert.equal(validated.statusCode, 400, validated.body);
      expect(validated.json(), 'validate');
      const created = await post('/v2/data-import/accounts/', a);
      assert.equal(created.statusCode, 400, created.body);
      expect(created.json(), 'create');
      const bulk = await post('/v2/data-import/accounts/bulk/', [account(), a]);
      assert.equal(bulk.statusCode, 200, bulk.body);
      const [ok, refused] = bulk.json().results;
      assert.equal(ok.status, 201, JSON.stringify(ok));
      assert.equal(refused.status, 400);
      expect(refused.body, 'bulk line');
    });
  }
});
