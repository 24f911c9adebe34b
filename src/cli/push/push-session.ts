/**
 * The connection of one `ferry push` run to the service: the typed client, a token obtained
 * from the API key and refreshed before it expires (or once on a 401), a bound on requests in
 * flight, and retries of 429 (Retry-After), 5xx and network errors with jittered backoff.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type { Client } from 'openapi-fetch';
import { createFerryClient, type paths } from '../../client/index.ts';

/** The options of every supplier command (`push`, `wave reconcile`) that say where and who. */
export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The run cannot go on (exit 2): the server is unreachable, the key is bad, or retries ran out. */
export class PushAbort extends Error {}

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);
const REFRESH_MARGIN_MS = 5 * 60_000;
const REQUEST_TIMEOUT_MS = 120_000;

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 10, baseDelayMs: 250, maxDelayMs: 30_000 };

/** What one attempt gives back: the answer, or the network error that stood in its way. */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** Waits `ms`, or less when the run is stopped. */
const sleep = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }).catch(() => {});

/** Full jitter: a uniform wait below the exponential bound (attempt 0 waits up to baseDelayMs). */
export function backoffMs(attempt: number, policy: RetryPolicy): number {
  return Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
}

/** Retry-After in seconds or as an HTTP date; milliseconds, or null when absent or unreadable. */
export function retryAfterMs(headers: Headers): number | null {
  const value = headers.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** The expiry (ms since the epoch) a JWT claims, read without checking it; null when unreadable. */
function jwtExpiry(token: string): number | null {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
    return typeof claims.exp === 'number' ? claims.exp * 1000 : null;
  } catch {
    return null;
  }
}

