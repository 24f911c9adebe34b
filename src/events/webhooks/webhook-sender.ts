/**
 * The webhook sender: posts the deliveries fan-out wrote, each alone, at least once, in order per
 * key (decision 0072). It claims due heads of keys under a lease (webhook-deliveries.queries.ts),
 * each with the next deliveries of its key (decision 0107), posts a claim's chains at once, each
 * chain one after another, and records every attempt: a 2xx is delivered; anything
 * else is retried after a jittered exponential backoff (about 1 s, doubling, at most an hour)
 * until 72 hours after the first attempt, then the delivery has failed. An endpoint that has done
 * nothing but fail for 24 hours is disabled. A sender killed mid-post loses nothing: the
 * delivery's lease runs out and another sender posts it again (the receiver deduplicates by
 * Ferry-Event-Id).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Registry } from 'prom-client';
import { statisticsRefresher } from '../../infra/db/analyze.ts';
import type { Db } from '../../infra/db/db.ts';
import { type LeaseLoop, type LeaseLoopOptions, startLeaseLoop } from '../../infra/lease-loop.ts';
import {
  type ClaimedDelivery,
  type ClaimedRow,
  claimDueDeliveries,
  claimedDelivery,
  disableFailingEndpoint,
  failDeliveryNow,
  insertAttempt,
  markBatchDelivered,
  recordFailedAttempt,
  releaseDeliveries,
} from './webhook-deliveries.queries.ts';
import { type WebhookMetrics, webhookMetrics } from './webhook-metrics.ts';
import {
  createWebhookPoster,
  POST_TIMEOUT_MS,
  type PostOutcome,
  type WebhookPoster,
} from './webhook-post.ts';

export interface RetryPolicy {
  /** The first retry waits about this long; each further one twice as long, jittered. */
  baseMs: number;
  maxMs: number;
  /** A delivery still failing this long after its first attempt has failed for good. */
  giveUpAfterMs: number;
  /** An endpoint whose attempts have all failed for this long is disabled. */
  disableAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  baseMs: 1_000,
  maxMs: 3_600_000,
  giveUpAfterMs: 72 * 3_600_000,
  disableAfterMs: 24 * 3_600_000,
};

export interface SenderOptions {
  db: Db;
  logger: LeaseLoopOptions['logger'] & { info(obj: Record<string, unknown>, msg: string): void };
  /** How long a claim lasts; a sender that dies leaves its deliveries to others after it. */
  leaseSeconds: number;
  /** POSTs in flight at once in this process. */
  concurrency: number;
  /** About how long a lane waits after a claim that found nothing due. */
  idlePollMs: number;
  /** Doubling with each such claim in a row, up to this (lease-loop.ts); no doubling unless said. */
  idlePollMaxMs?: number;
  metrics?: Registry;
  retry?: Partial<RetryPolicy>;
  /** A poster of the test's own; default: a keep-alive pool of `concurrency` connections per origin. */
  poster?: WebhookPoster;
  /** The longest a post may take (the poster's limit): a chain's next post must fit in its lease. */
  postTimeoutMs?: number;
  /** [0, 1) for the backoff's jitter; Math.random unless a test fixes it. */
  random?: () => number;
}

export interface SenderHandle {
  readonly senderId: string;
  readonly loop: LeaseLoop;
  /** Finishes the posts in flight, hands back what was claimed and not posted, closes the sockets. */
  stop(): Promise<void>;
}

/**
 * Lanes claim in turn (decision 0079) and post independently: a slow receiver holds up its lane's
 * batch only. Two, each claiming half the concurrency: with 8 worker processes on 16 cores, four
 * lanes of 16 made 32 senders claim at once from the front of the same index, and each claim took
 * 20–30 ms under that contention; two lanes of 32 halved the claims, and the push and the webhook
 * lag both improved (decision 0076). The default concurrency of 256 makes each claim 128
 * (decision 0077): a claim, its batch's posts and its recording cost about the same whatever the
 * batch, so bigger batches are what keeps delivery up with a bulk push's bursts.
 */
