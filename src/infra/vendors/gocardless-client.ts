import type { PaymentInstructionType, PaymentVendor, VendorInstruction } from './payment-vendor.ts';
import {
  answeredForAnother,
  fetchVendorObject,
  notTheObjectAskedFor,
  rejection,
  type VendorConnection,
} from './vendor-http.ts';

/** The API version we speak; GoCardless requires the header on every request. */
export const GOCARDLESS_API_VERSION = '2015-07-06';

/** Mandates in these states can never collect again; GoCardless requires a new mandate. */
export const GOCARDLESS_ENDED_STATUSES = new Set(['cancelled', 'failed', 'expired', 'consumed', 'blocked']);
/** States that lead to (or are) collecting payments. Any other known or future status is kept as not active. */
export const GOCARDLESS_ACTIVE_STATUSES = new Set([
  'pending_customer_approval',
  'pending_submission',
  'submitted',
  'active',
]);

export interface GoCardlessClientOptions extends VendorConnection {
  accessToken: string;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Direct-debit mandates from GoCardless: `GET /mandates/{id}`. */
export class GoCardlessClient implements PaymentVendor {
  readonly name = 'GOCARDLESS' as const;
  readonly #options: GoCardlessClientOptions;

  constructor(options: GoCardlessClientOptions) {
    this.#options = options;
  }

  async fetchInstruction(reference: string, type: PaymentInstructionType): Promise<VendorInstruction> {
    const asked = { vendor: 'GOCARDLESS', reference, noun: 'mandate' } as const;
    // GoCardless only holds direct-debit mandates; a card can never be one, so do not ask.
    if (type !== 'DIRECT_DEBIT') {
      throw rejection(
        asked,
        'payment_instruction_type_mismatch',
        `GoCardless holds direct-debit mandates, not ${type}.`,
      );
    }
    // GoCardless decides whether the reference is one of its mandates (docs/product.md, Payment vendors).
    const body = await fetchVendorObject(this.#options, {
      ...asked,
      path: (segment) => `mandates/${segment}`,
      headers: {
        authorization: `Bearer ${this.#options.accessToken}`,
        'gocardless-version': GOCARDLESS_API_VERSION,
      },
    });

    const mandate = body.mandates as Record<string, unknown> | undefined;
    const status = text(mandate?.status);
    if (!mandate || typeof mandate !== 'object' || typeof mandate.id !== 'string' || status === null) {
      throw notTheObjectAskedFor(asked);
    }
    if (mandate.id !== reference) throw answeredForAnother(asked, mandate.id);
    if (GOCARDLESS_ENDED_STATUSES.has(status)) {
      throw rejection(asked, 'payment_instruction_inactive', `GoCardless mandate ${reference} is ${status}.`);
    }
    const links = (mandate.links ?? {}) as Record<string, unknown>;
    return {
      vendor: 'GOCARDLESS',
      reference,
      status,
      active: GOCARDLESS_ACTIVE_STATUSES.has(status),
      type: 'DIRECT_DEBIT',
      details: {
        id: mandate.id,
        status,
        scheme: text(mandate.scheme),
        reference: text(mandate.reference),
        created_at: text(mandate.created_at),
        next_possible_charge_date: text(mandate.next_possible_charge_date),
        payments_require_approval: mandate.payments_require_approval === true,
        customer_id: text(links.customer),
        customer_bank_account_id: text(links.customer_bank_account),
        creditor_id: text(links.creditor),
      },
    };
  }
}
