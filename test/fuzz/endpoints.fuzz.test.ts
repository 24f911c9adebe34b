/**
 * The CI fuzz run (docs/product.md, Targets): a few hundred generated requests per data-import and admin
 * endpoint, fixed seed. Oracles: never a 5xx, every error body in our format, every attr a path of
 * the input, a refused write stores nothing (fuzz-oracles.ts). A failure prints fast-check's
 * shrunk counterexample as a curl reproducer. The long run is `npm run fuzz` (scripts/fuzz.ts).
 * FUZZ_RUNS and FUZZ_SEED override the run count and seed.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { endpointSpecs } from './fuzz-endpoints.ts';
import { fuzzEndpoint } from './fuzz-runner.ts';
import { openFuzzWorld } from './fuzz-world.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_501);

const world = await openFuzzWorld();
const specs = endpointSpecs(world);

describe(`fuzzing every endpoint (${RUNS} requests each, seed ${SEED})`, () => {
  after(() => world.close());

  it('finds every data-import and admin route in the app', () => {
    const names = specs.map((s) => s.name);
    for (const name of [
      'accounts.validate',
      'accounts.create',
      'accounts.bulk',
      'accounts.status',
      'transfer-status',
      'list.all',
      'list.pending',
      'list.imported',
      'notes.create',
      'transactions.create',
      'statements.create',
      'payment-instruction.create',
      'graphql',
      'admin.suppliers.create',
      'admin.suppliers.list',
      'admin.suppliers.show',
      'admin.suppliers.update',
      'admin.api-keys.create',
      'admin.api-keys.list',
      'admin.api-keys.revoke',
      'admin.processes.show',
      'admin.processes.cancel',
      'admin.processes.retry',
    ]) {
      assert.ok(names.includes(name), `${name} not found among ${names.join(', ')}`);
    }
  });

  for (const spec of specs) {
    it(`${spec.name} (${spec.route.method} ${spec.route.path}): no 5xx, our error format, real attrs, refused writes store nothing`, async () => {
      const { failures, stats } = await fuzzEndpoint(world, spec, { runs: RUNS, seed: SEED });
      assert.equal(
        failures.length,
        0,
        `after ${stats.bodies} requests:\n${failures.map((f) => f.reproducer).join('\n\n')}\n(npm run fuzz -- --endpoint ${spec.name} --seed ${SEED} --runs ${RUNS} lists every distinct violation)`,
      );
    });
  }
});
