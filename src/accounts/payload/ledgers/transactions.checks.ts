/** Rules on individual transactions and their ids, wherever they sit (account level or a ledger). */

import { type CheckContext, isFilled, type Located } from '../../../validation/check-context.ts';
import { MONEY_SCALE, toScaledInteger } from '../../../vocabulary/decimal.ts';
import type { AccountFacts, AnyMeter } from '../account-facts.ts';
import { compositeKey, findRepeatedIndexes } from '../rules/duplicates.ts';
import { periodsOverlap } from '../rules/periods.ts';
import { allTransactions, type TransactionGroup } from './transaction-groups.ts';
import type { LineItem, SupplyChargeTransaction, Transaction } from './transactions.schema.ts';

export function checkTransactions(
  ctx: CheckContext,
  facts: AccountFacts,
  groups: readonly TransactionGroup[],
): void {
  const transactions = allTransactions(groups);
  reportRepeatedIds(ctx, transactions);
  const prepaySerials = new Set<string>();
  for (const { point } of facts.meterPoints) {
    for (const meter of (point.meters ?? []) as AnyMeter[]) {
      if (meter.prepay_details !== undefined) prepaySerials.add(meter.meter_serial_number);
    }
  }
  for (const { value: transaction, path } of transactions) {
    if (transaction.transaction_date > ctx.today) {
      ctx.report(
        `${path}.transaction_date`,
        'transaction_in_future',
        'A transaction cannot be dated in the future.',
      );
    }
    const target = transaction.to_prepay_meter_serial_number;
    // Without every meter point readable, a missing serial might just be in a part we skipped.
    if (isFilled(target) && facts.supplyAddressesClean && !prepaySerials.has(target)) {
      ctx.report(
        `${path}.to_prepay_meter_serial_number`,
        'transactions_target_non_initialised_prepay_meter',
        'No meter with prepay_details has this serial number.',
      );
    }
    if (transaction.type === 'SUPPLY_CHARGE') checkSupplyCharge(ctx, transaction, path);
  }
  for (const group of groups) {
    for (const { value, path } of group.current) {
      if (isFilled(value.billing_document_identifier)) {
        ctx.report(
          `${path}.billing_document_identifier`,
          'billing_document_identifier_not_allowed_for_current_statement_transactions',
          'Only historical statement transactions carry a billing document identifier.',
        );
      }
    }
    const identified = group.historical.filter(({ value }) => isFilled(value.billing_document_identifier));
    for (const { value, path } of identified.slice(1)) {
      if (value.billing_document_identifier !== identified[0].value.billing_document_identifier) {
        ctx.report(
          `${path}.billing_document_identifier`,
          'historical_statement_billing_document_identifier_mismatch',
          'All historical statement transactions share one billing document identifier.',
        );
      }
    }
  }
  checkChargedPeriodsDoNotOverlap(ctx, transactions);
}

/**
 * The rules a list of transactions obeys by itself, wherever it comes from (the account payload,
 * a follow-up transactions request): unique ids, sound supply charges, no period charged twice.
 */
export function checkTransactionList(ctx: CheckContext, transactions: Array<Located<Transaction>>): void {
  reportRepeatedIds(ctx, transactions);
  for (const { value, path } of transactions) {
    if (value.type === 'SUPPLY_CHARGE') checkSupplyCharge(ctx, value, path);
  }
  checkChargedPeriodsDoNotOverlap(ctx, transactions);
}

function reportRepeatedIds(ctx: CheckContext, transactions: Array<Located<Transaction>>): void {
  for (const index of findRepeatedIndexes(transactions, ({ value }) => value.transaction_id)) {
    ctx.report(
      `${transactions[index].path}.transaction_id`,
      'duplicate_transaction_ids',
      'Transaction ids are unique across the whole payload.',
    );
  }
}

