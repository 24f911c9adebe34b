/**
 * The service as it is deployed on a big machine (docs/decisions/0075-processes.md), launched for
 * the benchmarks that push a book through the bulk path as separate processes: the scaling series
 * (bench/scaling.ts) and the cost count (bench/cost.ts). `ferry serve --no-worker --processes N`
 * and `ferry worker --processes N` on one database, a supplier with an API key (and, when asked,
 * a webhook endpoint), and N `ferry push accounts` at once, each with its share of the book.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { accountRows, FERRY_BIN } from './end-to-end.ts';

export const OPERATOR_KEY = 'bench-operator-key-0123456789';

/** A `ferry` command as its own process tree (a cluster primary and its processes); `tail` is its last output. */
export function ferryProcess(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [FERRY_BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let tail = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => {
    tail = (tail + s).slice(-2_000);
  });
  const exited = once(child, 'exit');
  return {
    child,
    tail: () => tail.trim().split('\n').slice(-3).join(' | '),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, delay(40_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
export type FerryProcess = ReturnType<typeof ferryProcess>;

export async function call(
  base: string,
  path: string,
  init: RequestInit = {},
): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** Waits until the API answers (its first process is up), or it exits, or the deadline. */
async function waitReady(base: string, api: FerryProcess, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (api.child.exitCode !== null || api.child.signalCode !== null)
      throw new Error(`ferry serve exited (${api.child.exitCode ?? api.child.signalCode}): ${api.tail()}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {}
    await delay(200);
  }
  throw new Error(`${base} did not answer within ${deadlineMs} ms: ${api.tail()}`);
}

/** The book of `n` accounts of `supplier`, dealt round-robin into `parts` NDJSON files under `dir`. */
export async function writeBooks(opts: { dir: string; n: number; parts: number; supplier: string }) {
  const files = Array.from({ length: opts.parts }, (_, i) => join(opts.dir, `book-${i}.ndjson`));
  const outs = files.map((f) => createWriteStream(f));
  let i = 0;
  for (const [, , payload] of accountRows(opts.n, opts.supplier, 2_000_001)) {
    const out = outs[i++ % opts.parts];
    if (!out.write(`${payload}\n`)) await once(out, 'drain');
  }
  for (const out of outs) out.end();
  await Promise.all(outs.map((o) => finished(o)));
  return files;
}

export interface ServiceOptions {
  /** The database the service runs on (a connection string other processes can use). */
  url: string;
  /** API processes and worker processes, N of each. */
  processes: number;
  /** A directory of the bench's own, for the service's data and the pushes' reports. */
  dir: string;
  port: number;
  supplier: string;
}

export interface Service {
  base: string;
  api: FerryProcess;
  workers: FerryProcess;
  /** The supplier's API key (what `ferry push` is given) and a token for its requests. */
  key: string;
  headers: Record<string, string>;
  /** Registers a webhook endpoint at `url` for the supplier. */
  addWebhook(url: string): Promise<void>;
  /** N pushes at once, one a book; answers once every one has exited, and throws if one failed. */
  push(books: string[]): Promise<void>;
  stop(): Promise<void>;
}

/** Starts N API and N worker processes and makes the supplier and its key; stops them if that fails. */
export async function startService(opts: ServiceOptions): Promise<Service> {
  const { processes: n, supplier } = opts;
  const base = `http://127.0.0.1:${opts.port}`;
  const env = {
    DATABASE_URL: opts.url,
    PORT: String(opts.port),
    HOST: '127.0.0.1',
    DATA_DIR: join(opts.dir, 'data'),
    OPERATOR_API_KEY: OPERATOR_KEY,
    RATE_LIMIT_PER_SECOND: '1000000',
    LOG_LEVEL: 'error',
  };
  const api = ferryProcess(['serve', '--no-worker', '--processes', String(n)], env);
  const workers = ferryProcess(['worker', '--processes', String(n)], env);
  const stop = async () => {
    await Promise.all([api.stop(), workers.stop()]);
  };
  try {
    // 8 + 8 processes on 2 vCPUs busy with other work took over two minutes to answer.
    await waitReady(base, api, 300_000);
    await delay(1_000 + 250 * n); // the other processes of the primary start alongside
    const admin = { authorization: `Bearer ${OPERATOR_KEY}` };
    await call(base, '/admin/v1/import-suppliers/', {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ code: supplier }),
    });
    const key = String(
      (
        await call(base, '/admin/v1/api-keys/', {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ name: 'bench', import_suppliers: [supplier] }),
        })
      ).key,
    );
    const graphql = await call(base, '/v1/graphql/', {
      method: 'POST',
      body: JSON.stringify({
        query: 'mutation($k: String) { obtainToken(input: {APIKey: $k}) { token } }',
        variables: { k: key },
      }),
    });
    const token = (graphql.data as { obtainToken: { token: string } }).obtainToken.token;
    return {
      base,
      api,
      workers,
      key,
      headers: { authorization: `Token ${token}` },
      async addWebhook(url) {
        await call(base, '/admin/v1/webhook-endpoints/', {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ url, import_suppliers: [supplier] }),
        });
      },
      async push(books) {
        const pushes = books.map((book, i) =>
          ferryProcess(
            [
              'push',
              'accounts',
              book,
              '--url',
              base,
              '--api-key',
              key,
              '--report',
              join(opts.dir, `report-${i}.ndjson`),
            ],
            {},
          ),
        );
        const codes = await Promise.all(
          pushes.map((p) => once(p.child, 'exit').then(([c]) => c as number | null)),
        );
        const failed = codes.findIndex((c) => c !== 0);
        if (failed >= 0) throw new Error(`a push exited ${codes[failed]}: ${pushes[failed].tail()}`);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
