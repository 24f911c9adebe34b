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

/** A small typed client of the operator admin API (/admin/v1/). */
export class AdminClient {
  constructor(private readonly opts: AdminClientOptions) {}

  get baseUrl(): string {
    return this.opts.baseUrl;
  }

  /** The raw answer of a call, for bodies read as a stream (exports); an error status throws. */
  async fetch(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.opts.operatorKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${this.opts.baseUrl}/admin/v1${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new ServiceUnreachableError(this.opts.baseUrl, err);
    }
    if (!res.ok) {
      const text = await res.text();
      let parsed: unknown = text === '' ? null : text;
      try {
        parsed = JSON.parse(text);
      } catch {} // not our error format (a proxy's page): shown as text
      throw new AdminApiError(res.status, parsed);
    }
    return res;
  }

  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const text = await (await this.fetch(method, path, body)).text();
    return (text === '' ? null : JSON.parse(text)) as T;
  }
}
