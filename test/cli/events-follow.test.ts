/**
 * `ferry events tail --follow` once caught up holds the live stream open: no request a poll (the
 * service logged one line each), only the events printed, and a cut connection opened again after
 * the last cursor, told on stderr, with no event lost or repeated.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runEventsCommand } from '../../src/cli/events-commands.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { listeningTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { feedSettled } from '../helpers/test-db.ts';

const SUPPLIER = 'FOLLOWED';

const insertNote = sql(
  '',
  `INSERT INTO events (import_supplier, external_account_number, type, occurred_at, data)
   VALUES ($1, $2, 'EVENT_NOTE_ADDED', now(), '{}'::jsonb)`,
);
const addNote = (db: Db, ext: string) => db.query(insertNote, [SUPPLIER, ext]);

async function until(what: string, check: () => boolean, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('ferry events tail --follow', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let apiKey: string;
  /** Feed requests the service received. */
  let feedRequests = 0;

  before(async () => {
    ({ t } = await listeningTestApp());
    t.app.server.on('request', (req: { url?: string }) => {
      if (req.url?.startsWith('/v2/data-import/events/')) feedRequests++;
    });
    ({ apiKey } = await tokenFor(t.app, [SUPPLIER]));
    const address = t.app.server.address() as { port: number };
    proxy = await startTcpProxy({ host: '127.0.0.1', port: address.port });
  });
  after(async () => {
    await proxy?.close();
    await t?.close();
  });

  it('asks once and holds the stream: events only, and a cut connection resumed after the cursor', async () => {
    let out = '';
    let err = '';
    const stop = new AbortController();
    const done = runEventsCommand(['tail', '--supplier', SUPPLIER, '--after', 'now', '--follow', '--json'], {
      write: (s) => {
        out += s;
      },
      err: (s) => {
        err += s;
      },
      env: { FERRY_URL: `http://127.0.0.1:${proxy.port}`, FERRY_API_KEY: apiKey },
      signal: stop.signal,
    });
    const printed = () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).external_account_number);
    await until('the first page and the stream', () => feedRequests >= 2);
    // Three seconds of nothing new: polling every half second asked six more times.
    await new Promise((r) => setTimeout(r, 3_000));
    assert.equal(feedRequests, 2, 'one page, then one stream');
    assert.equal(err, '', 'nothing told while waiting');

    await addNote(t.db, 'EXT-1');
    await feedSettled(t.db);
    await until('the first event', () => printed().length === 1);

    proxy.cutAll();
    await until('the reconnection told', () => /reconnecting after cursor/.test(err));
    await addNote(t.db, 'EXT-2');
    await feedSettled(t.db);
    await until('the event after the cut', () => printed().length === 2);
    assert.deepEqual(printed(), ['EXT-1', 'EXT-2'], 'nothing lost or repeated');
    assert.equal(feedRequests, 3, 'one more stream, no polling');

    stop.abort();
    assert.equal(await done, 0, err);
    const told = err.trim().split('\n');
    assert.equal(told.length, 2, err);
    assert.match(told[0], /^ferry events tail: .*; reconnecting after cursor \S+$/);
    assert.match(told[1], /^Stopped at cursor \S+: resume with --after \S+$/);
  });
});
