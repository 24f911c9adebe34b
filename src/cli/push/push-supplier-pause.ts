/**
 * `ferry push accounts` around a supplier whose migration the operator paused: the service
 * refuses new accounts (`import_supplier_paused`) and its worker leaves the scheduled ones waiting
 * until the supplier is resumed. Such a refusal is about the supplier, not the account, so it is
 * never reported: the push says once that the supplier is paused, then tries again with capped
 * exponential backoff until it is resumed, or, with --no-wait, stops (exit 2) and a re-run sends
 * what was refused. While polling, an account that has stopped moving makes the push read the
 * supplier's status (GET SUPPLIER_PATH) to tell a pause from a slow worker.
 */
import { asObject } from './push-account-lines.ts';
import { PushAbort, type PushSession } from './push-session.ts';

/** The supplier-facing status endpoint, as /openapi.json lists it. */
export const SUPPLIER_PATH = '/v2/data-import/suppliers/{import_supplier_code}/';

export const PAUSED_CODE = 'import_supplier_paused';

/** Whether an answer to a create request is the refusal of a paused supplier. */
export const isPauseRefusal = (status: number, body: unknown) =>
  status === 400 && asObject(body)?.code === PAUSED_CODE;

export interface PauseTiming {
  /** The first wait after a refusal, doubled after each refusal up to maxMs. */
  baseMs: number;
  maxMs: number;
  /** How long nothing becomes final, with accounts outstanding, before the supplier is read. */
  stallMs: number;
}

/**
 * stallMs: a pause the service tells no refusal of (everything sent) shows within about 3 s; a
 * slow worker costs one supplier status request per 3 s of nothing final.
 */
export const DEFAULT_PAUSE_TIMING: PauseTiming = { baseMs: 1_000, maxMs: 30_000, stallMs: 3_000 };

interface Held {
  attempt: number;
  /** When the next try may go out (ms). */
  nextAt: number;
}

export class SupplierPauses {
  readonly #held = new Map<string, Held>();

  constructor(
    readonly options: {
      session: PushSession;
      timing: PauseTiming;
      /** --no-wait: a pause stops the run (exit 2) instead. */
      noWait: boolean;
      warn: (line: string) => void;
    },
  ) {}

  /** Suppliers known to be paused now (for the progress line). */
  paused(): string[] {
    return [...this.#held.keys()];
  }

  /**
   * The supplier is paused (a refusal, or its status said so): told once, then waits until the
   * next try is due. Every caller held by one supplier shares its backoff: the first to try again
   * after a wait, and be refused again, doubles it.
   */
  async hold(supplier: string): Promise<void> {
    const { timing, noWait, warn, session } = this.options;
    const now = Date.now();
    let held = this.#held.get(supplier);
    if (!held) {
      if (noWait) {
        throw new PushAbort(
          `supplier ${supplier} is paused: the service takes no accounts of it until it is resumed ` +
            '(--no-wait); nothing it refused is in the report',
        );
      }
      warn(`supplier ${supplier} is paused; waiting for it to resume (Ctrl-C to stop; a re-run carries on)`);
      held = { attempt: 0, nextAt: now + timing.baseMs };
      this.#held.set(supplier, held);
    } else if (now >= held.nextAt) {
      held.attempt++;
      held.nextAt = now + Math.min(timing.maxMs, timing.baseMs * 2 ** held.attempt);
    }
    await session.wait(held.nextAt - now);
  }

  /** An answer showed the supplier going again. */
  going(supplier: string): void {
    if (this.#held.delete(supplier))
      this.options.warn(`supplier ${supplier} is no longer paused; carrying on`);
  }

  /** The supplier's status as the service answers it; null when it cannot tell (an older service). */
  async statusOf(supplier: string): Promise<string | null> {
    const { session } = this.options;
    const path = `/v2/data-import/suppliers/${encodeURIComponent(supplier)}/`;
    const answer = await session.request(session.raw(path, { method: 'GET' }));
    const status = asObject(answer.body)?.status;
    return answer.status === 200 && typeof status === 'string' ? status : null;
  }

  /**
   * Reads the supplier's status (polling found nothing moving): a paused supplier holds the
   * caller as a refusal does; a Complete one will never create what is left, so the run stops.
   */
  async check(supplier: string): Promise<void> {
    const status = await this.statusOf(supplier);
    if (status === 'Paused') return this.hold(supplier);
    if (status === 'Complete') {
      throw new PushAbort(
        `supplier ${supplier} is Complete: the service creates none of its accounts still scheduled`,
      );
    }
    if (status === 'Ongoing') this.going(supplier);
  }
}
