/**
 * A typed client for Ferry's REST API (openapi-fetch over the generated types): every path,
 * parameter, body and answer is checked by the compiler against the OpenAPI document.
 *
 *   const ferry = createFerryClient({ baseUrl: 'http://localhost:8080', token });
 *   const { data, error, response } = await ferry.POST('/v2/data-import/accounts/', { body: account });
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../generated/openapi.d.ts';

export type { components, operations, paths } from '../../generated/openapi.d.ts';

export interface FerryClientOptions {
  baseUrl: string;
  /** A data-import token (sent as `Token <token>`), or the operator key for /admin/ (sent as `Bearer <key>`). */
  token?: string;
  operatorKey?: string;
  fetch?: typeof globalThis.fetch;
}

export function createFerryClient(options: FerryClientOptions): Client<paths> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Token ${options.token}`;
  else if (options.operatorKey) headers.authorization = `Bearer ${options.operatorKey}`;
  return createClient<paths>({ baseUrl: options.baseUrl, headers, fetch: options.fetch });
}
