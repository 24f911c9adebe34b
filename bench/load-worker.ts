// Runs one autocannon load in a child process, so load generation does not share the
// service's event loop. The spec and the summary travel over the IPC channel.
import autocannon, { type Options, type RawRequest } from 'autocannon';
import { exampleAccount, mpanFor, mprnFor } from '../test/helpers/account-fixtures.ts';
import type { LoadSpec, LoadSummary } from './load.ts';

const spec = await new Promise<LoadSpec>((resolve) => process.once('message', (m) => resolve(m as LoadSpec)));

/** Request bodies generated per request: each account or batch is distinct. */
function bodyGenerator(): ((req: RawRequest) => RawRequest) | undefined {
  const g = spec.generate;
  if (!g) return undefined;
  if (g.kind === 'paths') {
    let n = 0;
    return (req) => ({ ...req, path: g.paths[n++ % g.paths.length] });
  }
  if (g.kind === 'accounts') {
    const a = exampleAccount();
    const [elec, gas] = a.supply_addresses[0].meter_points;
    let n = g.from;
    return (req) => {
      const i = n++;
      a.import_supplier = g.supplier;
      a.external_account_number = `EXT-${String(i).padStart(7, '0')}`;
      elec.identifier = mpanFor(i);
      gas.identifier = mprnFor(i);
      a.references[0].value = `REF${i}`;
      return { ...req, body: JSON.stringify(a) };
    };
  }
  let batch = 0;
  const tag = Math.random().toString(36).slice(2, 8);
  return (req) => {
    const b = batch++;
    const transactions = Array.from({ length: g.perBatch }, (_, k) => ({
      transaction_id: `b-${tag}-${b}-${k}`,
      transaction_date: '2020-01-15',
      amount: 12.5,
      type: 'PAYMENT',
      reason: 'ACCOUNT_CHARGE_PAYMENT',
    }));
    const external_account_number = g.accounts[b % g.accounts.length];
    return {
      ...req,
      body: JSON.stringify({ import_supplier: g.supplier, external_account_number, transactions }),
    };
  };
}

const setupRequest = bodyGenerator();
const opts: Options = {
  url: spec.url,
  connections: spec.connections,
  timeout: 30,
  method: spec.method,
  headers: { 'content-type': 'application/json', ...spec.headers },
};
// autocannon treats a key set to undefined as set: only the keys that apply.
if (spec.amount) opts.amount = spec.amount;
else opts.duration = spec.durationSeconds;
if (spec.body !== undefined) opts.body = spec.body;
if (setupRequest) opts.requests = [{ setupRequest }];
// Ready, then wait for the word: several generators of one load start together (runLoads).
process.send?.({ ready: true });
await new Promise((resolve) => process.once('message', resolve));
const loopBefore = performance.eventLoopUtilization();
const result = await autocannon(opts);
const loop = performance.eventLoopUtilization(loopBefore);
const summary: LoadSummary = {
  reqPerSec: result.requests.average,
  total: result['2xx'] + result.non2xx,
  ok: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  durationSeconds: result.duration,
  generatorBusy: loop.utilization,
};
process.send?.(summary, () => process.disconnect());
