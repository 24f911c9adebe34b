/**
 * Webhooks in a worker process: fan-out and the sender, both on the lease loop, started by
 * `ferry worker` and by `ferry serve` beside its in-process worker. Any number of processes may
 * run them on one database: the sender shares the deliveries by lease; fan-out runs in the one
 * process that holds the fleet lease `webhook-fan-out` (decision 0102), the others standing by,
 * and the endpoints' row locks keep it right should two run at once.
 *
 * Neither waits for its poll when there is news: fan-out is woken by `NOTIFY ferry_events` (any
 * process's writes, event-notifier.ts) and by eventsCommitted() (this process's worker); the
 * sender of every process by `NOTIFY ferry_webhooks_due`, which the process that fans out sends
 * (coalesced, outside any transaction) after a round that queued deliveries (decision 0105). The
 * polls remain, for a notification missed and a lease run out.
 */
import type { Registry } from 'prom-client';
import { ConfigError } from '../../config.ts';
import type { Db } from '../../infra/db/db.ts';
import { fleetLease } from '../../infra/fleet-lease.ts';
import { EVENTS_CHANNEL } from '../event-hub.ts';
import { EventNotifier } from '../event-notifier.ts';
import { startWebhookFanOut } from './webhook-fan-out.ts';
import { type SenderOptions, startWebhookSender } from './webhook-sender.ts';

/** Deliveries were queued: every process's sender claims now (decision 0105). */
export const WEBHOOKS_DUE_CHANNEL = 'ferry_webhooks_due';
/**
 * At most one such notice in this long: under a push the fan-out process queues deliveries many
 * times a second while the senders are busy anyway, and each notice is a transaction, plus one in
 * every backend that listens in the database (PostgreSQL signals them all).
 */
const DUE_NOTICE_INTERVAL_MS = 250;

export interface WebhookSettings {
  /** WEBHOOK_LEASE_SECONDS: how long a sender's claim on a delivery lasts (default 30). */
  leaseSeconds: number;
  /** WEBHOOK_POLL_MS: about how long fan-out and an idle sender wait between looks (default 250). */
  pollMs: number;
  /** WEBHOOK_CONCURRENCY: POSTs in flight at once per process (default 256; decision 0077). */
  concurrency: number;
}

function whole(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
) {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** The webhook settings from the environment, validated once at start (ConfigError names a bad one). */
export function webhookSettings(env: Record<string, string | undefined>): WebhookSettings {
  return {
    leaseSeconds: whole(env, 'WEBHOOK_LEASE_SECONDS', 30, 1, 3_600),
    pollMs: whole(env, 'WEBHOOK_POLL_MS', 250, 10, 60_000),
    concurrency: whole(env, 'WEBHOOK_CONCURRENCY', 256, 1, 1_024),
  };
}

export interface WebhooksHandle {
  /** Resolves once both notice channels are listened on (or could not be: polling only). */
  readonly listening: Promise<void>;
  /** This process committed events: fan-out reads them now, other processes hear of it. */
  eventsCommitted(): void;
  stop(): Promise<void>;
}

/**
 * How long the fan-out lease lasts (decision 0102): when the process that fans out stops or dies,
 * another takes over when it next asks, at most about this long later plus one idle wait of its
 * fan-out loop.
 */
export const FAN_OUT_LEASE_SECONDS = 5;

export function startWebhooks(
  settings: WebhookSettings,
  deps: { db: Db; logger: SenderOptions['logger']; metrics?: Registry },
): WebhooksHandle {
  const sender = startWebhookSender({
    ...deps,
    leaseSeconds: settings.leaseSeconds,
    concurrency: settings.concurrency,
    idlePollMs: settings.pollMs,
    // An idle sender looks rarely (decisions 0100, 0105): the fan-out of any process tells it of
    // deliveries queued, and it wakes itself when a retry comes due; the look is for a notice
    // missed and for a lease run out.
    idlePollMaxMs: settings.pollMs * 16,
  });
  const dueNotifier = new EventNotifier(deps.db, DUE_NOTICE_INTERVAL_MS, WEBHOOKS_DUE_CHANNEL);
  const lease = fleetLease(deps.db, 'webhook-fan-out', { seconds: FAN_OUT_LEASE_SECONDS });
  const fanOut = startWebhookFanOut({
    db: deps.db,
    lease,
    logger: deps.logger,
    idlePollMs: settings.pollMs,
    // Woken by every process's notice of new events, fan-out can look rarely when idle.
    idlePollMaxMs: settings.pollMs * 8,
    onQueued: () => {
      sender.loop.wake();
      dueNotifier.poke();
    },
  });
  const notifier = new EventNotifier(deps.db);
  /** Wakes `loop` on each notice of `channel`, and when listening starts again after a lost connection. */
  const listenAndWake = (channel: string, loop: { wake(): void }, what: string) =>
    deps.db
      .listen(channel, {
        onMessage: () => loop.wake(),
        onLive: (live) => {
          if (live) loop.wake();
        },
      })
      .catch((err) => {
        deps.logger.warn({ err }, `webhooks: could not listen for ${what}; polling only`);
        return null;
      });
  const listens = [
    listenAndWake(EVENTS_CHANNEL, fanOut, 'events'),
    listenAndWake(WEBHOOKS_DUE_CHANNEL, sender.loop, 'queued deliveries'),
  ];
  return {
    listening: Promise.all(listens).then(() => {}),
    eventsCommitted() {
      fanOut.wake();
      notifier.poke();
    },
    async stop() {
      notifier.close();
      dueNotifier.close();
      // The loops stop whatever becomes of the notices' connection: releasing it may fail (the
      // database gone), and that must not leave fan-out and the sender running.
      const unlisten = Promise.all(
        listens.map((l) =>
          l
            .then((release) => release?.())
            .catch((err) => deps.logger.warn({ err }, 'webhooks: could not stop listening for notices')),
        ),
      );
      const handOn = fanOut
        .stop()
        .then(() => lease.release())
        .catch((err) => deps.logger.warn({ err }, 'webhooks: could not hand the fan-out lease on'));
      await Promise.all([handOn, sender.stop(), unlisten]);
    },
  };
}