const LANES = 2;
/**
 * The deliveries' planner statistics are refreshed by the sender after this many claimed,
 * doubling after each refresh (src/infra/db/analyze.ts), or half a minute of claiming, and at its
 * first claim: a fresh table, or one that grew by a push since autovacuum last looked (PGlite has
 * none), makes the planner sort every pending delivery for each claim instead of reading the
 * first few in index order (a second per claim, not 0.5 ms).
 */
const ANALYZE_EVERY_CLAIMS = 2_000;
const ANALYZE_EVERY_MS = 30_000;
/** Retry due times a sender keeps to wake itself at (the earliest). */
const RETRY_WAKES = 1_024;

/**
 * A head and at most this many deliveries in all of its key, claimed together and posted one after
 * another (decision 0107): an import process writes three events, and each waited for a claim of
 * its own behind the one before.
 */
const CHAIN_LENGTH = 4;
/**
 * A chain's next post starts within this long of the claim, so that a slow receiver holds its
 * lane at most this much longer than one post did (decision 0079)…
 */
const CHAIN_BUDGET_MS = 5_000;
/** …and only while the lease holds a whole post and this long to record the batch after it. */
const RECORD_MARGIN_MS = 5_000;

/** A claimed delivery, and by when a chain's next post must have started (performance.now()). */
type Claimed = ClaimedDelivery & { nextPostBy: number };

/** The chains of a claim: rows of one head together, in their order behind it. */
export function chainsOf<T extends { head_id: string; chain_pos: number }>(claimed: readonly T[]): T[][] {
  const byHead = new Map<string, T[]>();
  for (const d of claimed) {
    const chain = byHead.get(d.head_id);
    if (chain) chain.push(d);
    else byHead.set(d.head_id, [d]);
  }
  return [...byHead.values()].map((chain) => chain.sort((a, b) => a.chain_pos - b.chain_pos));
}

/** Why a delivery whose event is no longer in the events table fails (see abandon). */
const EVENT_GONE = 'its event is no longer in the event feed';

/** The wait before the next attempt after `attempts` failed ones: between half and all of the doubled base. */
export function retryDelayMs(
  attempts: number,
  retry: RetryPolicy,
  random: () => number = Math.random,
): number {
  const ms = Math.min(retry.maxMs, retry.baseMs * 2 ** Math.max(0, attempts - 1));
  return ms / 2 + (random() * ms) / 2;
}

