import type { PaymentInstructionType, PaymentVendor, VendorInstruction } from './payment-vendor.ts';
import {
  answeredForAnother,
  fetchVendorObject,
  notTheObjectAskedFor,
  rejection,
  type VendorConnection,
} from './vendor-http.ts';

/** Pinned so that the shape of payment methods does not change under us with the account's default. */
export const STRIPE_API_VERSION = '2024-06-20';

/** Stripe payment-method types that are direct debits (bank-account mandates). */
const DIRECT_DEBIT_TYPES = new Set([
  'bacs_debit',
  'sepa_debit',
  'au_becs_debit',
  'acss_debit',
  'us_bank_account',
]);

/** Per type, the fields identifying the instruction; no billing details (names, addresses). */
const DETAIL_FIELDS: Record<string, string[]> = {
  card: ['brand', 'last4', 'exp_month', 'exp_year', 'funding', 'country'],
  bacs_debit: ['sort_code', 'last4'],
  sepa_debit: ['bank_code', 'branch_code', 'country', 'last4'],
  au_becs_debit: ['bsb_number', 'last4'],
  acss_debit: ['bank_name', 'institution_number', 'transit_number', 'last4'],
  us_bank_account: ['bank_name', 'routing_number', 'account_type', 'last4'],
};

export interface StripeClientOptions extends VendorConnection {
  apiKey: string;
  /** For the card-expiry check. */
  now?: () => Date;
}

function instructionTypeOf(stripeType: string): PaymentInstructionType | null {
  if (stripeType === 'card') return 'CARD';
  return DIRECT_DEBIT_TYPES.has(stripeType) ? 'DIRECT_DEBIT' : null;
}

function pick(source: unknown, fields: string[]): Record<string, unknown> {
  const from = (source ?? {}) as Record<string, unknown>;
  return Object.fromEntries(fields.filter((f) => from[f] !== undefined).map((f) => [f, from[f]]));
}

/** A card is usable through the last day of its expiry month. */
function cardExpired(card: Record<string, unknown>, now: Date): boolean {
  const month = Number(card.exp_month);
  const year = Number(card.exp_year);
  if (!Number.isInteger(month) || !Number.isInteger(year)) return false;
  return now.getTime() >= Date.UTC(year, month, 1);
}

/** Cards and bank debits from Stripe: `GET /v1/payment_methods/{id}`. */
export class StripeClient implements PaymentVendor {
  readonly name = 'STRIPE' as const;
  readonly #options: StripeClientOptions;

  constructor(options: StripeClientOptions) {
    this.#options = options;
  }

  async fetchInstruction(reference: string, type: PaymentInstructionType): Promise<VendorInstruction> {
    const asked = { vendor: 'STRIPE', reference, noun: 'payment method' } as const;
    // Stripe decides whether the reference is one of its payment methods (docs/product.md, Payment vendors).
    const method = await fetchVendorObject(this.#options, {
      ...asked,
      path: (segment) => `v1/payment_methods/${segment}`,
      headers: {
        authorization: `Bearer ${this.#options.apiKey}`,
        'stripe-version': STRIPE_API_VERSION,
      },
    });

    if (typeof method.id !== 'string' || typeof method.type !== 'string') throw notTheObjectAskedFor(asked);
    if (method.id !== reference) throw answeredForAnother(asked, method.id);
    const stripeType = method.type;
    const actualType = instructionTypeOf(stripeType);
    if (actualType !== type) {
      throw rejection(
        asked,
        'payment_instruction_type_mismatch',
        `Stripe payment method ${reference} is of type ${stripeType}, which is not ${type}.`,
      );
    }
    // A payment method that is not attached to a customer cannot be charged again.
    if (typeof method.customer !== 'string' || method.customer === '') {
      throw rejection(
        asked,
        'payment_instruction_inactive',
        `Stripe payment method ${reference} is not attached to a customer.`,
      );
    }
    const typeDetails = pick(method[stripeType], DETAIL_FIELDS[stripeType] ?? []);
    if (stripeType === 'card' && cardExpired(typeDetails, this.#options.now?.() ?? new Date())) {
      throw rejection(asked, 'payment_instruction_inactive', `Stripe card ${reference} has expired.`);
    }
    return {
      vendor: 'STRIPE',
      reference,
      status: 'attached',
      active: true,
      type: actualType,
      details: {
        id: method.id,
        type: stripeType,
        customer_id: method.customer,
        created_at: typeof method.created === 'number' ? new Date(method.created * 1000).toISOString() : null,
        livemode: method.livemode === true,
        [stripeType]: typeDetails,
      },
    };
  }
}
