/**
 * The typed client's types, generated from the OpenAPI document the service serves
 * (openapi-typescript). `npm run client:generate` writes them to src/client/openapi.ts;
 * `npm run client:check` fails when that file no longer matches the document.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { migrate } from '../infra/db/migrate.ts';
import { openPgliteDb } from '../infra/db/pglite-db.ts';
import { FileObjectStore } from '../infra/storage/file-object-store.ts';
import { createPaymentVendors } from '../infra/vendors/vendor-registry.ts';

export const CLIENT_TYPES_PATH = new URL('./openapi.ts', import.meta.url);

const HEADER = `/**
 * Generated from Ferry's /openapi.json by openapi-typescript: do not edit.
 * Regenerate with \`npm run client:generate\`; CI fails when it drifts from the document.
 */
`;

/** The OpenAPI document, from the app built in memory on an empty embedded database. */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const db = await openPgliteDb(null);
  const dir = mkdtempSync(join(tmpdir(), 'ferry-openapi-'));
  try {
    await migrate(db);
    const config = loadConfig({ DATA_DIR: dir });
    const app = await buildApp(config, {
      db,
      objectStore: new FileObjectStore(dir),
      paymentVendors: createPaymentVendors(config),
      operatorKey: 'openapi-document-only',
    });
    await app.ready();
    const document = app.swagger() as unknown as Record<string, unknown>;
    await app.close();
    return document;
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** TypeScript types for the paths, operations and schemas of an OpenAPI document. */
export async function clientTypes(document: Record<string, unknown>): Promise<string> {
  return HEADER + astToString(await openapiTS(document as never, { alphabetize: true }));
}

async function main(command: string | undefined) {
  const text = await clientTypes(await openApiDocument());
  if (command === 'generate') {
    writeFileSync(CLIENT_TYPES_PATH, text);
    console.log(`wrote ${CLIENT_TYPES_PATH.pathname}`);
    return 0;
  }
  if (command === 'check') {
    const current = readFileSync(CLIENT_TYPES_PATH, 'utf8');
    if (current === text) return 0;
    console.error('src/client/openapi.ts differs from the OpenAPI document: run npm run client:generate');
    return 1;
  }
  console.error('usage: client generate | check');
  return 2;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv[2]);
}