function describeNetworkError(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message} (${cause})` : String(e.message ?? err);
}

/** A counting semaphore: at most `limit` holders at once. */
class Gate {
  #free: number;
  readonly #waiting: (() => void)[] = [];
  constructor(limit: number) {
    this.#free = limit;
  }
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((r) => this.#waiting.push(r));
    try {
      return await fn();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }
}

export interface PushSessionOptions {
  baseUrl: string;
  apiKey: string;
  concurrency: number;
  retry?: RetryPolicy;
  /** Told of each retry (for the progress display). */
  onRetry?: (reason: string) => void;
}

interface Tokens {
  token: string;
  refreshToken: string | null;
  /** When to renew it: five minutes before it expires, or a quarter of its life for short-lived ones. */
  renewAt: number;
}

export class PushSession {
  readonly baseUrl: string;
  readonly client: Client<paths>;
  readonly #apiKey: string;
  readonly #gate: Gate;
  readonly #retry: RetryPolicy;
  readonly #onRetry: (reason: string) => void;
  #tokens: Tokens | null = null;
  #refreshing: Promise<void> | null = null;
  /** Set by a 429: no request leaves before this time (every request shares the supplier's bucket). */
  #notBefore = 0;
  /** Aborted by stop(): requests in flight end and no retry waits, so a failed run exits at once. */
  readonly #stopping = new AbortController();

  constructor(options: PushSessionOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#gate = new Gate(options.concurrency);
    this.#retry = options.retry ?? DEFAULT_RETRY;
    this.#onRetry = options.onRetry ?? (() => {});
    this.client = createFerryClient({
      baseUrl: this.baseUrl,
      fetch: (input) => globalThis.fetch(input, { signal: this.#signal() }),
    });
    this.client.use({
      onRequest: ({ request }) => {
        if (this.#tokens) request.headers.set('authorization', `Token ${this.#tokens.token}`);
        return request;
      },
    });
  }

  #signal() {
    return AbortSignal.any([AbortSignal.timeout(REQUEST_TIMEOUT_MS), this.#stopping.signal]);
  }

  /** Waits `ms`, or less when the run is stopped. */
  wait(ms: number): Promise<void> {
    return ms > 0 ? sleep(ms, this.#stopping.signal) : Promise.resolve();
  }

  /** Ends every request in flight and every retry: the run has failed. */
  stop(): void {
    this.#stopping.abort();
  }

  /** Obtains the first token; a bad key or an unreachable server aborts the run. */
  async start(): Promise<void> {
    await this.#obtain({ APIKey: this.#apiKey }, { attempts: 3, baseDelayMs: 300, maxDelayMs: 1000 });
  }

  async #obtain(input: { APIKey?: string; refreshToken?: string }, retry = this.#retry): Promise<void> {
    const answer = await this.#attempts(
      () =>
        this.client.POST('/v1/graphql/', {
          body: {
            query:
              'mutation($i: ObtainTokenInput!) { obtainToken(input: $i) { token refreshToken refreshExpiresIn } }',
            variables: { i: input },
          },
        }),
      retry,
    );
    const body = answer.body as {
      data?: { obtainToken?: { token: string; refreshToken: string } } | null;
      errors?: { message: string; extensions?: { code?: string } }[];
    };
    const issued = body?.data?.obtainToken;
    if (!issued) {
      const error = body?.errors?.[0];
      const code = error?.extensions?.code ?? `HTTP ${answer.status}`;
      if (input.refreshToken) throw new RefreshFailed(code);
      throw new PushAbort(
        `${this.baseUrl} refused the API key: ${code}${error ? ` (${error.message})` : ''}`,
      );
    }
    const expiresAt = jwtExpiry(issued.token) ?? Date.now() + 60 * 60_000;
    const lifetime = Math.max(0, expiresAt - Date.now());
    this.#tokens = {
      token: issued.token,
      refreshToken: issued.refreshToken,
      renewAt: expiresAt - Math.min(REFRESH_MARGIN_MS, lifetime / 4),
    };
  }

  /** A new token: by refresh token, or by the API key when that fails. Concurrent callers share one. */
  async #refresh(): Promise<void> {
    this.#refreshing ??= (async () => {
      try {
        const refreshToken = this.#tokens?.refreshToken;
        if (refreshToken) {
          try {
            await this.#obtain({ refreshToken });
            return;
          } catch (err) {
            if (!(err instanceof RefreshFailed)) throw err;
          }
        }
        await this.#obtain({ APIKey: this.#apiKey });
      } finally {
        this.#refreshing = null;
      }
    })();
    return this.#refreshing;
  }

  /**
   * One logical request, through the gate: retried on 429/5xx/network errors; on a 401 the token
   * is renewed once and the request sent again. Any other answer is returned as it is.
   */
  async request(send: () => Promise<{ response: Response; data?: unknown; error?: unknown }>) {
    return this.#gate.run(async () => {
      if (this.#tokens && Date.now() >= this.#tokens.renewAt) await this.#refresh();
      const tokenUsed = this.#tokens?.token;
      const first = await this.#attempts(send);
      if (first.status !== 401) return first;
      if (this.#tokens?.token === tokenUsed) await this.#refresh();
      const second = await this.#attempts(send);
      if (second.status === 401) {
        throw new PushAbort(`${this.baseUrl} no longer accepts this API key's tokens (401): revoked?`);
      }
      return second;
    });
  }

  async #attempts(
    send: () => Promise<{ response: Response; data?: unknown; error?: unknown }>,
    policy = this.#retry,
  ): Promise<Answer> {
    let lastReason = '';
    for (let attempt = 0; attempt < policy.attempts; attempt++) {
      const wait = this.#notBefore - Date.now();
      if (wait > 0) await sleep(wait, this.#stopping.signal);
      if (this.#stopping.signal.aborted) throw new PushAbort('stopped');
      let delay: number;
      try {
        const { response, data, error } = await send();
        if (!RETRIED_STATUSES.has(response.status)) {
          return { status: response.status, body: data ?? error, headers: response.headers };
        }
        lastReason = `HTTP ${response.status}`;
        const after = retryAfterMs(response.headers);
        delay = after !== null ? after + Math.random() * 250 : backoffMs(attempt, policy);
        if (response.status === 429 && after !== null) {
          this.#notBefore = Math.max(this.#notBefore, Date.now() + after);
        }
      } catch (err) {
        lastReason = describeNetworkError(err);
        delay = backoffMs(attempt, policy);
      }
      if (attempt + 1 < policy.attempts) {
        this.#onRetry(lastReason);
        await sleep(delay, this.#stopping.signal);
      }
    }
    throw new PushAbort(`cannot reach ${this.baseUrl}: ${lastReason} (after ${policy.attempts} attempts)`);
  }

  /**
   * The Authorization header for a request the session does not send itself (a stream held
   * open): the token renewed first when it is due, or when `renew` (the last one met a 401).
   */
  async authorization(renew = false): Promise<string> {
    if (renew || (this.#tokens && Date.now() >= this.#tokens.renewAt)) await this.#refresh();
    return `Token ${this.#tokens?.token ?? ''}`;
  }

  /** Aborted when the run is stopped (stop()): for a request the session does not send itself. */
  get stopSignal(): AbortSignal {
    return this.#stopping.signal;
  }

  /** The server's /openapi.json paths, or an empty list when it has none. */
  async offeredPaths(): Promise<string[]> {
    try {
      const res = await fetch(`${this.baseUrl}/openapi.json`, { signal: AbortSignal.timeout(30_000) });
      if (!res.ok) return [];
      const doc = (await res.json()) as { paths?: Record<string, unknown> };
      return Object.keys(doc.paths ?? {});
    } catch {
      return [];
    }
  }

  /**
   * A request the generated client does not make as is: an NDJSON bulk body, or an operation of
   * a newer service than the client's types (the supplier's status).
   */
  raw(
    path: string,
    init: { method: string; body?: string; bodyFile?: string; contentType?: string; asText?: boolean },
  ) {
    // Encoded once, for every attempt; given a string, fetch would scan and re-encode each time
    // (≈ 4 % of a bulk push's CPU).
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const { method, contentType, bodyFile } = init;
    return async () => {
      const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
      if (this.#tokens) headers.authorization = `Token ${this.#tokens.token}`;
      // A file is streamed, opened again for each attempt: it may be far larger than memory allows.
      const streamed =
        bodyFile === undefined ? undefined : (Readable.toWeb(createReadStream(bodyFile)) as ReadableStream);
      const response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: streamed ?? body,
        signal: this.#signal(),
        ...(streamed ? { duplex: 'half' } : {}),
      } as RequestInit);
      const text = await response.text();
      let data: unknown = text;
      // An NDJSON answer (asText) stays text, even when its one line happens to be JSON.
      if (!init.asText || !response.ok) {
        try {
          data = JSON.parse(text);
        } catch {}
      }
      return { response, data };
    };
  }
}

class RefreshFailed extends Error {}
