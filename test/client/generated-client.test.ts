/**
 * A client generated from the service's own /openapi.json (openapi-typescript + openapi-fetch)
 * type-checks under `tsc --strict` and works: a small supplier program validates, schedules,
 * polls and posts each follow-up through it, against the service on a real socket.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startWorker } from '../../src/account-import/queue/worker.ts';
import { CLIENT_TYPES_PATH, clientTypes } from '../../src/client/generate.ts';
import { startVendorSimulator, type VendorSimulator } from '../../src/infra/vendors/vendor-simulator.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

const SUPPLIER = 'TYPED_ENERGY';
const PROGRAM = new URL('./program/client-program.ts', import.meta.url);

describe('a client generated from /openapi.json', () => {
  let sim: VendorSimulator;
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  let dir: string;
  let worker: { stop(): Promise<void> };

  before(async () => {
    sim = await startVendorSimulator();
    t = await createTestApp(sim.env);
    ({ apiKey } = await tokenFor(t.app, [SUPPLIER]));
    await admin(t.app, 'PATCH', `/import-suppliers/${SUPPLIER}/`, { document_root: 'typed' }, 200);
    await t.objectStore.put('typed/statements/june.pdf', Buffer.from('%PDF-1.7\n%typed client\n'));
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    worker = startWorker(t.config, {
      db: t.db,
      logger: { info() {}, warn() {}, error() {} },
      idlePollMs: 20,
    });
    dir = mkdtempSync(join(tmpdir(), 'ferry-client-'));
  });
  after(async () => {
    await worker?.stop();
    await t?.close();
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is what the repository holds in src/client/openapi.ts', async () => {
    const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as Record<string, unknown>;
    const types = await clientTypes(document);
    writeFileSync(join(dir, 'openapi.ts'), types);
    assert.equal(types, readFileSync(CLIENT_TYPES_PATH, 'utf8'), 'run npm run client:generate');
  });

  it('type-checks a supplier program under tsc --strict', () => {
    copyFileSync(PROGRAM, join(dir, 'client-program.ts'));
    symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          allowImportingTsExtensions: true,
          skipLibCheck: true,
          types: ['node'],
          lib: ['ES2023', 'DOM'],
        },
        files: ['client-program.ts'],
      }),
    );
    const tsc = spawnSync(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', dir], {
      encoding: 'utf8',
    });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  });

  it('validates, schedules, polls and posts every follow-up through it', async () => {
    // Imported from the copy beside the generated types (the repository's tsconfig leaves it out).
    const { runClientProgram } = (await import(join(dir, 'client-program.ts'))) as {
      runClientProgram(input: Record<string, unknown>): Promise<{ accountNumber: string; steps: string[] }>;
    };
    const account = accountFor(SUPPLIER, 1);
    const result = await runClientProgram({
      baseUrl,
      apiKey,
      supplier: SUPPLIER,
      account,
      statementPath: 'statements/june.pdf',
      mandate: 'MD000SIMACTIVE',
    });
    assert.match(result.accountNumber, /^A-[0-9A-F]{8}$/);
    assert.deepEqual(result.steps, [
      'validate 200',
      'schedule 201',
      'processed',
      'bulk 200 400',
      'notes 201',
      'transactions 201 TRANSACTION_ADDED_TO_ACCOUNT',
      'statements 201',
      'payment instruction 201',
    ]);
  });
});
