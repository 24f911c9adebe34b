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
import { startVendorSimulator, type VendorSimulator } from '../../dev/vendor-simulator/vendor-simulator.ts';
import { CLIENT_TYPES_PATH, clientTypes } from '../../scripts/generate-client.ts';
import { startWorker } from '../../src/account-import/queue/worker.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { stageProcess } from '../helpers/processes.ts';
import { admin, createTestApp, OPERATOR_KEY, type TestApp, tokenFor } from '../helpers/test-app.ts';

const SUPPLIER = 'TYPED_ENERGY';
const PROGRAMS = ['client-program.ts', 'v1-program.ts', 'operator-program.ts', 'error-program.ts'];
const OPS_SUPPLIER = 'TYPED_OPS';

describe('a client generated from /openapi.json', () => {
  let sim: VendorSimulator;
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  let token: string;
  let dir: string;
  /** Every operation the service answered, as `METHOD /path/{param}/` (the document's keys). */
  const used = new Set<string>();
  let worker: { stop(): Promise<void> };

  before(async () => {
    sim = await startVendorSimulator();
    // A rate limit the error program can exceed in one burst (the others stay far below it).
    t = await createTestApp({ ...sim.env, RATE_LIMIT_PER_SECOND: '50' });
    t.app.addHook('onResponse', async (request) => {
      used.add(`${request.method} ${request.routeOptions.url?.replace(/:(\w+)/g, '{$1}')}`);
    });
    ({ apiKey, token } = await tokenFor(t.app, [SUPPLIER]));
    await admin(t.app, 'POST', '/import-suppliers/', { code: OPS_SUPPLIER });
    await stageProcess(t.db, OPS_SUPPLIER, 'ops-errored', 'ERRORED');
    await stageProcess(t.db, OPS_SUPPLIER, 'ops-staged', 'STAGED');
    // Out of the test's worker's reach: the operator program reads its retried process back as
    // PENDING, which a worker polling every 20 ms could already have claimed (IN_PROGRESS).
    await t.db.query(
      sql(
        '',
        `UPDATE import_processes SET schedule_window_start = now() + interval '1 day' WHERE import_supplier = $1`,
      ),
      [OPS_SUPPLIER],
    );
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

  it('is what the repository holds in generated/openapi.d.ts', async () => {
    const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as Record<string, unknown>;
    const types = await clientTypes(document);
    writeFileSync(join(dir, 'openapi.ts'), types);
    assert.equal(types, readFileSync(CLIENT_TYPES_PATH, 'utf8'), 'run npm run client:generate');
  });

  it('reads every JSON answer without a cast: the programs cast only NDJSON, which is text', () => {
    for (const program of PROGRAMS) {
      const text = readFileSync(new URL(`./program/${program}`, import.meta.url), 'utf8');
      const casts = text
        .split('\n')
        .filter((line) => !/^\s*(\/?\*|\/\/|import\b)/.test(line) && /\bas\s+(?!const\b)[\w{(]/.test(line));
      assert.deepEqual(
        casts.filter((line) => !line.includes('NDJSON')),
        [],
        program,
      );
    }
  });

  it('type-checks a supplier program under tsc --strict', () => {
    for (const program of PROGRAMS)
      copyFileSync(new URL(`./program/${program}`, import.meta.url), join(dir, program));
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
        files: PROGRAMS,
      }),
    );
    const tsc = spawnSync(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', dir], {
      encoding: 'utf8',
    });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  });

  it('validates, schedules, polls and posts every follow-up through it', async () => {
    // Imported from the copy beside the freshly generated types.
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
      'supplier Ongoing',
      'validate 200',
      'schedule 201',
      'processed',
      'statuses 200 404',
      'bulk 200 400',
      'notes 201',
      'transactions 201 TRANSACTION_ADDED_TO_ACCOUNT client-1 PAYMENT 12.50 true',
      'statements 201',
      'payment instruction 201',
      'validate bulk 200 200',
      'wave 1 client-wave differences missing 1 missing',
      'events EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED PROCESSED true',
      'products null 0 null',
    ]);
  });

  it('reads every error body it provokes, each field typed, with no cast', async () => {
    const { runErrorProgram } = (await import(join(dir, 'error-program.ts'))) as {
      runErrorProgram(input: Record<string, unknown>): Promise<string[]>;
    };
    // Account 1 was imported by the supplier program above.
    const imported = accountFor(SUPPLIER, 1);
    const invalid = accountFor(SUPPLIER, 9);
    invalid.customers[0].landline = 'not a phone';
    const steps = await runErrorProgram({
      baseUrl,
      token,
      burstToken: (await tokenFor(t.app, [SUPPLIER])).token,
      supplier: SUPPLIER,
      imported,
      invalid,
      ratePerSecond: t.config.rateLimitPerSecond,
    });
    assert.deepEqual(steps, [
      'validate 400 account_failed_validation customers.0.landline invalid_phone_number',
      'create 400 import_process_failed_validation import_process customers.0.landline invalid_phone_number',
      'already imported 400 account_import_process_already_imported account_import_process_already_imported true',
      'transactions 400 TRANSACTION_IMPORT_ERROR transaction_in_future true future-1',
      'payment instruction 400 payment_instruction_not_found GOCARDLESS MD000NOSUCHMANDATE true',
      'payment instruction 400 payment_instruction_reference_mismatch MD_OTHER MD000SIMOTHER',
      `payment instruction 400 validation_error external_account_number blank, reference blank "${SUPPLIER}"`,
      '404 not_found 401 not_authenticated 403 permission_denied',
      '415 unsupported_media_type 413 payload_too_large',
      '429 throttled true',
    ]);
  });

  it('stages, processes and lists through the V1 endpoints', async () => {
    const { runV1Program } = (await import(join(dir, 'v1-program.ts'))) as {
      runV1Program(input: Record<string, unknown>): Promise<string[]>;
    };
    const steps = await runV1Program({
      baseUrl,
      token,
      supplier: SUPPLIER,
      account: accountFor(SUPPLIER, 2),
      bulkAccount: accountFor(SUPPLIER, 3),
    });
    assert.deepEqual(steps.slice(0, 2), ['validate 200, stage 201', 'process 201, status COMPLETED']);
    assert.match(steps[2], /^lists \d+ \d+ \d+$/);
    assert.equal(steps[3], 'bulk 201');
  });

  it('runs an operator program through every admin operation', async () => {
    const { runOperatorProgram } = (await import(join(dir, 'operator-program.ts'))) as {
      runOperatorProgram(input: Record<string, unknown>): Promise<string[]>;
    };
    const steps = await runOperatorProgram({
      baseUrl,
      operatorKey: OPERATOR_KEY,
      supplier: OPS_SUPPLIER,
      errored: 'ops-errored',
      staged: 'ops-staged',
    });
    assert.deepEqual(steps, [
      'suppliers Ongoing true',
      'keys true 204',
      'list 1 meter_point_on_another_account null',
      'export 3 lines',
      'process ERRORED PENDING CANCELLED',
      'bulk retry cancel',
      'progress 5 minutes',
      'outbox 200 held 0 in 0 waves',
      'wave 0 true',
      'webhook true true false 202 1 http://127.0.0.1:9/hooks 204',
      'catalogue true 1 0 2 tpr_not_found null',
    ]);
  });

  it('has used every operation of the document through the generated client', async () => {
    const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    assert.deepEqual(
      operations.filter((o) => !used.has(o)),
      [],
      'call each operation from a program in test/client/program/',
    );
  });
});
