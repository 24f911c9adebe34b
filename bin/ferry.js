#!/usr/bin/env node
// The `ferry` command. Ferry runs from its TypeScript sources, loaded through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
