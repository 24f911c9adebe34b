import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

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
      'Set FERRY_OPERATOR_API_KEY to the operator API key (printed by the first `ferry serve`).',
    );
  }
  return { baseUrl, operatorKey };
}

/** A small typed client of the operator admin API (/admin/v1/). */
export class AdminClient {
  constructor(private readonly opts: AdminClientOptions) {}

  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.opts.operatorKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.opts.baseUrl}/admin/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text === '' ? null : JSON.parse(text);
    if (!res.ok) throw new AdminApiError(res.status, parsed);
    return parsed as T;
  }
}
