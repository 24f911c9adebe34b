import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

interface Content {
  schema: Record<string, unknown>;
  example?: unknown;
}
type Operation = { responses: Record<string, { content?: Record<string, Content> }> };

/** The samples /docs shows come from these examples: real values, no `property1` placeholders. */
describe('OpenAPI examples of the admin answers', () => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, Operation>> };
  before(async () => {
    t = await createTestApp();
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  after(() => t.close());

  const answer = (path: string, method: string, status = '200') => {
    const content = doc.paths[path][method].responses[status].content?.['application/json'];
    assert.ok(content, `${method} ${path} ${status}`);
    return content;
  };
  const ajv = new Ajv({ strict: false });

  it('retry and cancel by filter show their own action and real counts, valid for their schema', () => {
    for (const action of ['retry', 'cancel']) {
      const { schema, example } = answer(`/admin/v1/import-processes/${action}/`, 'post');
      assert.equal((example as { action: string }).action, action);
      assert.ok(!JSON.stringify(example).includes('property'), JSON.stringify(example));
      assert.ok(ajv.validate(schema, example), ajv.errorsText());
      const wrongAction = { ...(example as object), action: action === 'retry' ? 'cancel' : 'retry' };
      assert.ok(!ajv.validate(schema, wrongAction), 'the schema names its one action');
    }
  });

  it('the supplier answers show counts per state, valid for their schema', () => {
    for (const [path, method] of [
      ['/admin/v1/import-suppliers/', 'post'],
      ['/admin/v1/import-suppliers/{code}/', 'get'],
      ['/admin/v1/import-suppliers/{code}/', 'patch'],
    ] as const) {
      const { schema, example } = answer(path, method, method === 'post' ? '201' : '200');
      assert.ok(ajv.validate(schema, example), `${method} ${path}: ${ajv.errorsText()}`);
      assert.equal((example as { import_processes: { PROCESSED: number } }).import_processes.PROCESSED, 4210);
    }
  });

  it('no schema in the document leaves its sample to placeholder keys (additionalProperties without an example)', () => {
    const placeholders: string[] = [];
    const walk = (node: unknown, path: string, exemplified: boolean) => {
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      const here = exemplified || 'example' in o || 'examples' in o;
      if (typeof o.additionalProperties === 'object' && !here) placeholders.push(path);
      for (const [key, child] of Object.entries(o)) walk(child, `${path}/${key}`, here);
    };
    walk(doc, '', false);
    assert.deepEqual(placeholders, []);
  });
});
