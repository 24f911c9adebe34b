#!/usr/bin/env node
// The `ferry` command: runs the JavaScript that `npm run build` compiles from src/ into dist/
// (`npm ci` and `npm start` build it when it is missing or older than src/).
import { existsSync } from 'node:fs';

const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('ferry: dist/ is missing: run `npm run build` (or `npm ci`) first.\n');
  process.exit(1);
}
const { main: run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));
