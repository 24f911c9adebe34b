/**
 * `ferry dev …`: development tools. They live in the checkout's dev/ folder, outside src/, so the
 * build (dist/) never ships them (decision 0063); the compiled CLI loads their TypeScript through
 * tsx, a dev dependency. Without the checkout's dev/ or without the dev dependencies, the command
 * says so in one line and exits 1.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The vendor simulator's command, relative to the repository root. */
export const VENDOR_SIM_CLI = 'dev/vendor-simulator/vendor-simulator-cli.ts';

interface VendorSimulatorCliModule {
  runVendorSimulatorCli(argv: string[]): Promise<number>;
}

/** Imports a TypeScript module by URL. */
type TsImport = (url: string) => Promise<unknown>;

export interface DevToolDeps {
  /** Where to look for the repository root (this module's folder and those above it). */
  from?: string;
  /** tsx's tsImport; fails with ERR_MODULE_NOT_FOUND when tsx (a dev dependency) is not installed. */
  loadTsImport?: () => Promise<TsImport>;
  stderr?: { write(text: string): unknown };
}

/** The folder above `from` (or `from` itself) holding `relative`, or null. */
function findUp(from: string, relative: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, relative))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

async function loadTsx(): Promise<TsImport> {
  const { tsImport } = await import('tsx/esm/api');
  return (url) => tsImport(url, import.meta.url);
}

/** `ferry dev vendor-sim [--port N] [--host H]`: the payment vendor simulator, until a signal stops it. */
export async function runVendorSimulatorDevTool(argv: string[], deps: DevToolDeps = {}): Promise<number> {
  const stderr = deps.stderr ?? process.stderr;
  const root = findUp(deps.from ?? dirname(fileURLToPath(import.meta.url)), VENDOR_SIM_CLI);
  if (root === null) {
    stderr.write(
      `ferry dev vendor-sim is a development tool: it runs from a checkout of the repository (${VENDOR_SIM_CLI}), which this installation does not have.\n`,
    );
    return 1;
  }
  let tsImport: TsImport;
  try {
    tsImport = await (deps.loadTsImport ?? loadTsx)();
  } catch (err) {
    if ((err as NodeJS.ErrnoException | undefined)?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    stderr.write('ferry dev vendor-sim needs the dev dependencies (tsx): run `npm ci` without --omit=dev.\n');
    return 1;
  }
  const cli = (await tsImport(pathToFileURL(join(root, VENDOR_SIM_CLI)).href)) as VendorSimulatorCliModule;
  return cli.runVendorSimulatorCli(argv);
}
