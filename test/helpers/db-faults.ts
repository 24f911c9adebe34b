import type { Db } from '../../src/infra/db/db.ts';

/**
 * Takes a lock on `table` in a transaction of `db` and holds it until the returned function is
 * called. ACCESS EXCLUSIVE: every other statement touching the table waits meanwhile; SHARE:
 * writes wait, reads go on.
 */
export async function holdTableLock(
  db: Db,
  table: string,
  mode: 'ACCESS EXCLUSIVE' | 'SHARE' = 'ACCESS EXCLUSIVE',
): Promise<() => Promise<void>> {
  let release!: () => void;
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const done = db.transaction(async (tx) => {
    await tx.exec(`LOCK TABLE ${table} IN ${mode} MODE`);
    locked();
    await new Promise<void>((r) => (release = r));
  });
  await Promise.race([isLocked, done]);
  return async () => {
    release();
    await done;
  };
}

/** Polls `check` until it returns a value other than undefined, or fails after `ms`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  ms = 10_000,
  everyMs = 50,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
