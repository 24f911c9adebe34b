#!/usr/bin/env node
// Runs every test/**/*.test.ts file with node's test runner (TypeScript loaded through tsx).
// Node 20's --test does not expand globs, so the files are listed here.
// Usage: npm test [-- <path-substring> ...]
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
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
