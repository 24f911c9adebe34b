import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Db, sql } from '../../src/infra/db/db.ts';
import { buildTestAppOn, tokenFor } from '../helpers/test-app.ts';
import { createTestDb, type TestDb } from '../helpers/test-db.ts';

const ROWS = 200_000;

describe('list endpoints stream 200,000 processes without buffering them', () => {
  let tdb: TestDb;
  let app: FastifyInstance;
  let port: number;
  let headers: Record<string, string>;
  let pagesFetched = 0;

  before(async () => {
    tdb = await createTestDb();
    const counting: Db = {
      ...tdb.db,
      query: (s, p) => {
        if (s.name.startsWith('listImportProcesses_')) pagesFetched++;
        return tdb.db.query(s, p);
      },
    };
    ({ app } = await buildTestAppOn(counting));
    ({ headers } = await tokenFor(app, ['BIG', 'SMALL']));
    await tdb.db.query(
      sql(
        '',
        `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event)
         SELECT 'BIG', 'ext-' || lpad(g::text, 7, '0'), 'PENDING', '{}', '{"event":"EVENT_ACCOUNT_IMPORT_PROCESS_CREATED","occurred_at":"2026-01-01T00:00:00Z","data":null}'
           FROM generate_series(1, $1) g`,
      ),
      [ROWS],
    );
    // A server's autovacuum would have analysed a table this size; PGlite has none.
    await tdb.db.exec('ANALYZE import_processes');
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  after(async () => {
    await app.close();
    await tdb.cleanup();
  });

  it('reads pages only as fast as the client takes them, and delivers every record in order', async () => {
    pagesFetched = 0;
    const chunks: Buffer[] = [];
    let firstByteMs = 0;
    const started = performance.now();
    let pagesWhilePaused = 0;
    await new Promise<void>((resolve, reject) => {
      const req = request(
        { port, path: '/v1/data-import/pending-account-import-processes/BIG/', headers },
        (res) => {
          assert.equal(res.statusCode, 200);
          res.once('data', (c: Buffer) => {
            firstByteMs = performance.now() - started;
            chunks.push(c);
            // Stop reading: a server that streams stops fetching once the socket is full.
            res.pause();
            setTimeout(() => {
              pagesWhilePaused = pagesFetched;
              res.on('data', (d: Buffer) => chunks.push(d));
              res.on('end', resolve);
              res.resume();
            }, 1500);
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
    const totalPages = Math.ceil(ROWS / 2000) + 1;
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { external_account_number: string }[];
    assert.equal(body.length, ROWS);
    for (let i = 0; i < ROWS; i += 9973)
      assert.equal(body[i].external_account_number, `ext-${String(i + 1).padStart(7, '0')}`);
    assert.ok(
      pagesWhilePaused < totalPages / 2,
      `fetched ${pagesWhilePaused} of ${totalPages} pages while the client was paused`,
    );
    assert.equal(pagesFetched, totalPages);
    assert.ok(firstByteMs < 5_000, `first byte after ${firstByteMs} ms`);
    console.log(
      `pages fetched while paused: ${pagesWhilePaused}/${totalPages}; first byte ${firstByteMs.toFixed(0)} ms`,
    );
  });

  it('an empty list is a well-formed []', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/v1/data-import/all-account-import-processes/SMALL/',
      headers,
    });
    assert.equal(res.body, '[]');
  });
});
