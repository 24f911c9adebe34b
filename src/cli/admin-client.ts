/**
 * The operator CLI's side of the admin API: where the service and the operator key are found,
 * the generated typed client signed in with that key, and the errors a call can end in.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Client } from 'openapi-fetch';
import { createFerryClient, type paths } from '../client/index.ts';

export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const b = body as { detail?: string; code?: string; errors?: { attr: string; detail: string }[] } | null;
    const items = b?.errors?.map((e) => `\n  ${e.attr}: ${e.detail}`).join('') ?? '';
    super(`${status} ${b?.code ?? ''}: ${b?.detail ?? JSON.stringify(body)}${items}`);
  }
}

export interface AdminClientOptions {
  baseUrl: string;
  operatorKey: string;
}

/** FERRY_URL and FERRY_OPERATOR_API_KEY, falling back to the key a local `ferry serve` saved in DATA_DIR. */
export function adminClientOptionsFromEnv(
  env: Record<string, string | undefined> = process.env,
): AdminClientOptions {
  const baseUrl = (env.FERRY_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  let operatorKey = env.FERRY_OPERATOR_API_KEY ?? env.OPERATOR_API_KEY;
  if (!operatorKey) {
    const file = join(resolve(env.DATA_DIR ?? './data'), 'operator-api-key');
    if (existsSync(file)) operatorKey = readFileSync(file, 'utf8').trim();
  }
  if (!operatorKey) {
    throw new Error(
      'Set FERRY_OPERATOR_API_KEY to the operator API key (the first `ferry serve` saves it in DATA_DIR/operator-api-key).',
    );
  }
  return { baseUrl, operatorKey };
}

/** The service could not be reached at all: no answer, so no status and no body. */
export class ServiceUnreachableError extends Error {
  constructor(url: string, cause: unknown) {
    const c = (cause as { cause?: { code?: string; message?: string } })?.cause ?? cause;
    const why = (c as { code?: string })?.code ?? (c as Error)?.message ?? String(c);
    super(
      `cannot reach the Ferry service at ${url} (${why}). Is it running (\`ferry serve\`)? FERRY_URL sets its address.`,
    );
  }
}

/**
 * The operator's client: the generated typed client (`src/client/`, openapi-fetch over
 * generated/openapi.d.ts) signed in with the operator key, so every admin call names a path of
 * the OpenAPI document and its parameters, body and answer are typed by it (decision 0056).
 */
export type AdminApi = Client<paths>;

export function createAdminApi(opts: AdminClientOptions): AdminApi {
  const api = createFerryClient({ baseUrl: opts.baseUrl, operatorKey: opts.operatorKey });
  // No answer at all (refused, unknown host, reset): said with the URL, not as fetch's "fetch failed".
  api.use({ onError: ({ error }) => new ServiceUnreachableError(opts.baseUrl, error) });
  return api;
}

/** What openapi-fetch answers for one call: the parsed body of a success or of an error. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The error body as the service sent it: null when empty, text when it is not JSON (a proxy's page). */
function apiError({ error, response }: Answer<unknown>): AdminApiError {
  return new AdminApiError(response.status, error === undefined || error === '' ? null : error);
}

/** The body of a successful answer; an error status throws AdminApiError with the service's body. */
export async function bodyOf<T>(call: Promise<Answer<T>>): Promise<NonNullable<T>> {
  const answer = await call;
  if (!answer.response.ok) throw apiError(answer);
  if (answer.data === undefined || answer.data === null)
    throw new AdminApiError(answer.response.status, 'an empty answer where a body was expected');
  return answer.data;
}

/** A streamed body (the exports), read as it arrives; an empty answer is an empty stream. */
export async function streamOf(
  call: Promise<Answer<ReadableStream<Uint8Array> | null>>,
): Promise<AsyncIterable<Uint8Array>> {
  const answer = await call;
  if (!answer.response.ok) throw apiError(answer);
  return answer.data ?? (async function* () {})();
}

/** For answers without a body (204): an error status throws AdminApiError. */
export async function succeeded(call: Promise<Answer<unknown>>): Promise<void> {
  const answer = await call;
  if (!answer.response.ok) throw apiError(answer);
}
