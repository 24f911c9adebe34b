/**
 * One webhook POST over node:http(s) with keep-alive agents: the raw body, Ferry's headers, a
 * 10-second limit on the whole exchange, and no redirect followed (a 3xx is a failed attempt:
 * following it would send a signed event wherever the receiver points).
 */
import http from 'node:http';
import https from 'node:https';
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

/** A poster with at most `maxSockets` connections per receiver host, kept alive between posts. */
export function createWebhookPoster(opts: { maxSockets: number; timeoutMs?: number }): WebhookPoster {
  const timeoutMs = opts.timeoutMs ?? POST_TIMEOUT_MS;
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: opts.maxSockets }),
  };

  function post(r: WebhookRequest): Promise<PostOutcome> {
    const at = new Date();
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    const outcome = (statusCode: number | null, error: string | null): PostOutcome => ({
      delivered: error === null,
      statusCode,
      error,
      durationMs: ms(),
      at,
    });
    return new Promise((resolve) => {
      let url: URL;
      try {
        url = new URL(r.url);
      } catch {
        resolve(outcome(null, 'not a valid URL'));
        return;
      }
      const protocol = url.protocol as keyof typeof agents;
      const transport = protocol === 'https:' ? https : http;
      const body = Buffer.from(r.body);
      const req = transport.request(url, {
        method: 'POST',
        agent: agents[protocol],
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'user-agent': USER_AGENT,
          'ferry-event-id': r.eventId,
          'ferry-signature': signatureHeader(r.secret, r.body, at),
        },
      });
      // The whole exchange, connecting and reading the answer included.
      const timer = setTimeout(
        () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
      let settled = false;
      const done = (o: PostOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(o);
      };
      req.on('error', (err: NodeJS.ErrnoException) =>
        done(outcome(null, err.code ? `${err.code}: ${err.message}` : err.message)),
      );
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < ERROR_BODY_CHARS) text += chunk;
        });
        res.on('error', (err) => done(outcome(status, `answer cut off: ${err.message}`)));
        res.on('close', () => done(outcome(status, 'answer cut off')));
        res.on('end', () => {
          if (status >= 200 && status < 300) return done(outcome(status, null));
          const said = text.slice(0, ERROR_BODY_CHARS).replace(/\s+/g, ' ').trim();
          const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
          done(outcome(status, `HTTP ${status}${redirect}${said ? `: ${said}` : ''}`));
        });
      });
      req.end(body);
    });
  }

  return {
    post,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
