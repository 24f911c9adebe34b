/**
 * Two API processes on one PostgreSQL server (decision 0090): an upload to one is in force in the
 * other within a second (LISTEN/NOTIFY), without a restart, and its checks use it.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../helpers/ports.ts';
import { admin, buildTestAppOn, OPERATOR_KEY, tokenFor } from '../helpers/test-app.ts';
import { createTestDb, type TestDb, usingPostgresServer } from '../helpers/test-db.ts';
import { exampleProducts, ndjson, type Obj, regionCAccount } from './catalogue-fixtures.ts';

const SUPPLIER = 'CATALOGUE_FLEET';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('two API processes see a catalogue upload within a second', {
  skip: !usingPostgresServer() && 'needs DATABASE_URL (processes share a server, not the embedded database)',
}, () => {
  let tdb: TestDb;
  let dataDir: string;
  const children: ChildProcess[] = [];
  const urls: string[] = [];
  let headers: Record<string, string>;

  before(async () => {
    tdb = await createTestDb();
    dataDir = mkdtempSync(join(tmpdir(), 'ferry-catalogue-fleet-'));
    const { app } = await buildTestAppOn(tdb.db);
    await admin(app, 'POST', '/import-suppliers/', { code: SUPPLIER });
    ({ headers } = await tokenFor(app, [SUPPLIER], []));
    await app.close();
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      children.push(
        spawn(process.execPath, ['bin/ferry.js', 'serve', '--no-worker'], {
          env: {
            ...process.env,
            DATABASE_URL: tdb.url,
            DATA_DIR: dataDir,
            OPERATOR_API_KEY: OPERATOR_KEY,
            LOG_LEVEL: 'error',
            PORT: String(port),
            HOST: '127.0.0.1',
          },
          stdio: 'ignore',
        }),
      );
      urls.push(`http://127.0.0.1:${port}`);
    }
    for (const url of urls) {
      for (const deadline = Date.now() + 90_000; ; await sleep(100)) {
        if (
          await fetch(`${url}/readyz`).then(
            (r) => r.ok,
            () => false,
          )
        )
          break;
        assert.ok(Date.now() < deadline, `${url} not ready`);
      }
    }
  });
  after(async () => {
    for (const child of children) child.kill('SIGKILL');
    await tdb?.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const catalogueOf = async (url: string) => ((await (await fetch(`${url}/readyz`)).json()) as Obj).catalogue;

  it('an upload to one process is in force in the other within 1 s', async () => {
    const [first, second] = urls;
    assert.match(String(await catalogueOf(second)), /none loaded/);
    const account = regionCAccount(SUPPLIER, 1);
    account.supply_addresses[0].meter_points[0].agreements[0].tariff_code = 'E-1R-NOTREAL-99-01-01-Z';
    const validate = () =>
      fetch(`${second}/v2/data-import/accounts/validate/`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(account),
      });
    assert.equal((await validate()).status, 200, 'no catalogue: the form check alone');

    const upload = await fetch(`${first}/admin/v1/products/`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${OPERATOR_KEY}`, 'content-type': 'application/x-ndjson' },
      body: ndjson(exampleProducts()),
    });
    const answeredAt = Date.now();
    assert.equal(upload.status, 200, await upload.text());
    assert.equal((await catalogueOf(first)).version, 1, 'the uploading process has it when it answers');
    let seenAfter = Number.POSITIVE_INFINITY;
    for (const deadline = answeredAt + 5_000; Date.now() < deadline; await sleep(10)) {
      if ((await catalogueOf(second))?.version === 1) {
        seenAfter = Date.now() - answeredAt;
        break;
      }
    }
    assert.ok(seenAfter < 1_000, `the other process had the upload ${seenAfter} ms after it was answered`);
    const refused = await validate();
    assert.equal(refused.status, 400);
    assert.equal(((await refused.json()) as Obj).errors[0].code, 'tariff_code_not_found');
  });
});
