import { addDays } from '../../../vocabulary/calendar-date.ts';

/**
 * Ordering and continuity of date periods. The payload mixes two conventions, so every function
 * takes `endIs`: an `inclusive` end is the period's last day (AQ history, line items), an
 * `exclusive` end is the first day after it (agreements, commission contracts).
 */

export type EndConvention = 'inclusive' | 'exclusive';

export interface DatePeriod {
  from: string;
  /** null or undefined: open-ended. */
  to?: string | null;
}

/** `from` is not after `to` (or strictly before it, when `strict`). Open-ended periods are ordered. */
export function isOrderedPeriod(
  from: string,
  to: string | null | undefined,
  options = { strict: false },
): boolean {
  if (to === null || to === undefined) return true;
  return options.strict ? from < to : from <= to;
}

/** The last day a period covers, or null when open-ended. */
function lastDay(period: DatePeriod, endIs: EndConvention): string | null {
  if (period.to === null || period.to === undefined) return null;
  return endIs === 'inclusive' ? period.to : addDays(period.to, -1);
}

/** True when the period covers `date`. */
export function coversDate(period: DatePeriod, date: string, endIs: EndConvention): boolean {
  const last = lastDay(period, endIs);
  return period.from <= date && (last === null || date <= last);
}

/** True when the two periods share at least one day. */
export function periodsOverlap(a: DatePeriod, b: DatePeriod, endIs: EndConvention): boolean {
  const aLast = lastDay(a, endIs);
  const bLast = lastDay(b, endIs);
  return (aLast === null || b.from <= aLast) && (bLast === null || a.from <= bLast);
}

export interface SequenceBreak {
  /** Index (in the input) of the period that does not follow on from its predecessor. */
  index: number;
  kind: 'gap' | 'overlap';
}

/**
 * Where periods, taken in start order, fail to follow on from each other: each must start the
 * day after the last day covered so far. Anything after an open-ended period overlaps it.
 */
export function findSequenceBreaks(periods: readonly DatePeriod[], endIs: EndConvention): SequenceBreak[] {
  const order = periods
    .map((_, index) => index)
    .sort((a, b) => compareStrings(periods[a].from, periods[b].from));
  const breaks: SequenceBreak[] = [];
  // The last day covered by the periods seen so far; null once an open-ended one was seen.
  let coveredUntil: string | null = order.length > 0 ? lastDay(periods[order[0]], endIs) : null;
  for (let k = 1; k < order.length; k++) {
    const period = periods[order[k]];
    if (coveredUntil === null || period.from <= coveredUntil)
      breaks.push({ index: order[k], kind: 'overlap' });
    else if (period.from !== addDays(coveredUntil, 1)) breaks.push({ index: order[k], kind: 'gap' });
    const last = lastDay(period, endIs);
    if (coveredUntil !== null)
      coveredUntil = last === null ? null : last > coveredUntil ? last : coveredUntil;
  }
  return breaks;
}

/** Indexes of periods that share a day with an earlier-starting period of the list. */
export function findOverlaps(periods: readonly DatePeriod[], endIs: EndConvention): number[] {
  return findSequenceBreaks(periods, endIs)
    .filter((b) => b.kind === 'overlap')
    .map((b) => b.index);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
