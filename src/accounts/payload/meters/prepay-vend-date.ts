import { addDays } from '../../../vocabulary/calendar-date.ts';

/**
 * A prepay meter's transfer vend read date is taken on the last billed to date or the day before
 * it: the reference's text says "the day before", its check says "match", so both are accepted
 * (docs/product.md, Account payload).
 */
export function isAcceptedTransferVendReadDate(vendReadDate: string, lastBilledToDate: string): boolean {
  return vendReadDate === lastBilledToDate || vendReadDate === addDays(lastBilledToDate, -1);
}
