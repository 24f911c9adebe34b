#!/usr/bin/env node
// Start-up time (spawn → first 200 from /healthz), the CPU time the process used until then
// (steadier than wall time on a shared machine) and RSS of `ferry serve`, run two ways:
//   dist  node bin/ferry.js serve              (the compiled build: what npm start runs)
//   tsx   tsx's loader importing src/cli/main.ts (how Ferry ran before the build, decision 0001)
// Each run is a new process on the embedded database (PGlite); the two ways alternate so that
// a busy machine slows both alike.
// Usage: node scripts/measure-startup.mjs [--runs N] [--fresh] [--json]
//   --fresh  a new DATA_DIR every run (migrations included); default: one migrated DATA_DIR per way
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, fresh: { type: 'boolean' }, json: { type: 'boolean' } },
});
const RUNS = Number(values.runs);

const WAYS = {
  dist: ['bin/ferry.js', 'serve'],
  // The bin/ferry.js of decision 0001, word for word.
  tsx: [
    '--input-type=module',
    '-e',
    "import { register } from 'tsx/esm/api'; register(); const { main } = await import('./src/cli/main.ts'); process.exitCode = await main(['serve']);",
  ],
};

async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** User + system CPU time of `pid` so far, in ms (fields 14 and 15 of /proc/<pid>/stat, after the name). */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

const memory = (pid, field) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))[1]) /
  1024;

/** One start: ms until /healthz answers, CPU ms used by then, RSS then and 2 s later (MiB), and the peak RSS. */
async function startOnce(way, dataDir) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, WAYS[way], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      OPERATOR_API_KEY: 'measure-startup-operator-key',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${way}: ferry serve exited with ${child.exitCode}`);
      if (performance.now() - started > 120_000) throw new Error(`${way}: /healthz did not answer in 120 s`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const ms = performance.now() - started;
    const cpu = cpuMs(child.pid);
    const rss = memory(child.pid, 'VmRSS');
    await new Promise((r) => setTimeout(r, 2000));
    return { ms, cpu, rss, rssSettled: memory(child.pid, 'VmRSS'), peak: memory(child.pid, 'VmHWM') };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const summary = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });

const scratch = mkdtempSync(join(tmpdir(), 'ferry-startup-'));
try {
  const dirs = { dist: join(scratch, 'dist'), tsx: join(scratch, 'tsx') };
  if (!values.fresh) for (const way of Object.keys(WAYS)) await startOnce(way, dirs[way]); // migrate, unmeasured
  const runs = { dist: [], tsx: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const way of Object.keys(WAYS)) {
      runs[way].push(await startOnce(way, values.fresh ? join(scratch, `${way}-${i}`) : dirs[way]));
    }
  }
  const result = Object.fromEntries(
    Object.entries(runs).map(([way, rs]) => [
      way,
      Object.fromEntries(
        ['ms', 'cpu', 'rss', 'rssSettled', 'peak'].map((k) => [k, summary(rs.map((r) => r[k]))]),
      ),
    ]),
  );
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ runs: RUNS, fresh: Boolean(values.fresh), node: process.version, result })}\n`,
    );
  } else {
    const fmt = ({ median, min, max }, digits) =>
      `${median.toFixed(digits)} (${min.toFixed(digits)}–${max.toFixed(digits)})`;
    console.log(
      `${RUNS} runs each, ${values.fresh ? 'a fresh DATA_DIR every run' : 'a migrated DATA_DIR'}, Node ${process.version}; median (min–max)`,
    );
    console.log(
      '| way | spawn → /healthz (ms) | CPU until then (ms) | RSS at /healthz (MiB) | RSS 2 s later (MiB) | peak RSS (MiB) |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const [way, r] of Object.entries(result)) {
      console.log(
        `| ${way} | ${fmt(r.ms, 0)} | ${fmt(r.cpu, 0)} | ${fmt(r.rss, 1)} | ${fmt(r.rssSettled, 1)} | ${fmt(r.peak, 1)} |`,
      );
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
