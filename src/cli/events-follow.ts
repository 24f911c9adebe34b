/**
 * `ferry events tail --follow` once it has caught up: the live feed as server-sent events
 * (`Accept: text/event-stream`, docs/decisions/0073-live-event-stream.md) on one connection held
 * open, instead of a page asked for every half second (the service logged a request a poll). A
 * connection that ends or fails is opened again after the last cursor, and told on stderr; a
 * refusal (4xx) ends the tail.
 */
import type { FeedEvent } from '../events/event-feed.ts';
import { backoffMs, DEFAULT_RETRY, PushAbort, type PushSession } from './push/push-session.ts';

const FEED_PATH = '/v2/data-import/events/';
/** Answers worth opening the stream again for: the service busy or restarting. */
const RETRIED = new Set([429, 500, 502, 503, 504]);

export interface FollowedStream {
  session: PushSession;
  /** The feed's query (supplier, types); `after` is set from the cursor on each connection. */
  query: URLSearchParams;
  /** After which event to start: the last one printed, or the last page's next_cursor. */
  cursor: string;
  onEvent(e: FeedEvent): Promise<void>;
  /** A line for stderr (a reconnection). */
  err(line: string): void;
  /** The error a refusal ends the tail with. */
  refused(answer: { status: number; body: unknown }): Error;
}

/** Follows the stream until the session is stopped (a signal); throws a refusal. */
export async function followStream(f: FollowedStream): Promise<void> {
  const { session } = f;
  let failures = 0;
  let renew = false;
  let retryMs = 1_000;
  while (!session.stopSignal.aborted) {
    const query = new URLSearchParams(f.query);
    query.set('after', f.cursor);
    let reason: string;
    try {
      const response = await fetch(`${session.baseUrl}${FEED_PATH}?${query}`, {
        headers: { accept: 'text/event-stream', authorization: await session.authorization(renew) },
        signal: session.stopSignal,
      });
      const streamed = response.headers.get('content-type')?.includes('text/event-stream') ?? false;
      if (response.status === 401 && !renew) {
        renew = true;
        await response.body?.cancel();
        continue;
      }
      renew = false;
      if (response.status !== 200 || !streamed) {
        const text = await response.text();
        if (!RETRIED.has(response.status)) throw f.refused({ status: response.status, body: parsed(text) });
        reason = `HTTP ${response.status}`;
      } else {
        const read = await readEvents(response, f, (ms) => {
          retryMs = ms;
        });
        if (read > 0) failures = 0;
        reason = 'the stream ended';
      }
    } catch (err) {
      if (session.stopSignal.aborted) return;
      if (!(err instanceof TypeError || err instanceof PushAbort)) throw err;
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      reason = `${err.message}${cause ? ` (${cause})` : ''}`;
    }
    f.err(`ferry events tail: ${reason}; reconnecting after cursor ${f.cursor}\n`);
    await session.wait(Math.max(retryMs, backoffMs(failures++, DEFAULT_RETRY)));
  }
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** Reads one connection's events to its end; how many it gave. */
async function readEvents(
  response: Response,
  f: FollowedStream,
  onRetry: (ms: number) => void,
): Promise<number> {
  if (!response.body) return 0;
  let events = 0;
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data: string[] = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
        else if (line.startsWith('retry:')) onRetry(Number(line.slice(6)) || 1_000);
      }
      // A comment (a heartbeat) or a retry hint carries no event.
      if (data.length === 0) continue;
      const e = JSON.parse(data.join('\n')) as FeedEvent;
      await f.onEvent(e);
      f.cursor = e.id;
      events++;
    }
  }
  return events;
}
