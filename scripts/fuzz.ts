/**
 * The long fuzz run: `npm run fuzz -- --runs 10000 [--seed N] [--endpoint name[,name]] [--max-failures N]`.
 * Fuzzes every data-import and admin endpoint of the app (on PGlite, or on DATABASE_URL),
 * prints the seed, a table of counts per endpoint and, for each distinct violation, fast-check's
 * shrunk counterexample as a curl reproducer. Exits 1 on any violation.
 */
import { parseArgs } from 'node:util';
import { endpointSpecs } from '../test/fuzz/fuzz-endpoints.ts';
import { emptyStats, type Failure, fuzzEndpoint, STATS_HEADER, statsLine } from '../test/fuzz/fuzz-runner.ts';
import { openFuzzWorld } from '../test/fuzz/fuzz-world.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string' },
    endpoint: { type: 'string' },
    'max-failures': { type: 'string', default: '5' },
    list: { type: 'boolean', default: false },
  },
});

const runs = Number(values.runs);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const maxFailures = Number(values['max-failures']);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed) || !Number.isInteger(maxFailures)) {
  console.error(
    'usage: npm run fuzz -- [--runs N] [--seed N] [--endpoint name[,name]] [--max-failures N] [--list]',
  );
  process.exit(2);
}

const world = await openFuzzWorld();
let exitCode = 0;
try {
  const wanted = values.endpoint?.split(',').map((s) => s.trim());
  const specs = endpointSpecs(world).filter((s) => !wanted || wanted.includes(s.name));
  if (values.list || specs.length === 0) {
    for (const s of endpointSpecs(world))
      console.log(`${s.name.padEnd(34)}${s.route.method} ${s.route.path}${s.generic ? '  (generic)' : ''}`);
    process.exit(specs.length === 0 ? 2 : 0);
  }
  console.log(
    `fuzz: seed ${seed}, ${runs} runs per endpoint, ${specs.length} endpoints, database ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite'}`,
  );
  console.log(STATS_HEADER);
  const total = emptyStats();
  const failures: Failure[] = [];
  const started = Date.now();
  for (const spec of specs) {
    const result = await fuzzEndpoint(world, spec, { runs, seed, maxFailures, finish: true });
    console.log(statsLine(spec.name + (spec.generic ? '*' : ''), result.stats));
    for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += result.stats[k];
    failures.push(...result.failures);
  }
  console.log(statsLine('total', total));
  console.log(
    `(${((Date.now() - started) / 1000).toFixed(1)} s; * = generic generators; format/attr/effect/other count requests with such a violation)`,
  );
  if (failures.length > 0) {
    exitCode = 1;
    console.log(
      `\n${failures.length} distinct violation(s); reproduce with --seed ${seed} (set FERRY_URL, FERRY_TOKEN, FERRY_OPERATOR_API_KEY for curl):\n`,
    );
    for (const f of failures) console.log(`${f.reproducer}\n`);
  } else {
    console.log('\nno violations');
  }
} finally {
  await world.close();
}
process.exit(exitCode);
