import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWorker } from '../../src/account-import/queue/worker.ts';
import { runPushCommand } from '../../src/cli/push/push-command.ts';
import { createTestApp } from './test-app.ts';

/**
 * `ferry push accounts …` in this process: stdout and stderr (progress included) kept and
 * readable while it runs. Progress is written rarely unless `env` says otherwise.
 */
export function startPush(args: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const progressStream = { isTTY: false, write: (s: string) => (err += s) } as unknown as NodeJS.WriteStream;
  const done = runPushCommand(['accounts', ...args], {
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
    progressStream,
    env: { FERRY_PUSH_PROGRESS_MS: '60000', ...env },
  });
  return { done, out: () => out, err: () => err };
}

/** startPush, to its end: the exit code and what it wrote. */
export async function push(args: string[]) {
  const run = startPush(args);
  const code = await run.done;
  return { code, out: run.out(), err: run.err() };
}

/** The lines of an NDJSON file (a report), none when it does not exist. */
// biome-ignore lint/suspicious/noExplicitAny: report lines are loose JSON
export const readNdjson = (path: string): Record<string, any>[] =>
  existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];

/**
 * The service on a loopback port with a worker creating what is scheduled, and a temporary
 * folder for books and reports: what a push runs against. `close` stops all three.
 */
export async function serviceForPush(folderPrefix: string) {
  const t = await createTestApp({ RATE_LIMIT_PER_SECOND: '100000' });
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const worker = startWorker(t.config, {
    db: t.db,
    logger: { info() {}, warn() {}, error() {} },
    idlePollMs: 20,
  });
  const dir = mkdtempSync(join(tmpdir(), folderPrefix));
  return {
    t,
    baseUrl,
    dir,
    async close() {
      await worker.stop();
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
