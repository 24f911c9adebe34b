/**
 * The validate endpoint's account checks in threads of their own (decision 0049). Checking an
 * account is pure CPU work (≈ 20 µs alone); run between the event loop's other work it costs
 * several times that, since each request's parsing, routing and socket writes evict what the
 * check needs from the processor's caches. A check thread runs nothing else and keeps them warm,
 * and a second core shares the load. The thread reads the body from its JSON text (a string
 * copy) and answers the verdict (errors and supplier code) the event loop would have computed:
 * a few bytes, where copying an accepted payload back would cost about what the thread saves
 * (why create and bulk check on the event loop; the decision has the measurements).
 *
 * Nothing depends on the threads: with none configured (CHECK_THREADS=0), no text, or a thread
 * that failed, the check runs on the event loop, with the same answer.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { prepareAccountPayloadValidation } from '../accounts/payload/validate-account-payload.ts';
import { type CheckClock, type Verdict, verdictOf } from './account-check.ts';

export interface CheckJob {
  id: number;
  text: string;
  clock: CheckClock;
}

export type CheckReply = { id: number; verdict: Verdict } | { id: number; failure: string };

/**
 * The thread runs the same kind of file as this module: built JavaScript (`npm start`), or
 * TypeScript when this module itself runs under tsx (the tests), whose loader a
 * thread does not inherit and so registers first.
 */
function startThread(): Worker {
  const extension = extname(fileURLToPath(import.meta.url));
  const file = new URL(`./account-check.thread${extension}`, import.meta.url);
  if (extension !== '.ts') return new Worker(file);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return new Worker(
    `import(${tsx}).then((tsx) => { tsx.register(); return import(${JSON.stringify(file.href)}); });`,
    { eval: true },
  );
}

interface Pending {
  resolve(verdict: Verdict): void;
  reject(error: Error): void;
}

class CheckThread {
  readonly pending = new Map<number, Pending>();
  readonly worker: Worker;
  /** Whether it has answered once: a thread that dies before that (unless stopped) could not load. */
  answered = false;
  /** Set when the pool stops it. */
  stopped = false;

  constructor(onGone: (thread: CheckThread) => void) {
    this.worker = startThread();
    this.worker.on('message', (reply: CheckReply) => {
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.answered = true;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if ('verdict' in reply) pending.resolve(reply.verdict);
      else pending.reject(new Error(reply.failure));
    });
    const gone = (error: Error) => {
      onGone(this);
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', gone);
    this.worker.on('exit', (code) => gone(new Error(`check thread exited (${code})`)));
    // Idle, the thread keeps no process alive; with a check in flight, it does. (After the
    // listeners: adding a 'message' listener refs the thread again.)
    this.worker.unref();
  }

  run(job: CheckJob): Promise<Verdict> {
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(job.id, { resolve, reject });
      this.worker.postMessage(job);
    });
  }
}

export class AccountCheckPool {
  readonly #threads: CheckThread[] = [];
  #nextId = 0;
  /** Set when a thread died before its first answer: it cannot load, so none is started again. */
  #unusable = false;
  /** Checks a thread answered (the rest ran on the event loop). */
  checksInThreads = 0;

  /** `size` threads at most, started when first needed (or by `start`). */
  constructor(readonly size: number) {}

  /** Starts the threads now, so the first requests do not wait for them to load. */
  start(): void {
    while (this.#threads.length < this.size) this.#threads.push(this.#newThread());
  }

  /**
   * The verdict of `check(body, clock)`, from a thread when `text` is the JSON text `body` was
   * parsed from (the thread reads its own copy from it); on the event loop otherwise, or when the
   * thread fails.
   */
  async verdict(body: unknown, text: string | undefined, clock: CheckClock): Promise<Verdict> {
    if (text === undefined || this.size === 0 || this.#unusable) return verdictOf(body, clock);
    this.start();
    // The least busy thread.
    const thread = this.#threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    try {
      const verdict = await thread.run({ id: this.#nextId++, text, clock });
      this.checksInThreads++;
      return verdict;
    } catch {
      return verdictOf(body, clock);
    }
  }

  /** Stops every thread; checks asked for afterwards start new ones. */
  async close(): Promise<void> {
    const threads = this.#threads.splice(0);
    for (const thread of threads) thread.stopped = true;
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  #newThread(): CheckThread {
    return new CheckThread((gone) => {
      if (!gone.answered && !gone.stopped) this.#unusable = true;
      const at = this.#threads.indexOf(gone);
      if (at !== -1) this.#threads.splice(at, 1);
    });
  }
}

const shared = new Map<number, AccountCheckPool>();

/** One pool of each size per process: every app built in it (tests build many) shares the threads. */
export function sharedAccountCheckPool(size: number): AccountCheckPool {
  let pool = shared.get(size);
  if (!pool) {
    pool = new AccountCheckPool(size);
    shared.set(size, pool);
  }
  return pool;
}

/**
 * Compiles the account checks now (about 0.5 s of code generation) on the event loop and in
 * `threads` check threads, so that the first requests are not the slow ones.
 */
export function prepareAccountChecks(threads: number): void {
  prepareAccountPayloadValidation();
  sharedAccountCheckPool(threads).start();
}
