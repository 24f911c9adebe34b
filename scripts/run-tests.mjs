#!/usr/bin/env node
// Runs every test/**/*.test.ts file with node's test runner (TypeScript loaded through tsx).
// Node 20's --test does not expand globs, so the files are listed here. Tests that start `ferry`
// as a process (bin/ferry.js, npm start) run the compiled dist/: it is rebuilt first when stale.
// Usage: npm test [-- <path-substring> ...]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function listTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listTests(full));
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = listTests('test')
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
if (files.some((f) => /bin\/ferry\.js|npm start/.test(readFileSync(f, 'utf8')))) {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}
// Browser tests drive Debian's Chromium; install it when it is missing and we may (root).
if (files.some((f) => f.endsWith('.browser.test.ts')) && !existsSync('/usr/bin/chromium')) {
  const canInstall = process.getuid?.() === 0;
  const installed =
    canInstall && spawnSync('bash', ['scripts/install-chromium.sh'], { stdio: 'inherit' }).status === 0;
  if (!installed) {
    if (process.env.CI) {
      console.error('Chromium is missing and could not be installed: browser tests cannot run.');
      process.exit(1);
    }
    console.error('Chromium is missing (scripts/install-chromium.sh needs root): browser tests are skipped.');
  }
}
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-concurrency=2',
    '--test-timeout=300000',
    ...files,
  ],
  { stdio: 'inherit' },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
