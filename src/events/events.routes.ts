/**
 * `GET /v2/data-import/events/`: a supplier's event feed in pages (event-feed.ts), or, asked with
 * `Accept: text/event-stream`, live as server-sent events (event-stream.ts). Registered in the
 * data-import scope: the token hook refuses a key scoped to other suppliers (403, from the
 * `import_supplier` query parameter) before anything is read.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { validationFailed } from '../errors/error-catalogue.ts';
import type { ErrorItem } from '../errors/error-items.ts';
import { item } from '../errors/error-items.ts';
import { authErrorResponses, BadRequest, SupplierCodeParam } from '../http/schemas.ts';
import type { Db } from '../infra/db/db.ts';
import { EVENT_TYPES } from '../vocabulary/event-types.ts';
import {
  type Cursor,
  currentCursor,
  cursorText,
  DEFAULT_PAGE,
  FEED_START,
  MAX_PAGE,
  parseCursor,
  readEvents,
} from './event-feed.ts';
import type { EventHub } from './event-hub.ts';
import { openEventStream } from './event-stream.ts';

export const FeedEventSchema = Type.Object(
  {
    id: Type.String({
      description: 'The event’s cursor: resume after it with `after=<id>`.',
      examples: ['7421_90211'],
    }),
    type: Type.String({ examples: ['EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED'] }),
    occurred_at: Type.String({ format: 'date-time' }),
    import_supplier: Type.String(),
    external_account_number: Type.Union([Type.String(), Type.Null()], {
      description: 'The account the event is about; null for a supplier’s own events.',
    }),
    data: Type.Object(
      {},
      {
        additionalProperties: true,
        description: 'What the event says; a process event carries `import_process_id` and `status`.',
        examples: [{ import_process_id: '90211', status: 'PROCESSED', is_dry_run: false }],
      },
    ),
  },
  { description: 'One event.' },
);

const FeedQuery = Type.Object({
  import_supplier: SupplierCodeParam,
  after: Type.Optional(
    Type.String({
      description:
        'Start after this cursor (an event’s `id` or a page’s `next_cursor`); `now` answers no events and ' +
        'the cursor of the feed’s end, to follow only what happens from here on.',
    }),
  ),
  limit: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,4}$',
      description: `Events per page, 1 to ${MAX_PAGE} (default ${DEFAULT_PAGE}).`,
    }),
  ),
  types: Type.Optional(Type.String({ description: 'Comma-separated event types; all types when left out.' })),
});

const FeedPage = Type.Object({
  events: Type.Array(FeedEventSchema),
  next_cursor: Type.String({
    description: 'Pass as `after` for the next page; the same cursor when no event was new.',
  }),
});

/** The feed's query, checked: where to start and which types; 400 with every problem at once. */
export function feedQueryOf(q: { after?: string; types?: string; limit?: string }): {
  after: Cursor;
  types: string[] | null;
  limit: number;
} {
  const errors: ErrorItem[] = [];
  const limit = q.limit === undefined ? DEFAULT_PAGE : Number(q.limit);
  if (limit < 1 || limit > MAX_PAGE) errors.push(item('limit', 'invalid', `Must be from 1 to ${MAX_PAGE}.`));
  const after = q.after === undefined || q.after === '' ? FEED_START : parseCursor(q.after);
  if (after === null) errors.push(item('after', 'invalid_cursor', 'Not a cursor of this feed.'));
  const types = q.types === undefined || q.types === '' ? null : q.types.split(',').map((t) => t.trim());
  types?.forEach((t, i) => {
    if (!EVENT_TYPES.includes(t))
      errors.push(item(`types.${i}`, 'unknown_event_type', `No event type is named ${t}.`));
  });
  if (errors.length > 0) throw validationFailed('validation_error', errors);
  return { after: after!, types, limit };
}

const wantsEventStream = (accept: string | undefined) => accept?.includes('text/event-stream') ?? false;

/** Where a stream starts: Last-Event-ID (a reconnecting client), else `after`. 400 when not a cursor. */
function streamStartOf(lastEventId: string | string[] | undefined, after: Cursor | 'now'): Cursor | 'now' {
  if (lastEventId === undefined) return after;
  const cursor = typeof lastEventId === 'string' ? parseCursor(lastEventId.trim()) : null;
  if (cursor === null)
    throw validationFailed('validation_error', [
      item('Last-Event-ID', 'invalid_cursor', 'Not a cursor of this feed.'),
    ]);
  return cursor;
}

const SSE_DESCRIPTION =
  'With `Accept: text/event-stream`: the same feed live, as server-sent events. Each event is ' +
  '`id: <cursor>`, `event: <type>` and `data: <the event as JSON>`; a `: heartbeat` comment comes ' +
  'every 15 s. A client resumes with the `Last-Event-ID` header (it takes precedence over `after`). ' +
  'A client that does not read what it is sent is disconnected, and resumes the same way.';

export const eventRoutes: FastifyPluginAsyncTypebox<{ db: Db; hub: EventHub }> = async (app, { db, hub }) => {
  app.get(
    '/v2/data-import/events/',
    {
      schema: {
        tags: ['events'],
        summary: 'A supplier’s events, in commit order, in pages by a cursor, or live',
        description:
          'Every event is returned once, in order, however its writers’ transactions commit: a page ' +
          'holds back the events of a transaction still running, and returns them once it has ended. ' +
          SSE_DESCRIPTION,
        querystring: FeedQuery,
        response: {
          200: {
            description: 'A page of events, or (text/event-stream) the live feed.',
            content: {
              'application/json': { schema: FeedPage },
              'text/event-stream': {
                schema: Type.String({
                  description: 'Server-sent events: `id:` the cursor, `event:` the type, `data:` the event.',
                  examples: [
                    'retry: 2000\n\nid: 7421_90211\nevent: EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED\n' +
                      'data: {"id":"7421_90211","type":"EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED",…}\n\n',
                  ],
                }),
              },
            },
          },
          400: BadRequest,
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { import_supplier } = request.query;
      if (wantsEventStream(request.headers.accept)) {
        const query = feedQueryOf({
          ...request.query,
          after: request.query.after === 'now' ? '' : request.query.after,
        });
        const start = streamStartOf(
          request.headers['last-event-id'],
          request.query.after === 'now' ? 'now' : query.after,
        );
        // A stream lasts as long as its client stays: REQUEST_TIMEOUT_MS does not cut it (each
        // of its queries still has the statement timeout). A page keeps its deadline.
        if (request.deadline) clearTimeout(request.deadline);
        request.deadline = null;
        const stream = openEventStream(
          db,
          hub,
          { supplier: import_supplier, types: query.types, after: start, pageSize: query.limit },
          () => reply.raw.destroy(),
        );
        return reply
          .type('text/event-stream; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('x-accel-buffering', 'no')
          .send(stream.body);
      }
      if (request.query.after === 'now')
        return { events: [], next_cursor: cursorText(await currentCursor(db)) };
      const { after, types, limit } = feedQueryOf(request.query);
      const page = await readEvents(db, { supplier: import_supplier, after, limit, types });
      return { events: page.events, next_cursor: cursorText(page.next) };
    },
  );
};
