/**
 * One webhook POST (webhook-post.ts) against real sockets: a 2xx delivers; a receiver that does
 * not answer in time, a 2xx cut off halfway, a refused connection and a redirect are failures
 * with their reason; connections are kept alive between posts; a post whose connection closes
 * before an answer is sent once more at once, and only once; `user:pass@` in the URL is sent as
 * Basic authorization.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createWebhookPoster, type WebhookPoster } from '../../src/events/webhooks/webhook-post.ts';
import { REFUSED_URL } from '../helpers/ports.ts';
import { signatureValid } from './webhooks-helpers.ts';

const SECRET = 'a'.repeat(64);
const request = (url: string) => ({ url, secret: SECRET, eventId: '7_9', body: '{"id":"7_9"}' });

describe('a webhook POST', () => {
  let server: http.Server;
  let base: string;
  let poster: WebhookPoster;
  let connections = 0;
  const dropped = new Set<string>();
  const seen: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        seen.push({ path: req.url ?? '', headers: req.headers, body });
        if (req.url === '/silent') return; // never answers
        if (req.url === '/drop' || (req.url === '/drop-first' && !dropped.has('/drop-first'))) {
          // Closes the connection without an answer, as a receiver closing an idle one does.
          dropped.add(req.url);
          return req.socket.destroy();
        }
        if (req.url === '/moved') {
          res.writeHead(301, { location: '/ok' });
          return res.end();
        }
        if (req.url === '/cut') {
          // A 2xx whose answer never ends: the connection drops halfway through the body.
          res.writeHead(200, { 'content-length': '100' });
          res.write('partial');
          setTimeout(() => req.socket.destroy(), 20);
          return;
        }
        if (req.url === '/teapot') {
          res.writeHead(418);
          return res.end(`short and stout ${'x'.repeat(500)}`);
        }
        res.writeHead(204);
        res.end();
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    poster = createWebhookPoster({ maxSockets: 4, timeoutMs: 300 });
  });
  after(async () => {
    poster.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('delivers on a 2xx, signed, over kept-alive connections', async () => {
    const before = connections;
    for (let i = 0; i < 10; i++) {
      const o = await poster.post(request(`${base}/ok`));
      assert.deepEqual([o.delivered, o.statusCode, o.error], [true, 204, null]);
    }
    // The pool may open a second connection while the first is being handed back; not ten.
    assert.ok(connections - before <= 2, `${connections - before} connections for 10 posts`);
    const last = seen.at(-1)!;
    assert.equal(last.body, '{"id":"7_9"}');
    assert.equal(last.headers['ferry-event-id'], '7_9');
    assert.ok(signatureValid(SECRET, last.headers['ferry-signature'], last.body));
  });

  it('sends the credentials of a `user:pass@` URL as Basic authorization', async () => {
    const o = await poster.post(request(base.replace('//', '//hook%20user:p%40ss@') + '/ok'));
    assert.equal(o.delivered, true);
    const sent = seen.at(-1)!.headers.authorization ?? '';
    assert.equal(Buffer.from(sent.replace(/^Basic /, ''), 'base64').toString(), 'hook user:p@ss');
  });

  it('does not count a 2xx whose answer is cut off as delivered', async () => {
    const o = await poster.post(request(`${base}/cut`));
    assert.deepEqual([o.delivered, o.statusCode], [false, 200]);
    assert.match(o.error ?? '', /^answer cut off: /);
  });

  it('fails when no answer comes in time', async () => {
    const o = await poster.post(request(`${base}/silent`));
    assert.deepEqual([o.delivered, o.statusCode], [false, null]);
    assert.match(o.error ?? '', /no answer within 0.3 s/);
    assert.ok(o.durationMs >= 290 && o.durationMs < 2_000, String(o.durationMs));
  });

  it('fails on a refused connection, with its reason', async () => {
    const o = await poster.post(request(`${REFUSED_URL}/`));
    assert.deepEqual([o.delivered, o.statusCode], [false, null]);
    assert.match(o.error ?? '', /^ECONNREFUSED/);
  });

  it('posts once more at once when the connection closes before any answer', async () => {
    // Two sends and a new connection within the limit: a wider one than the other tests need.
    const roomy = createWebhookPoster({ maxSockets: 4, timeoutMs: 5_000 });
    const o = await roomy.post(request(`${base}/drop-first`)).finally(() => roomy.close());
    assert.deepEqual([o.delivered, o.statusCode, o.error], [true, 204, null]);
    assert.deepEqual(
      seen.filter((s) => s.path === '/drop-first').map((s) => s.headers['ferry-event-id']),
      ['7_9', '7_9'],
    );
  });

  it('fails a post whose connection closes twice, after two requests', async () => {
    const roomy = createWebhookPoster({ maxSockets: 4, timeoutMs: 5_000 });
    const o = await roomy.post(request(`${base}/drop`)).finally(() => roomy.close());
    assert.deepEqual([o.delivered, o.statusCode], [false, null]);
    assert.match(o.error ?? '', /^(UND_ERR_SOCKET|ECONNRESET|EPIPE): /);
    assert.equal(seen.filter((s) => s.path === '/drop').length, 2);
  });

  it('follows no redirect and keeps the start of a refusal’s body', async () => {
    const moved = await poster.post(request(`${base}/moved`));
    assert.deepEqual([moved.delivered, moved.statusCode], [false, 301]);
    assert.equal(moved.error, 'HTTP 301 (redirects are not followed)');
    assert.equal(seen.at(-1)?.path, '/moved', 'the Location was not requested');
    const teapot = await poster.post(request(`${base}/teapot`));
    assert.match(teapot.error ?? '', /^HTTP 418: short and stout x+$/);
    assert.ok((teapot.error ?? '').length < 250);
  });
});
