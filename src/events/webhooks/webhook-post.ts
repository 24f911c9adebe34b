/**
 * One webhook POST over an undici Agent (keep-alive connection pools, one per receiver origin):
 * the raw body, Ferry's headers, a 10-second limit on the whole exchange, and no redirect
 * followed (a 3xx is a failed attempt: following it would send a signed event wherever the
 * receiver points). A post whose connection is closed before any answer comes is sent once more
 * at once, on another connection (decision 0104). undici and not node:http: the same post costs
 * the sender about half the CPU (96 against 195 µs a request, 30,000 requests at 64 in flight on
 * loopback), and a push's events are each posted alone.
 */
import { EventEmitter } from 'node:events';
import { Agent } from 'undici';
import { signatureHeader } from './webhook-signature.ts';

export interface WebhookRequest {
  url: string;
  secret: string;
  /** The Ferry-Event-Id header: the event's id. */
  eventId: string;
  body: string;
}

/** What came of one attempt: delivered on a 2xx; otherwise why not. */
export interface PostOutcome {
  delivered: boolean;
  /** The receiver's status; null when none came. */
  statusCode: number | null;
  /** Why it failed; null when delivered. */
  error: string | null;
  durationMs: number;
  at: Date;
}

export const USER_AGENT = 'Ferry-Webhooks/1';
export const POST_TIMEOUT_MS = 10_000;
/** How much of a failed answer's body is kept with the attempt. */
const ERROR_BODY_CHARS = 200;

export interface WebhookPoster {
  post(request: WebhookRequest): Promise<PostOutcome>;
  /** Closes the idle keep-alive connections. */
  close(): void;
}

/** `user:pass@` in an endpoint's URL: sent as Basic authorization, as node:http would. */
function basicAuthorization(url: URL): Record<string, string> {
  if (url.username === '' && url.password === '') return {};
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/** The start of a refusal's answer; the rest is not read (the connection is closed instead). */
async function answerStart(
  body: AsyncIterable<string> & { setEncoding(e: 'utf8'): unknown },
): Promise<string> {
  body.setEncoding('utf8'); // a character split between chunks stays whole
  let text = '';
  for await (const chunk of body) {
    text += chunk;
    if (text.length >= ERROR_BODY_CHARS) break; // leaving the loop destroys the stream
  }
  return text.slice(0, ERROR_BODY_CHARS);
}

/** Reads a 2xx answer to its end; throws when it is cut off (a 2xx that never ends is no delivery). */
async function readToEnd(body: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of body) {
    // Discarded: only the status counts.
  }
}

/**
 * The connection closed under the post before any answer came: most often a kept-alive connection
 * that the receiver closed as idle just as this post went out on it (Node's servers close them
 * after 5 s). The receiver's application has then not seen the post, or has seen it and answers
 * nothing; either way posting it again at once is what a retry after the backoff would do, less
 * the second and the successors held back behind it (decision 0104).
 */
const CLOSED_UNDER_POST = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** undici's errors in the words an operator reads in an attempt's `error`. */
function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { errors?: Error[] };
  // Refused on every address of a name: an AggregateError with no message of its own.
  const message = e.message || e.errors?.[0]?.message || String(err);
  return e.code ? `${e.code}: ${message}` : message;
}

/** A poster with at most `maxSockets` connections per receiver origin, kept alive between posts. */
export function createWebhookPoster(opts: { maxSockets: number; timeoutMs?: number }): WebhookPoster {
  const timeoutMs = opts.timeoutMs ?? POST_TIMEOUT_MS;
  // One limit, ours: undici's own header and body timeouts off, its connect timeout at ours.
  const agent = new Agent({
    connections: opts.maxSockets,
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: { timeout: timeoutMs },
  });

  async function post(r: WebhookRequest): Promise<PostOutcome> {
    const at = new Date();
    const started = performance.now();
    const outcome = (statusCode: number | null, error: string | null): PostOutcome => ({
      delivered: error === null,
      statusCode,
      error,
      durationMs: Math.round(performance.now() - started),
      at,
    });
    let url: URL;
    try {
      url = new URL(r.url);
    } catch {
      return outcome(null, 'not a valid URL');
    }
    // The whole exchange, connecting and reading the answer included. undici takes an emitter of
    // 'abort' as well as an AbortSignal; an AbortController for each post cost the sender 15 µs.
    const limit = Object.assign(new EventEmitter(), { aborted: false });
    const timer = setTimeout(() => {
      limit.aborted = true;
      limit.emit('abort');
    }, timeoutMs);
    const timedOut = () => outcome(null, `no answer within ${timeoutMs / 1000} s`);
    let status: number | null = null;
    const send = () =>
      agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'ferry-event-id': r.eventId,
          'ferry-signature': signatureHeader(r.secret, r.body, at),
          ...basicAuthorization(url),
        },
        body: r.body,
        signal: limit,
      });
    try {
      const answer = await send().catch((err) => {
        // Once only, and within the same limit: a receiver that drops every post fails it.
        if (limit.aborted || !CLOSED_UNDER_POST.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
        return send();
      });
      status = answer.statusCode;
      if (status >= 200 && status < 300) {
        await readToEnd(answer.body);
        return outcome(status, null);
      }
      const said = (await answerStart(answer.body)).replace(/\s+/g, ' ').trim();
      const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
      return outcome(status, `HTTP ${status}${redirect}${said ? `: ${said}` : ''}`);
    } catch (err) {
      if (limit.aborted) return status === null ? timedOut() : outcome(status, 'answer cut off: timed out');
      if ((err as NodeJS.ErrnoException).code === 'UND_ERR_CONNECT_TIMEOUT') return timedOut();
      if (status !== null) return outcome(status, `answer cut off: ${reason(err)}`);
      return outcome(null, reason(err));
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    post,
    close() {
      void agent.destroy().catch(() => {});
    },
  };
}
