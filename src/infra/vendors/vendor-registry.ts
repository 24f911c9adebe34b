import type { FerryConfig } from '../../config.ts';
import { GoCardlessClient } from './gocardless-client.ts';
import {
  PAYMENT_VENDOR_NAMES,
  type PaymentInstructionType,
  type PaymentVendor,
  type PaymentVendorName,
  type VendorInstruction,
  VendorRejection,
} from './payment-vendor.ts';
import { StripeClient } from './stripe-client.ts';
import { VENDOR_LABELS } from './vendor-http.ts';

export interface PaymentVendors {
  get(name: PaymentVendorName): PaymentVendor;
}

export interface PaymentVendorsOptions {
  /** Limit on one vendor call. Default: a third of the request timeout, at most 10 s. */
  timeoutMs?: number;
  /** For tests: a fetch that counts or fails calls. */
  fetch?: typeof fetch;
  now?: () => Date;
}

type VendorConfig = Pick<FerryConfig, 'gocardless' | 'stripe' | 'requestTimeoutMs'>;

/**
 * A vendor whose credentials are not set. Its answer is a permanent rejection, not
 * `vendor_unavailable`: a supplier told to retry would retry for ever, and nothing changes until
 * the operator configures the vendor (see docs/decisions/0031-vendors-error-codes.md).
 */
class UnconfiguredVendor implements PaymentVendor {
  constructor(readonly name: PaymentVendorName) {}

  async fetchInstruction(reference: string, _type: PaymentInstructionType): Promise<VendorInstruction> {
    throw new VendorRejection({
      vendor: this.name,
      code: 'vendor_not_configured',
      reference,
      detail: `Payment vendor ${VENDOR_LABELS[this.name]} is not configured on this service.`,
    });
  }
}

/** Well under the request timeout, so that a slow vendor still leaves time to answer 500. */
export function defaultVendorTimeoutMs(requestTimeoutMs: number): number {
  return Math.max(1, Math.min(10_000, Math.floor(requestTimeoutMs / 3)));
}

/** One client per vendor from configuration; vendors without credentials answer `vendor_not_configured`. */
export function createPaymentVendors(
  config: VendorConfig,
  options: PaymentVendorsOptions = {},
): PaymentVendors {
  const timeoutMs = options.timeoutMs ?? defaultVendorTimeoutMs(config.requestTimeoutMs);
  const vendors: Record<PaymentVendorName, PaymentVendor> = {
    GOCARDLESS: config.gocardless.accessToken
      ? new GoCardlessClient({
          apiUrl: config.gocardless.apiUrl,
          accessToken: config.gocardless.accessToken,
          timeoutMs,
          fetch: options.fetch,
        })
      : new UnconfiguredVendor('GOCARDLESS'),
    STRIPE: config.stripe.apiKey
      ? new StripeClient({
          apiUrl: config.stripe.apiUrl,
          apiKey: config.stripe.apiKey,
          timeoutMs,
          fetch: options.fetch,
          now: options.now,
        })
      : new UnconfiguredVendor('STRIPE'),
  };
  return {
    get(name) {
      if (!PAYMENT_VENDOR_NAMES.includes(name))
        throw new Error(`unknown payment vendor ${JSON.stringify(name)}`);
      return vendors[name];
    },
  };
}
