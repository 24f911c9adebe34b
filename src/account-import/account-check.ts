/**
 * The payload rules of interface 4.5, shared by validate and create, as one pure function of the
 * body and the clock: the same answer whether it runs on the event loop or in a check thread
 * (account-check-pool.ts, for validate). The supplier's existence and state are the caller's.
 */
import { parseAccountRequest } from '../accounts/payload/account-request.ts';
import type { ErrorItem } from '../errors/error-items.ts';
import { localDate } from '../infra/clock.ts';

/** What the validate endpoint needs of a check. */
export interface Verdict {
  errors: ErrorItem[];
  /** The supplier code the body names, if it names one. */
  code: string | null;
}

export interface Checked extends Verdict {
  parsed: ReturnType<typeof parseAccountRequest>;
}

/** When a check runs: today in the service time zone, and the instant the request is handled. */
export interface CheckClock {
  today: string;
  nowMs: number;
}

export function clockIn(timeZone: string): CheckClock {
  const now = new Date();
  return { today: localDate(now, timeZone), nowMs: now.getTime() };
}

export function check(body: unknown, clock: CheckClock): Checked {
  const parsed = parseAccountRequest(body, { today: clock.today, now: new Date(clock.nowMs) });
  const errors = parsed.ok ? [] : [...parsed.errors];
  const code = parsed.ok ? parsed.payload.import_supplier : importSupplierOf(body);
  return { errors, parsed, code: typeof code === 'string' ? code : null };
}

/** `check`'s verdict alone: what the validate endpoint answers from, and all a check thread sends back. */
export function verdictOf(body: unknown, clock: CheckClock): Verdict {
  const { errors, code } = check(body, clock);
  return { errors, code };
}

function importSupplierOf(body: unknown): unknown {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const inner = b.payload && typeof b.payload === 'object' ? (b.payload as Record<string, unknown>) : b;
  return inner.import_supplier;
}
