/**
 * Balance arithmetic of a ledger, in exact scaled integers (see src/vocabulary/decimal.ts). Balances are from
 * the customer's side: credit positive, debit negative. Payments and credits add to the balance;
 * charges, supply charges and repayments subtract from it (the reference's rule).
 */
import { MONEY_SCALE, toScaledInteger } from '../../../vocabulary/decimal.ts';

export type TransactionType = 'CREDIT' | 'CHARGE' | 'PAYMENT' | 'REPAYMENT' | 'SUPPLY_CHARGE';

export interface BalanceTransaction {
  type: TransactionType;
  amount: string;
  to_prepay_meter_serial_number?: string;
}

/**
 * The types that add to the balance (credit positive); every other type subtracts. The one rule of
 * how a transaction moves a balance: the payload checks, the stored balance of follow-ups and the
 * waves' `transactions_net` (reconciliation.queries.ts) all read it.
 */
export const BALANCE_ADDING_TYPES: readonly TransactionType[] = ['PAYMENT', 'CREDIT'];

/** True for transactions that count towards account and ledger balances: not prepay vends. */
export function countsTowardsBalance(transaction: BalanceTransaction): boolean {
  return !transaction.to_prepay_meter_serial_number;
}

/** The signed change a transaction makes to the balance, or null if its amount is not a decimal. */
export function balanceEffect(transaction: BalanceTransaction): bigint | null {
  const amount = toScaledInteger(transaction.amount, MONEY_SCALE);
  if (amount === null) return null;
  return BALANCE_ADDING_TYPES.includes(transaction.type) ? amount : -amount;
}

/** The summed effect of the balance-counting transactions, or null if any amount is unusable. */
export function netBalanceEffect(transactions: readonly BalanceTransaction[]): bigint | null {
  let total = 0n;
  for (const transaction of transactions) {
    if (!countsTowardsBalance(transaction)) continue;
    const effect = balanceEffect(transaction);
    if (effect === null) return null;
    total += effect;
  }
  return total;
}

export interface Reconciliation {
  /** What the closing balance should be: opening plus the transactions' effect. */
  expected: bigint;
  reconciles: boolean;
}

/** Whether `opening + transactions = closing`, all amounts scaled by MONEY_SCALE. */
export function reconcileBalance(
  opening: bigint,
  transactions: readonly BalanceTransaction[],
  closing: bigint,
): Reconciliation | null {
  const effect = netBalanceEffect(transactions);
  if (effect === null) return null;
  const expected = opening + effect;
  return { expected, reconciles: expected === closing };
}
