/**
 * Payment vendors hold the direct-debit mandates and card payment methods that suppliers bring
 * with their accounts. Creating a payment instruction fetches it from its vendor to check it
 * exists, is usable and is of the declared type, and to store its details (docs/product.md,
 * Payment vendors).
 *
 * A failure is one of two kinds, and the difference is what the supplier must do next:
 * - VendorRejection: permanent. Retrying the same request cannot succeed. → 400 with `code`.
 * - VendorUnavailable: transient. The same request may succeed later. → 500 `vendor_unavailable`.
 * The codes are explained in docs/decisions/0031-vendors-error-codes.md.
 */

export const PAYMENT_VENDOR_NAMES = ['GOCARDLESS', 'STRIPE'] as const;
export type PaymentVendorName = (typeof PAYMENT_VENDOR_NAMES)[number];

export const PAYMENT_INSTRUCTION_TYPES = ['DIRECT_DEBIT', 'CARD'] as const;
export type PaymentInstructionType = (typeof PAYMENT_INSTRUCTION_TYPES)[number];

/** An instruction as its vendor describes it, reduced to what we store. */
export interface VendorInstruction {
  vendor: PaymentVendorName;
  reference: string;
  /** The vendor's own status word (GoCardless mandate status; `attached` for Stripe). */
  status: string;
  /** Whether payments can be collected with it now; see 0031-vendors-error-codes.md for each vendor. */
  active: boolean;
  type: PaymentInstructionType;
  /** The vendor fields worth keeping (ids, scheme, card brand/last4/expiry…), never credentials. */
  details: Record<string, unknown>;
}

export interface PaymentVendor {
  readonly name: PaymentVendorName;
  /** Resolves with the instruction, or rejects with VendorRejection or VendorUnavailable. */
  fetchInstruction(reference: string, type: PaymentInstructionType): Promise<VendorInstruction>;
}

export type VendorRejectionCode =
  | 'invalid_payment_instruction_reference'
  | 'payment_instruction_not_found'
  | 'payment_instruction_invalid'
  | 'payment_instruction_inactive'
  | 'payment_instruction_type_mismatch'
  | 'payment_instruction_reference_mismatch'
  | 'vendor_authentication_failed'
  | 'vendor_not_configured';

/** The vendor said no, for good: the request must change (or the operator must act) first. */
export class VendorRejection extends Error {
  readonly vendor: PaymentVendorName;
  readonly code: VendorRejectionCode;
  readonly reference: string;
  /** The vendor's HTTP status, when the rejection came from an answer (for logs). */
  readonly vendorStatus: number | null;
  /** The instruction the vendor answered for, when it is not the one asked for (reference mismatch). */
  readonly vendorReference: string | null;

  constructor(options: {
    vendor: PaymentVendorName;
    code: VendorRejectionCode;
    reference: string;
    detail: string;
    vendorStatus?: number;
    vendorReference?: string;
  }) {
    super(options.detail);
    this.name = 'VendorRejection';
    this.vendor = options.vendor;
    this.code = options.code;
    this.reference = options.reference;
    this.vendorStatus = options.vendorStatus ?? null;
    this.vendorReference = options.vendorReference ?? null;
  }
}

export type VendorUnavailableReason =
  | 'timeout'
  | 'connection_failed'
  | 'throttled'
  | 'vendor_error'
  | 'unexpected_response';

/** The vendor could not give an answer this time; the same request may succeed later. */
export class VendorUnavailable extends Error {
  readonly code = 'vendor_unavailable' as const;
  readonly vendor: PaymentVendorName;
  readonly reason: VendorUnavailableReason;
  readonly reference: string;
  readonly vendorStatus: number | null;
  /** From the vendor's Retry-After on a 429 or 503, when it sent one. */
  readonly retryAfterSeconds: number | null;

  constructor(options: {
    vendor: PaymentVendorName;
    reason: VendorUnavailableReason;
    reference: string;
    detail: string;
    vendorStatus?: number;
    retryAfterSeconds?: number | null;
    cause?: unknown;
  }) {
    super(options.detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'VendorUnavailable';
    this.vendor = options.vendor;
    this.reason = options.reason;
    this.reference = options.reference;
    this.vendorStatus = options.vendorStatus ?? null;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
  }
}
