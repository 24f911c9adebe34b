/**
 * `ferry events tail --supplier S [--after CURSOR] [--types A,B] [--follow] [--json]`: a
 * supplier's event feed (`GET /v2/data-import/events/`, docs/decisions/0071-event-feed.md) read
 * page after page by its cursor, one line per event. Without --follow it stops at the feed's
 * end; with --follow it then holds the live stream open (events-follow.ts) until SIGINT or
 * SIGTERM, telling only reconnections and errors. Either way the last cursor goes to stderr, to
 * resume from with --after.
 */
import { parseArgs } from 'node:util';
import type { FeedEvent } from '../events/event-feed.ts';
import { EVENT_TYPES } from '../vocabulary/event-types.ts';
import { followStream } from './events-follow.ts';
import { commandHelp, didYouMean, suggestCommand } from './help.ts';
import { CONNECTION_OPTIONS, PushAbort, PushSession } from './push/push-session.ts';
import { writeStdout } from './stdout.ts';

export const EVENTS_TAIL_USAGE = `Usage:
  ferry events tail --supplier S [--after CURSOR|now] [--types A,B] [--follow] [--json]
                    --url <base> --api-key <key>

Prints the supplier's events in commit order from the cursor (default: the feed's beginning;
\`now\`: only what happens from here on), one line each: cursor, time, type, external account
number; --json prints each event as one JSON line instead. Without --follow it stops at the end of
the feed; with --follow it waits for new events until Ctrl-C (or SIGTERM). The last cursor is
printed to stderr: pass it as --after to go on from there. --url may come from FERRY_URL and
--api-key from FERRY_API_KEY.

Exit 0: done (or stopped by a signal); 1: the service refused or could not be reached; 2: bad usage.
`;

const FEED_PATH = '/v2/data-import/events/';
/** The feed's largest page: fewest requests for a long backlog. */
const PAGE_SIZE = 1_000;

export interface EventsIo {
  /** Writes to stdout, waiting while a full pipe holds it back. */
  write: (chunk: string) => Promise<void> | void;
  err: (s: string) => void;
  env: NodeJS.ProcessEnv;
  /** Stops --follow; SIGINT and SIGTERM when absent. */
  signal?: AbortSignal;
}

const defaultIo = (): EventsIo => ({
  write: writeStdout,
  err: (s) => process.stderr.write(s),
  env: process.env,
});

interface FeedPage {
  events: FeedEvent[];
  next_cursor: string;
}

/** A refusal from the service: its status, code, detail and the first items. */
class Refused extends Error {}

function refusal(answer: { status: number; body: unknown }): Refused {
  const body = (answer.body ?? {}) as {
    code?: string;
    detail?: string;
    errors?: { attr: string; code: string; detail: string }[];
  };
  const detail = typeof answer.body === 'string' ? answer.body.slice(0, 200) : (body.detail ?? '');
  const items = (body.errors ?? []).slice(0, 20).map((e) => `\n  ${e.attr}: ${e.code} (${e.detail})`);
  return new Refused(
    `HTTP ${answer.status} ${body.code ?? ''} ${detail}`.replace(/ +/g, ' ').trim() + items.join(''),
  );
}

const TYPE_WIDTH = Math.max(...EVENT_TYPES.map((t) => t.length));

/** One event as a line: cursor, time, type and account, in columns as far as the cursor allows. */
const humanLine = (e: FeedEvent) =>
  `${e.id.padEnd(14)}  ${e.occurred_at}  ${e.type.padEnd(TYPE_WIDTH)}  ${e.external_account_number ?? '-'}`.trimEnd();

