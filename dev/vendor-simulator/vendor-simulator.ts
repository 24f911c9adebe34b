import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GOCARDLESS_API_VERSION } from '../../src/infra/vendors/gocardless-client.ts';
import {
  faultEncodedIn,
  recordEncodedIn,
  SEEDED_MANDATES,
  SEEDED_PAYMENT_METHODS,
  type SimulatedMandate,
  type SimulatedPaymentMethod,
  type SimulatedVendor,
  type VendorFault,
} from './vendor-simulator-records.ts';

export type { SimulatedMandate, SimulatedPaymentMethod, SimulatedVendor, VendorFault };

/**
 * A GoCardless- and Stripe-shaped HTTP server on loopback, for tests and local trials: one port
 * serves both `GET /mandates/{id}` and `GET /v1/payment_methods/{id}`, checks credentials and
 * version headers as the vendors do, and injects faults (per reference or programmatically).
 * See docs/decisions/0032-vendors-simulator.md.
 */
export interface VendorSimulatorOptions {
  port?: number;
  host?: string;
  gocardlessAccessToken?: string;
  stripeApiKey?: string;
  /** Start with the example mandates and payment methods (default true). */
  seed?: boolean;
}

export interface RecordedVendorRequest {
  vendor: SimulatedVendor | null;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface FaultMatch {
  /** How many matching requests fail (default 1). */
  count?: number;
  vendor?: SimulatedVendor;
  reference?: string;
}

export interface VendorSimulator {
  url: string;
  /** The variables that point Ferry at this simulator. */
  env: {
    GOCARDLESS_API_URL: string;
    GOCARDLESS_ACCESS_TOKEN: string;
    STRIPE_API_URL: string;
    STRIPE_API_KEY: string;
  };
  setMandate(mandate: SimulatedMandate): void;
  setPaymentMethod(method: SimulatedPaymentMethod): void;
  /** Makes the next `count` matching requests fail with `fault`, then serves normally again. */
  failNext(fault: VendorFault, match?: FaultMatch): void;
  /** Every request received, oldest first. */
  requests(): RecordedVendorRequest[];
  /** Back to the seeded records, no queued faults, no recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

interface QueuedFault {
  fault: VendorFault;
  remaining: number;
  vendor?: SimulatedVendor;
  reference?: string;
}

const ROUTES: { vendor: SimulatedVendor; pattern: RegExp }[] = [
  { vendor: 'GOCARDLESS', pattern: /^\/mandates\/([^/]+)$/ },
  { vendor: 'STRIPE', pattern: /^\/v1\/payment_methods\/([^/]+)$/ },
];

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The vendor's own error body for a status. */
function vendorError(vendor: SimulatedVendor | null, status: number, message: string): unknown {
  if (vendor === 'STRIPE') {
    const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
    return { error: { type, message, ...(status === 404 ? { code: 'resource_missing' } : {}) } };
  }
  const type = status >= 500 ? 'gocardless' : status === 422 ? 'validation_failed' : 'invalid_api_usage';
  return { error: { code: status, type, message, request_id: randomUUID(), errors: [{ message }] } };
}

const MAX_RECORDED_REQUESTS = 10_000;

const MESSAGES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Resource not found',
  422: 'Invalid document structure',
  429: 'Rate limit exceeded',
  500: 'Internal server error',
  503: 'Service unavailable',
};

export async function startVendorSimulator(options: VendorSimulatorOptions = {}): Promise<VendorSimulator> {
  const host = options.host ?? '127.0.0.1';
  const gocardlessToken = options.gocardlessAccessToken ?? 'sim-gocardless-access-token';
  const stripeKey = options.stripeApiKey ?? 'sk_test_ferry_simulator';
  const mandates = new Map<string, SimulatedMandate>();
  const paymentMethods = new Map<string, SimulatedPaymentMethod>();
  let faults: QueuedFault[] = [];
  let recorded: RecordedVendorRequest[] = [];
  const delays = new Set<NodeJS.Timeout>();

  const seed = () => {
    mandates.clear();
    paymentMethods.clear();
    if (options.seed === false) return;
    for (const { record } of SEEDED_MANDATES) mandates.set(record.id, structuredClone(record));
    for (const { record } of SEEDED_PAYMENT_METHODS) paymentMethods.set(record.id, structuredClone(record));
  };
  seed();

  const takeQueuedFault = (vendor: SimulatedVendor, reference: string): VendorFault | null => {
    const queued = faults.find(
      (f) =>
        f.remaining > 0 &&
        (f.vendor === undefined || f.vendor === vendor) &&
        (f.reference === undefined || f.reference === reference),
    );
    if (!queued) return null;
    queued.remaining--;
    faults = faults.filter((f) => f.remaining > 0);
    return queued.fault;
  };

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        delays.delete(timer);
        resolve();
      }, ms);
      delays.add(timer);
    });

  /** Credentials and version headers, checked the way each vendor does; null when they pass. */
  const headerProblem = (
    vendor: SimulatedVendor,
    req: IncomingMessage,
  ): { status: number; message: string } | null => {
    const expected = vendor === 'GOCARDLESS' ? gocardlessToken : stripeKey;
    if (req.headers.authorization !== `Bearer ${expected}`)
      return { status: 401, message: 'Invalid access token' };
    if (vendor === 'GOCARDLESS' && req.headers['gocardless-version'] !== GOCARDLESS_API_VERSION) {
      return { status: 400, message: `GoCardless-Version header must be ${GOCARDLESS_API_VERSION}` };
    }
    if (vendor === 'STRIPE' && !req.headers['stripe-version']) {
      return { status: 400, message: 'Stripe-Version header missing (the simulator requires it)' };
    }
    return null;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = ROUTES.map((r) => ({ vendor: r.vendor, match: r.pattern.exec(path) })).find((r) => r.match);
    recorded.push({
      vendor: route?.vendor ?? null,
      method: req.method ?? '',
      path,
      headers: { ...req.headers },
    });
    // A simulator left running by hand must not grow without bound.
    if (recorded.length > MAX_RECORDED_REQUESTS) recorded.shift();
    if (!route?.match || req.method !== 'GET') {
      sendJson(res, 404, vendorError(route?.vendor ?? null, 404, 'Not found'));
      return;
    }
    const { vendor } = route;
    let reference: string;
    try {
      reference = decodeURIComponent(route.match[1]);
    } catch {
      sendJson(res, 404, vendorError(vendor, 404, MESSAGES[404]));
      return;
    }

    const fault = takeQueuedFault(vendor, reference) ?? faultEncodedIn(reference);
    if (fault?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'status') {
      const retry: Record<string, string> =
        fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) };
      sendJson(
        res,
        fault.status,
        vendorError(vendor, fault.status, MESSAGES[fault.status] ?? 'Error'),
        retry,
      );
      return;
    }
    if (fault?.kind === 'delay') {
      await wait(fault.ms);
      if (res.destroyed) return;
    }

    const problem = headerProblem(vendor, req);
    if (problem) {
      sendJson(res, problem.status, vendorError(vendor, problem.status, problem.message));
      return;
    }
    const record =
      (vendor === 'GOCARDLESS' ? mandates.get(reference) : paymentMethods.get(reference)) ??
      recordEncodedIn(vendor, reference);
    if (!record) {
      const message = vendor === 'STRIPE' ? `No such PaymentMethod: '${reference}'` : MESSAGES[404];
      sendJson(res, 404, vendorError(vendor, 404, message));
      return;
    }
    sendJson(res, 200, vendor === 'GOCARDLESS' ? { mandates: record } : record);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, vendorError(null, 500, MESSAGES[500]));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url,
    env: {
      GOCARDLESS_API_URL: url,
      GOCARDLESS_ACCESS_TOKEN: gocardlessToken,
      STRIPE_API_URL: url,
      STRIPE_API_KEY: stripeKey,
    },
    setMandate: (mandate) => void mandates.set(mandate.id, structuredClone(mandate)),
    setPaymentMethod: (method) => void paymentMethods.set(method.id, structuredClone(method)),
    failNext(fault, match = {}) {
      faults.push({ fault, remaining: match.count ?? 1, vendor: match.vendor, reference: match.reference });
    },
    requests: () => recorded.map((r) => ({ ...r, headers: { ...r.headers } })),
    reset() {
      seed();
      faults = [];
      recorded = [];
    },
    async close() {
      for (const timer of delays) clearTimeout(timer);
      delays.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
