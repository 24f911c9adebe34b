/**
 * The service the fuzzer talks to: the whole app on a fresh database (PGlite, or a schema of its
 * own on DATABASE_URL), a vendor simulator, suppliers, a key and token, imported accounts for the
 * follow-ups, processes in every state for the status and admin endpoints, and documents in the
 * store. The app's error log is captured so a 500 can be classified by its cause.
 */
import { Writable } from 'node:stream';
import { startVendorSimulator, type VendorSimulator } from '../../dev/vendor-simulator/vendor-simulator.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { importAccounts } from '../helpers/imported-accounts.ts';
import { stageProcess } from '../helpers/processes.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

export const FUZZ_SUPPLIER = 'FUZZ';
/** A supplier the admin fuzzer may change at will (the others stay as set up). */
export const ADMIN_SUPPLIER = 'FUZZ_ADMIN';
export const PAUSED_SUPPLIER = 'FUZZ_PAUSED';
export const FUZZ_ROOT = 'fuzz/docs';

export interface FuzzWorld {
  t: TestApp;
  sim: VendorSimulator;
  /** Authorization for the data-import API (a key for every supplier). */
  tokenHeaders: Record<string, string>;
  /** The key the GraphQL fuzzer may exchange; never revoked. */
  apiKey: string;
  refreshToken: string;
  /** Keys the revoke fuzzer may revoke. */
  spareKeyIds: string[];
  /** External numbers of imported (created) accounts of FUZZ_SUPPLIER. */
  imported: string[];
  /** Processes of FUZZ_SUPPLIER in each state, by external number. */
  processes: string[];
  /** The cause the app logged for a request that failed unexpectedly, by request id. */
  causes: Map<string, string>;
  close(): Promise<void>;
}

export async function openFuzzWorld(): Promise<FuzzWorld> {
  const causes = new Map<string, string>();
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) {
        if (!line) continue;
        try {
          const entry = JSON.parse(line) as { reqId?: string; err?: { message?: string; type?: string } };
          if (entry.reqId && entry.err) {
            // PGlite's error class is minified to a letter: its message says enough.
            const type = entry.err.type && entry.err.type.length > 2 ? `${entry.err.type}: ` : '';
            causes.set(entry.reqId, `${type}${entry.err.message ?? ''}`);
          }
        } catch {
          // not a log line of ours
        }
      }
      if (causes.size > 10_000) causes.clear();
      done();
    },
  });
  const sim = await startVendorSimulator();
  const t = await createTestApp(
    { ...sim.env, RATE_LIMIT_PER_SECOND: '1000000' },
    { logger: { level: 'error', stream } },
  );
  const { headers, apiKey } = await tokenFor(t.app, ['*'], [FUZZ_SUPPLIER, ADMIN_SUPPLIER, PAUSED_SUPPLIER]);
  await admin(t.app, 'PATCH', `/import-suppliers/${FUZZ_SUPPLIER}/`, { document_root: FUZZ_ROOT }, 200);
  await admin(t.app, 'PATCH', `/import-suppliers/${PAUSED_SUPPLIER}/`, { status: 'Paused' }, 200);
  const refresh = await t.app.inject({
    method: 'POST',
    url: '/v1/graphql/',
    payload: {
      query: `mutation { obtainToken(input: {APIKey: ${JSON.stringify(apiKey)}}) { refreshToken } }`,
    },
  });
  const refreshToken = refresh.json().data.obtainToken.refreshToken as string;
  const spareKeyIds: string[] = [];
  for (let i = 0; i < 3; i++) {
    const k = await admin<{ id: string }>(t.app, 'POST', '/api-keys/', {
      name: `spare ${i}`,
      import_suppliers: [FUZZ_SUPPLIER],
    });
    spareKeyIds.push(k.id);
  }
  const imported = await importAccounts(
    t,
    headers,
    [1, 2, 3].map((n) => accountFor(FUZZ_SUPPLIER, n)),
  );
  const processes: string[] = [];
  for (const status of ['PENDING', 'ERRORED', 'CANCELLED', 'DRY_RUN_SUCCEEDED', 'PROCESSED'] as const) {
    const external = `P-${status}`;
    await stageProcess(t.db, FUZZ_SUPPLIER, external, status);
    processes.push(external);
  }
  const pdf = Buffer.from('%PDF-1.4\n% fuzz\n');
  for (const path of ['statements/s1.pdf', 'notes/n1.pdf'])
    await t.objectStore.put(`${FUZZ_ROOT}/${path}`, pdf);
  return {
    t,
    sim,
    tokenHeaders: headers,
    apiKey,
    refreshToken,
    spareKeyIds,
    imported,
    processes,
    causes,
    async close() {
      await t.close();
      await sim.close();
    },
  };
}
