#!/usr/bin/env node
// Compiles src/ to dist/ (what `npm start`, bin/ferry.js and `npx ferry` run).
// Usage: node scripts/build.mjs [--if-stale]
//   --if-stale  do nothing when dist/ is newer than every input (src/, examples/, the tsconfigs)
// The build goes to a fresh directory that then replaces dist/, so files of moved or deleted
// sources never linger, and a failed build leaves the previous dist/ as it was.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');
// Everything tsc reads from the project, and this script (a change here may change the output).
const INPUTS = ['src', 'examples', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs'];

/** The newest modification time under `path`; directories count too (a moved file changes its directory). */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

function isStale() {
  if (!existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  return INPUTS.some((input) => newestMtime(join(ROOT, input)) > built);
}

/** Files tsc does not emit but the code reads at run time (SQL migrations, …): copied beside their modules. */
function copyAssets(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) copyAssets(source, join(to, entry.name));
    else if (!entry.name.endsWith('.ts')) cpSync(source, join(to, entry.name));
  }
}

function build() {
  const tscBin = join(ROOT, 'node_modules/typescript/bin/tsc');
  if (!existsSync(tscBin)) {
    console.error(
      'ferry build: typescript is not installed (a dev dependency): run `npm ci` with dev dependencies.',
    );
    return 1;
  }
  const started = new Date();
  const out = join(ROOT, `dist.building-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  const tsc = spawnSync(
    process.execPath,
    [tscBin, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', out],
    {
      stdio: 'inherit',
    },
  );
  if (tsc.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    console.error('ferry build: tsc failed; dist/ was left as it was.');
    return 1;
  }
  copyAssets(join(ROOT, 'src'), join(out, 'src'));
  // Stamped with the start time: a source saved while tsc ran makes the next --if-stale build again.
  writeFileSync(join(out, '.build-stamp'), `${started.toISOString()}\n`);
  utimesSync(join(out, '.build-stamp'), started, started);
  rmSync(DIST, { recursive: true, force: true });
  renameSync(out, DIST);
  console.error(`ferry build: compiled src/ to ${relative(process.cwd(), DIST) || '.'}/`);
  return 0;
}

const ifStale = process.argv.includes('--if-stale');
process.exitCode = ifStale && !isStale() ? 0 : build();
