import { type PaymentVendorName, VendorRejection, VendorUnavailable } from './payment-vendor.ts';

export interface VendorGetRequest {
  vendor: PaymentVendorName;
  /** The supplier's reference, for error messages and logs. */
  reference: string;
  /** What the vendor calls the thing, for error messages: "mandate", "payment method". */
  noun: string;
  url: URL;
  /** The credentials and API version; `accept: application/json` is added. */
  headers: Record<string, string>;
  timeoutMs: number;
  fetch: typeof fetch;
}

export const VENDOR_LABELS: Record<PaymentVendorName, string> = {
  GOCARDLESS: 'GoCardless',
  STRIPE: 'Stripe',
};

/** `new URL('x', 'https://h/api')` drops `api`; a base that ends in `/` keeps its path. */
export function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/**
 * The reference as one URL path segment of the vendor's API, or null when no URL can carry it as
 * one: `.` and `..` are dot segments, which URL parsing would resolve away (another endpoint of
 * the vendor). Everything else is the vendor's to judge; `encodeURIComponent` keeps `/`, `?`, `#`
 * and `%` inside the segment.
 */
export function referenceSegment(reference: string): string | null {
  return reference === '.' || reference === '..' ? null : encodeURIComponent(reference);
}

/** Vendor answers are small JSON objects; anything bigger is not an answer we understand. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

function retryAfterSeconds(header: string | null): number | null {
  if (header === null) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

async function readLimited(res: Response): Promise<string | null> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await res.body.cancel().catch(() => {});
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const isTimeout = (err: unknown) =>
  err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');

/**
 * One GET to a vendor with a hard timeout (connecting, waiting and reading the body), mapping
 * every outcome to a JSON object or to VendorRejection / VendorUnavailable. No retries here:
 * the caller's request has a deadline, and the supplier retries a 500 unchanged.
 */
export async function getVendorJson(request: VendorGetRequest): Promise<Record<string, unknown>> {
  const { vendor, reference, noun } = request;
  const label = VENDOR_LABELS[vendor];
  const unavailable = (
    reason: VendorUnavailable['reason'],
    detail: string,
    extra: { vendorStatus?: number; retryAfterSeconds?: number | null; cause?: unknown } = {},
  ) => new VendorUnavailable({ vendor, reason, reference, detail, ...extra });
  const rejected = (code: VendorRejection['code'], detail: string, vendorStatus: number) =>
    new VendorRejection({ vendor, code, reference, detail, vendorStatus });

  let res: Response;
  let text: string | null;
  try {
    res = await request.fetch(request.url, {
      method: 'GET',
      headers: { ...request.headers, accept: 'application/json' },
      // A redirect would carry our credentials somewhere we did not configure.
      redirect: 'manual',
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    text = await readLimited(res);
  } catch (err) {
    if (isTimeout(err)) {
      throw unavailable('timeout', `${label} did not answer within ${request.timeoutMs} ms.`, { cause: err });
    }
    throw unavailable('connection_failed', `Could not reach ${label}.`, { cause: err });
  }

  const status = res.status;
  if (status === 404 || status === 410) {
    throw rejected('payment_instruction_not_found', `${label} has no ${noun} ${reference}.`, status);
  }
  if (status === 401 || status === 403) {
    throw rejected(
      'vendor_authentication_failed',
      `${label} refused our credentials for ${noun} ${reference}; the operator must check them.`,
      status,
    );
  }
  if (status === 408 || status === 429 || status >= 500) {
    const throttled = status === 429;
    throw unavailable(
      throttled ? 'throttled' : status === 408 ? 'timeout' : 'vendor_error',
      throttled ? `${label} is limiting our requests.` : `${label} answered with an error (HTTP ${status}).`,
      { vendorStatus: status, retryAfterSeconds: retryAfterSeconds(res.headers.get('retry-after')) },
    );
  }
  if (status >= 400) {
    throw rejected(
      'payment_instruction_invalid',
      `${label} rejected the ${noun} reference ${reference}.`,
      status,
    );
  }
  if (status !== 200 || text === null) {
    throw unavailable(
      'unexpected_response',
      `${label} gave an answer we do not understand (HTTP ${status}).`,
      {
        vendorStatus: status,
      },
    );
  }
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // falls through to the error below
  }
  throw unavailable('unexpected_response', `${label} answered with a body that is not a JSON object.`, {
    vendorStatus: status,
  });
}

/** Where a vendor's API is and how long to wait for it: the part every client's options share. */
export interface VendorConnection {
  apiUrl: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export interface VendorObjectRequest {
  vendor: PaymentVendorName;
  /** The supplier's reference: the id of the object at the vendor. */
  reference: string;
  /** What the vendor calls the object, for error messages: "mandate", "payment method". */
  noun: string;
  /** The object's path under apiUrl, given the reference as one URL path segment. */
  path: (segment: string) => string;
  headers: Record<string, string>;
}

/**
 * The vendor's object named by the reference (getVendorJson on its URL), refused as
 * `invalid_payment_instruction_reference` when no URL path segment can carry the reference.
 */
export async function fetchVendorObject(
  connection: VendorConnection,
  request: VendorObjectRequest,
): Promise<Record<string, unknown>> {
  const { vendor, reference, noun } = request;
  const segment = referenceSegment(reference);
  if (segment === null) {
    throw rejection(
      request,
      'invalid_payment_instruction_reference',
      `This reference cannot name a ${noun}.`,
    );
  }
  return getVendorJson({
    vendor,
    reference,
    noun,
    url: new URL(request.path(segment), withTrailingSlash(connection.apiUrl)),
    headers: request.headers,
    timeoutMs: connection.timeoutMs,
    fetch: connection.fetch ?? fetch,
  });
}

/** Which object a client asked its vendor for. */
export type VendorObjectAsked = Pick<VendorObjectRequest, 'vendor' | 'reference' | 'noun'>;

/** The vendor's answer about the object asked for means the request must change. */
export function rejection(asked: VendorObjectAsked, code: VendorRejection['code'], detail: string) {
  return new VendorRejection({ vendor: asked.vendor, code, reference: asked.reference, detail });
}

/**
 * A 200 for another object than the one asked for: the vendor's data disagrees with the
 * request, so asking again cannot help (a mandate or payment method that was merged or
 * re-keyed at the vendor, a reference of another account). Permanent, naming both.
 */
export function answeredForAnother(asked: VendorObjectAsked, answered: string) {
  const label = VENDOR_LABELS[asked.vendor];
  return new VendorRejection({
    vendor: asked.vendor,
    code: 'payment_instruction_reference_mismatch',
    reference: asked.reference,
    vendorReference: answered,
    vendorStatus: 200,
    detail: `Asked ${label} for ${asked.noun} ${asked.reference}, it answered for ${asked.noun} ${answered}; check the reference with ${label}.`,
  });
}

/** A 200 whose JSON is not an object of the kind asked for (no id, status or type). */
export function notTheObjectAskedFor(request: VendorObjectAsked) {
  return new VendorUnavailable({
    vendor: request.vendor,
    reason: 'unexpected_response',
    reference: request.reference,
    detail: `${VENDOR_LABELS[request.vendor]} answered without the ${request.noun} we asked for.`,
    vendorStatus: 200,
  });
}
