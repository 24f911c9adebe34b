import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

const OUTSIDE_URL = /https?:\/\/[^\s"'<>]+/g;

describe('the API reference names no outside address', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('/docs, its init script and /openapi.json hold no http(s) URL', async () => {
    for (const url of ['/docs', '/docs/init.js', '/openapi.json']) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      assert.deepEqual(res.body.match(OUTSIDE_URL) ?? [], [], url);
    }
  });

  it("serves Redoc with its attribution as text: no link to redocly.com, no logo from Redoc's CDN", async () => {
    const bundle = (await get('/docs/redoc.standalone.js')).body;
    assert.ok(bundle.length > 500_000, 'the whole bundle');
    assert.ok(!bundle.includes('href:"https://redocly.com/redoc/"'), 'the attribution link is gone');
    assert.ok(bundle.includes('"API docs by Redoc"'), 'the attribution stays, as text');
  });
});
