/**
 * What the vendor simulator serves: GoCardless mandates and Stripe payment methods shaped like
 * the real APIs' objects, the seeded examples, and the references that encode a fault.
 */

export type SimulatedVendor = 'GOCARDLESS' | 'STRIPE';

/** A GoCardless mandate as `GET /mandates/{id}` returns it inside `{mandates: …}`. */
export interface SimulatedMandate {
  id: string;
  status: string;
  scheme?: string;
  reference?: string;
  created_at?: string;
  next_possible_charge_date?: string | null;
  payments_require_approval?: boolean;
  metadata?: Record<string, string>;
  links?: { customer?: string; customer_bank_account?: string; creditor?: string };
}

/** A Stripe payment method as `GET /v1/payment_methods/{id}` returns it. */
export interface SimulatedPaymentMethod {
  id: string;
  type: string;
  customer: string | null;
  object?: 'payment_method';
  created?: number;
  livemode?: boolean;
  billing_details?: Record<string, unknown>;
  metadata?: Record<string, string>;
  [typeDetails: string]: unknown;
}

/** What the simulator does instead of (or before) answering normally. */
export type VendorFault =
  /** Answers with this HTTP status and the vendor's error body (Retry-After on 429/503). */
  | { kind: 'status'; status: number; retryAfterSeconds?: number }
  /** Waits, then answers normally. */
  | { kind: 'delay'; ms: number }
  /** Destroys the connection without answering (ECONNRESET at the client). */
  | { kind: 'reset' };

export function simulatedMandate(id: string, overrides: Partial<SimulatedMandate> = {}): SimulatedMandate {
  return {
    id,
    status: 'active',
    scheme: 'bacs',
    reference: `FERRY-${id.slice(-6)}`,
    created_at: '2024-01-15T10:00:00.000Z',
    next_possible_charge_date: '2024-01-22',
    payments_require_approval: false,
    metadata: {},
    links: { customer: 'CU000SIM0001', customer_bank_account: 'BA000SIM0001', creditor: 'CR000SIM0001' },
    ...overrides,
  };
}

const TYPE_DETAILS: Record<string, Record<string, unknown>> = {
  card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, funding: 'credit', country: 'GB' },
  bacs_debit: { sort_code: '108800', last4: '2345', fingerprint: 'simfp' },
  sepa_debit: { bank_code: '37040044', branch_code: '', country: 'DE', last4: '3000', fingerprint: 'simfp' },
};

export function simulatedPaymentMethod(
  id: string,
  overrides: Partial<SimulatedPaymentMethod> = {},
): SimulatedPaymentMethod {
  const type = overrides.type ?? 'card';
  return {
    id,
    object: 'payment_method',
    type,
    customer: 'cus_sim0001',
    created: 1_705_312_800,
    livemode: false,
    billing_details: { name: 'Simulated Customer', email: null, phone: null, address: null },
    metadata: {},
    [type]: TYPE_DETAILS[type] ?? {},
    ...overrides,
  };
}

/** Payment methods that are not active: on no customer, or a card past its expiry. */
const DETACHED: Partial<SimulatedPaymentMethod> = { customer: null };
const EXPIRED_CARD: Partial<SimulatedPaymentMethod> = {
  card: { ...TYPE_DETAILS.card, exp_month: 1, exp_year: 2020 },
};

/** A record the simulator is seeded with, and what it is for. */
export interface SeededRecord<T> {
  record: T;
  purpose: string;
}

function seeded<T>(
  make: (id: string, overrides?: Partial<T>) => T,
  rows: [id: string, purpose: string, overrides?: Partial<T>][],
): SeededRecord<T>[] {
  return rows.map(([id, purpose, overrides]) => ({ record: make(id, overrides), purpose }));
}

/** Seeded on start (and by reset()). */
export const SEEDED_MANDATES = seeded(simulatedMandate, [
  ['MD000SIMACTIVE', 'active Bacs mandate'],
  ['MD000SIMPENDING', 'pending, accepted', { status: 'pending_submission' }],
  ['MD000SIMSUSPENDED', 'suspended: accepted, not active', { status: 'suspended_by_payer' }],
  ['MD000SIMCANCELLED', 'cancelled: inactive', { status: 'cancelled' }],
  ['MD000SIMEXPIRED', 'expired: inactive', { status: 'expired' }],
]);

export const SEEDED_PAYMENT_METHODS = seeded(simulatedPaymentMethod, [
  ['pm_sim_card_visa', 'Visa card, CARD'],
  ['pm_sim_bacs_debit', 'Bacs debit, DIRECT_DEBIT', { type: 'bacs_debit' }],
  ['pm_sim_sepa_debit', 'SEPA debit, DIRECT_DEBIT', { type: 'sepa_debit' }],
  ['pm_sim_detached', 'card not attached to a customer: inactive', DETACHED],
  ['pm_sim_expired_card', 'expired card: inactive', EXPIRED_CARD],
]);

/**
 * Faults and states encoded in a reference, so that a whole import can be exercised by hand
 * without calling the simulator's API. After the `MD_` / `pm_` prefix, case-insensitive:
 * `fail_<status>` answers that HTTP status; `slow_<ms>` waits, then serves an active instruction;
 * `reset` drops the connection; GoCardless `status_<status>` serves a mandate in that status;
 * Stripe `detached`, `expired`, `type_<stripe type>` serve such a payment method; `other` answers
 * for another instruction (`MD000SIMOTHER`, `pm_sim_other`), as a vendor whose data disagrees
 * with the reference would.
 */
export function faultEncodedIn(reference: string): VendorFault | null {
  const rest = encodedPart(reference);
  if (rest === null) return null;
  let m = /^fail_(\d{3})$/.exec(rest);
  if (m) {
    const status = Number(m[1]);
    return { kind: 'status', status, ...(status === 429 || status === 503 ? { retryAfterSeconds: 1 } : {}) };
  }
  m = /^slow_(\d{1,6})$/.exec(rest);
  if (m) return { kind: 'delay', ms: Number(m[1]) };
  return rest === 'reset' ? { kind: 'reset' } : null;
}

/** The instruction an encoded reference stands for, when it is not in the store. */
export function recordEncodedIn(
  vendor: SimulatedVendor,
  reference: string,
): SimulatedMandate | SimulatedPaymentMethod | null {
  const rest = encodedPart(reference);
  if (rest === null) return null;
  if (vendor === 'GOCARDLESS') {
    if (!reference.startsWith('MD_')) return null;
    if (rest === 'other') return simulatedMandate('MD000SIMOTHER');
    const m = /^status_([a-z_]+)$/.exec(rest);
    if (m) return simulatedMandate(reference, { status: m[1] });
    return /^slow_\d+$/.test(rest) ? simulatedMandate(reference) : null;
  }
  if (!reference.startsWith('pm_')) return null;
  if (rest === 'other') return simulatedPaymentMethod('pm_sim_other');
  if (rest === 'detached') return simulatedPaymentMethod(reference, DETACHED);
  if (rest === 'expired') return simulatedPaymentMethod(reference, EXPIRED_CARD);
  const m = /^type_([a-z_]+)$/.exec(rest);
  if (m) return simulatedPaymentMethod(reference, { type: m[1] });
  return /^slow_\d+$/.test(rest) ? simulatedPaymentMethod(reference) : null;
}

function encodedPart(reference: string): string | null {
  const m = /^(?:MD_|pm_)(.+)$/.exec(reference);
  return m ? m[1].toLowerCase() : null;
}