function checkSupplyCharge(ctx: CheckContext, charge: SupplyChargeTransaction, path: string): void {
  let total: bigint | null = 0n;
  for (const amount of [
    ...charge.line_items.map((item) => item.net_amount),
    ...(charge.tax_items ?? []).map((tax) => tax.amount),
  ]) {
    const scaled = toScaledInteger(amount, MONEY_SCALE);
    total = total === null || scaled === null ? null : total + scaled;
  }
  const amount = toScaledInteger(charge.amount, MONEY_SCALE);
  if (total !== null && amount !== null && total !== amount) {
    ctx.report(
      `${path}.amount`,
      'ledger_transaction_amount_does_not_match_with_line_item_net_amount_and_tax_amount',
      'The amount must equal the line items’ net amounts plus the tax items’ amounts.',
    );
  }
  if (
    !isFilled(charge.supply_point_identifier) &&
    charge.line_items.some((item) => isFilled(item.rate_specification_code))
  ) {
    ctx.report(
      `${path}.supply_point_identifier`,
      'supply_point_identifier_required_for_rate_specification_code',
      'Line items priced by rate_specification_code need the charge’s supply_point_identifier.',
    );
  }
  charge.line_items.forEach((item, i) => {
    checkLineItem(ctx, item, `${path}.line_items.${i}`);
  });
}

/** Half a penny, in MONEY_SCALE units: net amounts are compared with price × units to the penny. */
const HALF_PENNY = 10n ** BigInt(MONEY_SCALE - 2) / 2n;

function checkLineItem(ctx: CheckContext, item: LineItem, path: string): void {
  if (item.end_date < item.start_date) {
    ctx.report(`${path}.end_date`, 'start_date_later_than_end_date', 'end_date is before start_date.');
  }
  const specifications = (
    ['rate_band', 'rate_specification_code', 'time_series_specification_code'] as const
  ).filter((f) => isFilled(item[f]));
  if (specifications.length !== 1) {
    const where = specifications.length === 0 ? 'rate_band' : specifications[1];
    ctx.report(
      `${path}.${where}`,
      'conflicting_rate_band_specification',
      'Give exactly one of rate_band, rate_specification_code and time_series_specification_code.',
    );
  }
  if (item.units !== undefined && item.units.length !== 2) {
    ctx.report(`${path}.units`, 'line_item_units_must_be_two_values', 'units holds exactly two values.');
  }
  if (item.price_per_unit !== undefined) {
    // price has at most 7 decimal places and units 4, so their product is exact at 11; compare at MONEY_SCALE.
    const price = toScaledInteger(item.price_per_unit, 7);
    const units = toScaledInteger(item.number_of_units, 4);
    const net = toScaledInteger(item.net_amount, MONEY_SCALE);
    if (price !== null && units !== null && net !== null) {
      const product = (price * units) / 10n; // scale 11 → 10 (truncation is below the tolerance)
      const difference = product > net ? product - net : net - product;
      if (difference > HALF_PENNY) {
        ctx.report(
          `${path}.net_amount`,
          'incorrect_line_item_net_amount',
          'net_amount must equal price_per_unit × number_of_units (to the penny).',
        );
      }
    }
  }
}

/** Line items of supply charges must not charge the same supply point, product and rate twice for a day. */
function checkChargedPeriodsDoNotOverlap(
  ctx: CheckContext,
  transactions: ReadonlyArray<Located<{ type: string }>>,
): void {
  const charged = new Map<string, Array<{ from: string; to: string }>>();
  for (const { value, path } of transactions) {
    if (value.type !== 'SUPPLY_CHARGE') continue;
    const charge = value as SupplyChargeTransaction;
    charge.line_items.forEach((item, i) => {
      const rate =
        item.rate_band ?? item.rate_specification_code ?? item.time_series_specification_code ?? '';
      const key = compositeKey(charge.supply_point_identifier ?? '', charge.product_code, rate);
      const period = { from: item.start_date, to: item.end_date };
      const earlier = charged.get(key) ?? [];
      if (earlier.some((other) => periodsOverlap(other, period, 'inclusive'))) {
        ctx.report(
          `${path}.line_items.${i}.start_date`,
          'line_items_overlap_already_charged_period',
          'Another line item already charges this supply point, product and rate for part of this period.',
        );
      }
      earlier.push(period);
      charged.set(key, earlier);
    });
  }
}