export function startWebhookSender(opts: SenderOptions): SenderHandle {
  const { db, logger, leaseSeconds } = opts;
  const senderId = `${hostname()}:${process.pid}:webhooks:${randomBytes(3).toString('hex')}`;
  const retry = { ...DEFAULT_RETRY, ...opts.retry };
  const random = opts.random ?? Math.random;
  const lanes = Math.min(LANES, opts.concurrency);
  const batchSize = Math.max(1, Math.ceil(opts.concurrency / lanes));
  const poster = opts.poster ?? createWebhookPoster({ maxSockets: opts.concurrency });
  const postTimeoutMs = opts.postTimeoutMs ?? POST_TIMEOUT_MS;
  const metrics: WebhookMetrics | null = opts.metrics ? webhookMetrics(opts.metrics, db) : null;
  /** In the background: the lanes go on claiming meanwhile. */
  const statistics = statisticsRefresher(db, {
    table: 'webhook_deliveries',
    everyClaims: ANALYZE_EVERY_CLAIMS,
    everyMs: ANALYZE_EVERY_MS,
    atFirstClaim: true,
    logger,
    failureMessage: 'could not refresh the webhook deliveries’ statistics',
  });

  /** The 2xx answers of a batch: one statement for all of them. */
  async function recordDelivered(done: readonly [ClaimedDelivery, PostOutcome][]): Promise<void> {
    if (done.length === 0) return;
    const { rows } = await db.query<{ id: string; occurred_at: Date }>(markBatchDelivered, [
      done.map(([d]) => d.id),
      done.map(([, o]) => o.at),
      done.map(([, o]) => o.statusCode),
      done.map(([, o]) => o.durationMs),
    ]);
    const now = Date.now();
    for (const r of rows) {
      metrics?.deliveries.inc({ result: 'delivered' });
      metrics?.lag.observe(Math.max(0, (now - r.occurred_at.getTime()) / 1000));
    }
  }

  /**
   * The lanes are woken when each retry this sender recorded comes due, so that an idle sender,
   * which looks only every few seconds (decision 0105), tries it again when its backoff ends. One
   * timer, for the earliest of the due times kept (sorted; at most RETRY_WAKES of them, the
   * earliest: a later one left out is found by the looks that follow).
   */
  const retryAts: number[] = [];
  let retryTimer: NodeJS.Timeout | null = null;
  function armRetryTimer() {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    if (retryAts.length === 0 || loop.signal.aborted) return;
    retryTimer = setTimeout(
      () => {
        retryTimer = null;
        const now = Date.now();
        while (retryAts.length > 0 && retryAts[0] <= now) retryAts.shift();
        loop.wake();
        armRetryTimer();
      },
      Math.max(0, retryAts[0] - Date.now()),
    );
    retryTimer.unref();
  }
  function retryDue(waitMs: number) {
    if (loop.signal.aborted) return;
    const at = Date.now() + waitMs;
    let i = retryAts.length;
    while (i > 0 && retryAts[i - 1] > at) i--;
    if (i >= RETRY_WAKES) return;
    retryAts.splice(i, 0, at);
    if (retryAts.length > RETRY_WAKES) retryAts.pop();
    if (i === 0) armRetryTimer();
  }

  /**
   * A delivery whose event is gone (the feed never deletes one; only a hand-made change to the
   * database could) has nothing to post and never will: it fails for good at once, with an
   * attempt that says why, so that its key's later events go on. Its endpoint is not counted as
   * failing: the receiver did nothing wrong.
   */
  async function abandon(d: ClaimedDelivery): Promise<void> {
    await db.query(insertAttempt, [d.id, new Date(), null, 0, EVENT_GONE]);
    const { rows } = await db.query(failDeliveryNow, [d.id, senderId, EVENT_GONE]);
    if (rows.length === 0) return; // Another sender took it over after this one's lease ran out.
    metrics?.deliveries.inc({ result: 'failed' });
    logger.warn(
      { deliveryId: d.id, eventId: d.feed_event_id, endpointId: d.endpoint_id, error: EVENT_GONE },
      'webhook delivery failed for good',
    );
  }

  /** A failed attempt: its backoff, giving up after 72 hours, disabling the endpoint after 24. */
  async function recordFailed(d: ClaimedDelivery, o: PostOutcome): Promise<void> {
    await db.query(insertAttempt, [d.id, o.at, o.statusCode, o.durationMs, o.error]);
    const waitMs = retryDelayMs(d.attempts + 1, retry, random);
    const { rows } = await db.query<{ state: string; attempts: number; failing_since: Date | null }>(
      recordFailedAttempt,
      [d.id, senderId, o.statusCode, o.error, waitMs / 1000, retry.giveUpAfterMs / 1000, o.at],
    );
    const after = rows[0];
    if (!after) return; // Another sender took it over after this one's lease ran out.
    if (after.state === 'pending') retryDue(waitMs);
    const log = {
      deliveryId: d.id,
      eventId: d.feed_event_id,
      endpointId: d.endpoint_id,
      attempts: after.attempts,
    };
    if (after.state === 'failed') {
      metrics?.deliveries.inc({ result: 'failed' });
      logger.warn({ ...log, error: o.error }, 'webhook delivery failed for good');
    } else {
      metrics?.deliveries.inc({ result: 'failed_attempt' });
    }
    const disabled = await db.query<{ url: string; failing_since: Date; disabled_reason: string }>(
      disableFailingEndpoint,
      [d.endpoint_id, retry.disableAfterMs / 1000],
    );
    if (disabled.rows[0]) {
      const { url, failing_since, disabled_reason } = disabled.rows[0];
      logger.warn(
        {
          event: 'webhook_endpoint_disabled',
          endpointId: d.endpoint_id,
          url,
          failingSince: failing_since,
          reason: disabled_reason,
        },
        'webhook endpoint disabled: its deliveries have done nothing but fail',
      );
    }
  }

  /** One delivery posted and, unless delivered, recorded: whether it was delivered. */
  async function postOne(d: Claimed, delivered: [ClaimedDelivery, PostOutcome][]): Promise<boolean> {
    if (d.body === null) {
      await abandon(d).catch((err) =>
        logger.warn({ err, deliveryId: d.id }, 'could not record a webhook delivery whose event is gone'),
      );
      return false;
    }
    const outcome = await poster.post({
      url: d.url,
      secret: d.secret,
      eventId: d.feed_event_id,
      body: d.body,
    });
    if (outcome.delivered) {
      delivered.push([d, outcome]);
      return true;
    }
    await recordFailed(d, outcome).catch((err) =>
      logger.warn({ err, deliveryId: d.id }, 'could not record a webhook attempt; it will be posted again'),
    );
    return false;
  }

  /**
   * A head and the next deliveries of its key claimed with it, one after another (decision 0107):
   * each is posted once the one before it was answered 2xx, while there is time (CHAIN_BUDGET_MS);
   * from the first that was not (or a gap in the chain, or stopping), the rest are handed back
   * unposted, to be claimed again behind their new head.
   */
  async function postChain(
    chain: readonly Claimed[],
    stopping: AbortSignal,
    delivered: [ClaimedDelivery, PostOutcome][],
  ): Promise<void> {
    let k = 0;
    while (k < chain.length) {
      // In the key's order with no gap: a delivery is only posted behind the one before it.
      if (chain[k].chain_pos !== k) break;
      if (k > 0 && (stopping.aborted || performance.now() > chain[k].nextPostBy)) break;
      k++;
      if (!(await postOne(chain[k - 1], delivered))) break;
    }
    if (k < chain.length)
      await db.query(releaseDeliveries, [chain.slice(k).map((d) => d.id), senderId]).catch(() => {});
  }

  /**
   * Posts a claimed batch, then records it: a failure at once (its backoff starts from its
   * answer), the 2xx answers together once every post of the batch is back. If the database
   * fails us, the lease runs out and those deliveries are posted again (at least once).
   */
  async function settle(claimed: readonly Claimed[], stopping: AbortSignal): Promise<void> {
    if (stopping.aborted) {
      // Stopping before any was posted: back at once, not at the lease's end.
      await db.query(releaseDeliveries, [claimed.map((d) => d.id), senderId]).catch(() => {});
      return;
    }
    const delivered: [ClaimedDelivery, PostOutcome][] = [];
    await Promise.all(chainsOf(claimed).map((chain) => postChain(chain, stopping, delivered)));
    await recordDelivered(delivered).catch((err) =>
      logger.warn(
        { err, deliveries: delivered.length },
        'could not record webhook deliveries; they will be posted again',
      ),
    );
  }

  /**
   * How long after its claim a chain's next post may start: within the budget, and so that the
   * post and the batch's recording end before the lease does. None is claimed where that is never.
   */
  const chainWindowMs = Math.min(CHAIN_BUDGET_MS, leaseSeconds * 1000 - postTimeoutMs - RECORD_MARGIN_MS);
  const claimStatement = claimDueDeliveries({
    senderId,
    leaseSeconds,
    batchSize,
    chainAfter: chainWindowMs > 0 ? CHAIN_LENGTH - 1 : 0,
  });
  async function claim(): Promise<Claimed[]> {
    // Read before the claim: the lease, which the database starts later, holds at least this long.
    const nextPostBy = performance.now() + chainWindowMs;
    const { rows } = await db.query<ClaimedRow>(claimStatement);
    statistics.claimed(rows.length);
    return rows.map((r) => ({ ...claimedDelivery(r), nextPostBy }));
  }

  const loop = startLeaseLoop(
    { claim, settle },
    { name: 'webhook sender', logger, idlePollMs: opts.idlePollMs, idlePollMaxMs: opts.idlePollMaxMs, lanes },
  );
  logger.info({ senderId, concurrency: opts.concurrency, leaseSeconds }, 'webhook sender started');

  return {
    senderId,
    loop,
    async stop() {
      await loop.stop();
      // After the loop: a settle finishing meanwhile may still have recorded a failure.
      retryAts.length = 0;
      if (retryTimer) clearTimeout(retryTimer);
      await statistics.pending;
      poster.close();
    },
  };
}