/** SIGINT and SIGTERM, heard while following: the tail ends cleanly instead of dying mid-line. */
function stopOnSignals(): { signal: AbortSignal; release: () => void } {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: stop.signal,
    release: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** `ferry events <action>`: `tail` is the only one. */
export async function runEventsCommand(argv: string[], io: EventsIo = defaultIo()): Promise<number> {
  const [action, ...rest] = argv;
  if (action === 'tail') return eventsTail(rest, io);
  if (action === undefined || action === '--help' || action === '-h') {
    const help = commandHelp(['events']) ?? EVENTS_TAIL_USAGE;
    if (action === undefined) io.err(help);
    else await io.write(help);
    return action === undefined ? 2 : 0;
  }
  const hint = didYouMean(suggestCommand(['events', action]));
  io.err(`ferry: unknown command: events ${action}\n${hint}`);
  return 2;
}

function parse(argv: string[]) {
  const options = {
    ...CONNECTION_OPTIONS,
    supplier: { type: 'string' },
    after: { type: 'string' },
    types: { type: 'string' },
    follow: { type: 'boolean' },
    json: { type: 'boolean' },
  } as const;
  return parseArgs({ args: argv, allowPositionals: true, strict: true, options });
}

async function eventsTail(argv: string[], io: EventsIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    io.err(`ferry events tail: ${(err as Error).message}\n\n${EVENTS_TAIL_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    await io.write(EVENTS_TAIL_USAGE);
    return 0;
  }
  const url = values.url ?? io.env.FERRY_URL;
  const apiKey = values['api-key'] ?? io.env.FERRY_API_KEY;
  const problem = !values.supplier
    ? '--supplier is required'
    : positionals.length > 0
      ? `unexpected argument "${positionals[0]}"`
      : !url
        ? '--url (or FERRY_URL) is required'
        : !apiKey
          ? '--api-key (or FERRY_API_KEY) is required'
          : null;
  if (problem) {
    io.err(`ferry events tail: ${problem}\n\n${EVENTS_TAIL_USAGE}`);
    return 2;
  }

  const session = new PushSession({ baseUrl: url as string, apiKey: apiKey as string, concurrency: 1 });
  const signals = values.follow && !io.signal ? stopOnSignals() : null;
  const stopped = io.signal ?? signals?.signal;
  const onStop = () => session.stop();
  stopped?.addEventListener('abort', onStop);
  // The cursor the service last confirmed: the last event printed, or the last page's next_cursor.
  let cursor: string | null = null;
  let reachedEnd = false;
  try {
    if (stopped?.aborted) return 0;
    await session.start();
    for (;;) {
      const query = new URLSearchParams({
        import_supplier: values.supplier as string,
        limit: String(PAGE_SIZE),
      });
      const after = cursor ?? values.after;
      if (after) query.set('after', after);
      if (values.types) query.set('types', values.types);
      const answer = await session.request(session.raw(`${FEED_PATH}?${query}`, { method: 'GET' }));
      if (answer.status !== 200) throw refusal(answer);
      const page = answer.body as FeedPage;
      for (const e of page.events) {
        if (stopped?.aborted) return 0;
        await io.write(`${values.json ? JSON.stringify(e) : humanLine(e)}\n`);
        cursor = e.id;
      }
      cursor = page.next_cursor;
      if (page.events.length < PAGE_SIZE) {
        if (!values.follow) {
          reachedEnd = true;
          return 0;
        }
        // Caught up: the rest comes live, on one connection (not a request every half second).
        query.delete('after');
        query.delete('limit');
        await followStream({
          session,
          query,
          cursor: page.next_cursor,
          onEvent: async (e) => {
            if (stopped?.aborted) return;
            await io.write(`${values.json ? JSON.stringify(e) : humanLine(e)}\n`);
            cursor = e.id;
          },
          err: io.err,
          refused: refusal,
        });
        return 0;
      }
      if (stopped?.aborted) return 0;
    }
  } catch (err) {
    // Stopped by a signal while a request was out: the run ends as it would between requests.
    if (stopped?.aborted && err instanceof PushAbort) return 0;
    if (err instanceof Refused || err instanceof PushAbort) {
      io.err(`ferry events tail: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    stopped?.removeEventListener('abort', onStop);
    signals?.release();
    session.stop();
    if (cursor !== null) {
      const where = reachedEnd ? 'End of the feed' : 'Stopped';
      io.err(`${where} at cursor ${cursor}: resume with --after ${cursor}\n`);
    }
  }
}
