import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

describe('service basics', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('/healthz and /readyz answer 200 when the database is reachable', async () => {
    assert.deepEqual((await t.app.inject({ method: 'GET', url: '/healthz' })).json(), { status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
  });

  it('/openapi.json is an OpenAPI 3.1 document of the routes, with the error schema', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.equal(doc.openapi, '3.1.0');
    for (const p of [
      '/v2/data-import/accounts/{import_supplier_code}/{external_identifier}/',
      '/v1/data-import/account-transfer-status/{import_supplier_code}/{external_account_number}/',
      '/v1/data-import/all-account-import-processes/{import_supplier_code}/',
      '/admin/v1/import-suppliers/',
    ]) {
      assert.ok(doc.paths[p], p);
    }
    assert.ok(doc.components.schemas.Error);
    assert.ok(doc.components.securitySchemes.token);
    assert.ok(!doc.paths['/metrics']);
  });

  it('documents every data-import POST with a request example', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const posts = Object.entries<
      Record<
        string,
        {
          requestBody?: {
            content: Record<string, { schema?: unknown; example?: unknown; examples?: unknown }>;
          };
        }
      >
    >(doc.paths)
      .filter(([path, ops]) => path.includes('/data-import/') && ops.post)
      .map(([path, ops]) => [path, ops.post!.requestBody!.content['application/json']] as const);
    assert.ok(posts.length >= 6, `${posts.length} POST routes`);
    // The account endpoints' example sits on the AccountPayload component their body refers to.
    const component = (schema: unknown) =>
      JSON.stringify(schema).includes('#/components/schemas/AccountPayload') &&
      doc.components.schemas.AccountPayload.examples?.length;
    for (const [path, content] of posts) {
      assert.ok(content.example || content.examples || component(content.schema), `${path} has no example`);
    }
  });

  it('/docs serves the API reference page and its script from Ferry itself', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/html/);
    assert.match(String(res.headers['content-security-policy']), /default-src 'self'/);
    for (const src of res.body.matchAll(/<script src="([^"]+)"/g)) {
      const script = await t.app.inject({ method: 'GET', url: src[1] });
      assert.equal(script.statusCode, 200, src[1]);
      assert.match(String(script.headers['content-type']), /javascript/);
    }
  });

  it('/metrics exposes Prometheus metrics including request durations', async () => {
    await t.app.inject({ method: 'GET', url: '/healthz' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.match(
      res.body,
      /ferry_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\}/,
    );
    assert.match(res.body, /process_resident_memory_bytes/);
  });

  it('gives every response a request id, keeping one the client sent', async () => {
    const generated = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'abc-123' },
    });
    assert.equal(kept.headers['x-request-id'], 'abc-123');
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight request finish, then closes', async () => {
    const t = await createTestApp();
    let release: () => void = () => {};
    t.app.get('/slow', async () => {
      await new Promise<void>((r) => {
        release = r;
      });
      return { done: true };
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const inflight = fetch(`http://127.0.0.1:${port}/slow`).then((r) => r.json());
    await new Promise((r) => setTimeout(r, 100));
    const closing = t.close();
    setTimeout(() => release(), 200);
    assert.deepEqual(await inflight, { done: true });
    await closing;
    await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`));
  });
});
