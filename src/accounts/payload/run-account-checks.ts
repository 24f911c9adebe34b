/**
 * Runs every domain check over a payload that may still hold structural errors. Each account-level
 * rule declares the top-level fields it reads and is skipped when one of them has the wrong type
 * (that error is already reported); rules over lists only ever see items that passed. The order
 * of the table is the order errors are reported in.
 */

import { currentReference } from '../../catalogue/reference-data.ts';
import type { CheckContext } from '../../validation/check-context.ts';
import { describeAccount } from './account-facts.ts';
import { checkAccountKindRules, checkAccountType } from './account-payload.checks.ts';
import type { AccountPayload } from './account-payload.schema.ts';
import { checkBillingAddress, checkSupplyAddresses } from './addresses/addresses.checks.ts';
import { checkBillingOptions, checkBillingRecords } from './billing/billing.checks.ts';
import { checkBusiness, checkPortfolios } from './business/business.checks.ts';
import { checkReferenceData } from './catalogue/catalogue.checks.ts';
import { checkCustomers } from './customers/customers.checks.ts';
import { checkAccountExtras, checkFit, checkNotes } from './extras/extras.checks.ts';
import { checkBillingStartKnown, checkLedgers, checkStatementHistory } from './ledgers/ledgers.checks.ts';
import { transactionGroups } from './ledgers/transaction-groups.ts';
import { checkTransactions } from './ledgers/transactions.checks.ts';
import { checkMeterPointHistory } from './meter-points/meter-point-history.checks.ts';
import { checkMeterPoint, checkSomePointOnSupply } from './meter-points/meter-points.checks.ts';
import { checkMeters } from './meters/meters.checks.ts';
import { checkPayments } from './payments/payments.checks.ts';

type AccountCheck = (ctx: CheckContext, facts: ReturnType<typeof describeAccount>) => void;

const ACCOUNT_KIND = ['account_type', 'is_managed', 'is_portfolio_lead', 'unknown_occupier'];

const ACCOUNT_CHECKS: Array<{ reads: string[]; run: AccountCheck }> = [
  { reads: ['account_type', 'is_managed', 'is_portfolio_lead'], run: checkAccountType },
  {
    reads: [
      ...ACCOUNT_KIND,
      'billing_address',
      'billing_address1',
      'billing_address2',
      'billing_address3',
      'billing_address4',
      'billing_address5',
      'billing_postcode',
    ],
    run: checkBillingAddress,
  },
  {
    reads: [...ACCOUNT_KIND, 'account_billing_options', 'next_bill_due_date', 'smart_read_cycle_day'],
    run: checkBillingOptions,
  },
  {
    reads: [
      ...ACCOUNT_KIND,
      'customers',
      'supply_addresses',
      'dd_reference',
      'debt',
      'debts',
      'payment_adequacy_changes',
      'last_payment_review_date',
      'business_type',
      'company_number',
    ],
    run: checkAccountKindRules,
  },
  { reads: ACCOUNT_KIND, run: checkPortfolios },
  { reads: [], run: checkBusiness },
  { reads: ACCOUNT_KIND, run: checkCustomers },
  { reads: [], run: checkSupplyAddresses },
  { reads: ['transfer_balance'], run: checkLedgers },
  { reads: ['payment_plans'], run: checkPayments },
  { reads: [], run: checkAccountExtras },
  { reads: [], run: checkBillingRecords },
  { reads: [], run: checkFit },
  { reads: [], run: checkNotes },
];

export function runAccountChecks(payload: AccountPayload, ctx: CheckContext): void {
  const facts = describeAccount(payload, ctx);
  for (const { reads, run } of ACCOUNT_CHECKS) {
    if (reads.every((field) => ctx.isSound(field))) run(ctx, facts);
  }
  const groups = transactionGroups(ctx, payload);
  // The reference skips the billed-date rule for accounts never billed: no statement history at all.
  const hasBillingHistory = groups.some(
    (group) =>
      group.historical.length > 0 ||
      group.closingDate !== undefined ||
      group.lastStatementBalance !== undefined,
  );
  const requireBilledDates =
    facts.lastBilledToDate === undefined && ctx.isSound('last_billed_to_date') && hasBillingHistory;
  for (const located of facts.meterPoints) {
    checkMeterPoint(ctx, facts, located);
    checkMeterPointHistory(ctx, located);
    checkMeters(ctx, facts, located, requireBilledDates);
  }
  checkSomePointOnSupply(ctx, facts);
  checkBillingStartKnown(ctx, facts, groups);
  checkTransactions(ctx, facts, groups);
  for (const group of groups) checkStatementHistory(ctx, facts, group);
  // Last: an existence check skips a value whose form check above failed.
  checkReferenceData(ctx, facts, groups, currentReference());
}

/**
 * The reference data checks alone, over a payload that passed every check once: the worker asks
 * again at creation, since the catalogue may have changed since the account was accepted.
 */
export function runReferenceChecks(payload: AccountPayload, ctx: CheckContext): void {
  const reference = currentReference();
  if (reference.tariffs === null && reference.lists.size === 0) return;
  checkReferenceData(ctx, describeAccount(payload, ctx), transactionGroups(ctx, payload), reference);
}
