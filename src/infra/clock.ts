const formatters = new Map<string, Intl.DateTimeFormat>();
/** The last answer per time zone, good for the rest of its minute. */
const lastAnswer = new Map<string, { from: number; value: string }>();
const MINUTE_MS = 60_000;

/**
 * The calendar date (YYYY-MM-DD) of an instant in a time zone. Every zone's offset is a whole
 * number of minutes, so the date changes only on a minute boundary: one Intl call per minute.
 */
export function localDate(at: Date, timeZone: string): string {
  const ms = at.getTime();
  const from = Math.floor(ms / MINUTE_MS) * MINUTE_MS;
  const last = lastAnswer.get(timeZone);
  if (last?.from === from) return last.value;
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  const value = f.format(at);
  lastAnswer.set(timeZone, { from, value });
  return value;
}
