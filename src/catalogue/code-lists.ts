/**
 * The code lists: the registries other than the catalogue that the reference checks existence
 * against, one table for all of them (decision 0091 says which registry checks are form only and
 * which become existence checks once a list is uploaded). Each list names where its values occur
 * in the account payload (`[]` for every item of a list) and where a value it lacks is reported
 * (`attr`, the value's own path unless the reference reports at the object). The account checks
 * walk these paths; the in-use count of an upload reads the same paths in the stored payloads.
 */
import type { ItemCode } from '../errors/item-codes.ts';

export interface CodeListPlace {
  /** The value's path: `customers[].psr[].description`. */
  value: string;
  /** Where a missing value is reported, a prefix of `value`; default: `value`. */
  attr?: string;
}

export interface CodeList {
  name: string;
  code: ItemCode;
  /** What a value is, for details: "operations team". */
  noun: string;
  places: readonly CodeListPlace[];
}

export const CODE_LISTS: readonly CodeList[] = [
  {
    name: 'tpr',
    code: 'tpr_not_found',
    noun: 'time pattern regime',
    places: [{ value: 'supply_addresses[].meter_points[].meters[].registers[].tpr' }],
  },
  {
    name: 'operations-team',
    code: 'operations_team_name_does_not_exist',
    noun: 'operations team',
    places: [{ value: 'operations_team_name' }],
  },
  {
    name: 'psr-description',
    code: 'psr_record_description_not_found',
    noun: 'PSR description',
    places: [{ value: 'customers[].psr[].description' }],
  },
  {
    name: 'dunning-path',
    code: 'dunning_path_not_found',
    noun: 'dunning path',
    places: [{ value: 'dunning_path.path_name', attr: 'dunning_path' }],
  },
  {
    name: 'campaign',
    code: 'campaign_not_found',
    noun: 'campaign',
    places: [
      { value: 'account_campaigns[].slug', attr: 'account_campaigns[]' },
      { value: 'account_campaigns[].campaign_name', attr: 'account_campaigns[]' },
    ],
  },
  {
    name: 'ledger-code',
    code: 'ledger_code_does_not_exist',
    noun: 'ledger code',
    places: [
      { value: 'payment_adequacy_changes[].ledger.ledger_code' },
      { value: 'payment_instructions[].ledger_code' },
      { value: 'payment_schedules[].ledger_code' },
    ],
  },
  {
    name: 'partner-organisation',
    code: 'partner_organisation_does_not_exist',
    noun: 'partner organisation',
    places: [{ value: 'partner_organisations[].organisation_number' }],
  },
  {
    name: 'affiliate-organisation',
    code: 'affiliate_organisation_does_not_exist',
    noun: 'affiliate organisation',
    places: [{ value: 'commission_contracts[].affiliate_organisation_name' }],
  },
  {
    name: 'payment-plan-strategy',
    code: 'payment_plan_strategy_does_not_exist',
    noun: 'payment plan strategy',
    places: [{ value: 'payment_plans[].strategy_name' }],
  },
];

export const CODE_LIST_NAMES = CODE_LISTS.map((list) => list.name);

export const codeListNamed = (name: string): CodeList | undefined => CODE_LISTS.find((l) => l.name === name);

/** A place as a SQL/JSON path over a stored payload: `a[].b` → `$.a[*].b` (lax: absent parts yield nothing). */
export function jsonPathOf(place: string): string {
  return `$.${place.replaceAll('[]', '[*]')}`;
}

/** The paths of the catalogue's codes in a payload, for the in-use count. */
export const TARIFF_CODE_PATH = '$.supply_addresses[*].meter_points[*].agreements[*].tariff_code';
export const PRODUCT_CODE_PATHS = [
  '$.current_statement_transactions[*] ? (@.type == "SUPPLY_CHARGE").product_code',
  '$.historical_statement_transactions[*] ? (@.type == "SUPPLY_CHARGE").product_code',
  '$.ledgers[*].current_statement_transactions[*] ? (@.type == "SUPPLY_CHARGE").product_code',
  '$.ledgers[*].historical_statement_transactions[*] ? (@.type == "SUPPLY_CHARGE").product_code',
];
