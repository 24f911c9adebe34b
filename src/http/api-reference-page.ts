import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

/**
 * The API reference at /docs: Redoc (from the `redoc` npm package) rendering /openapi.json in
 * the browser. Everything is served by Ferry itself, so the page works offline and behind a
 * firewall, and the content security policy forbids loading anything from elsewhere.
 */

const require = createRequire(import.meta.url);

const REDOC_BUNDLE = 'redoc/bundles/redoc.standalone.js';

/**
 * Redoc's sidebar ends with an attribution, a link to redocly.com holding an image from Redoc's
 * CDN, with no option to turn it off. Our policy blocks the image (a console error) and an offline
 * page should name no outside address, so the served bundle shows the attribution as plain text.
 * test/http/api-reference-page.test.ts fails when a new Redoc no longer matches this.
 */
const ATTRIBUTION =
  /(\w+)\.createElement\("a",\{target:"_blank",rel:"noopener noreferrer",href:"https:\/\/redocly\.com\/redoc\/"\},\w+\.createElement\(\w+,null\),"API docs by Redocly"\)/;

/** The bundle with its attribution as text: no link out, no image from the CDN. */
export function offlineRedocBundle(source: string): string {
  return source.replace(ATTRIBUTION, '$1.createElement("span",null,"API docs by Redoc")');
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ferry data-import API</title>
<link rel="icon" href="data:,">
<style>body{margin:0}</style>
</head>
<body>
<div id="reference"><noscript>The API reference needs JavaScript; the document itself is at <a href="/openapi.json">/openapi.json</a>.</noscript></div>
<script src="/docs/redoc.standalone.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// Redoc's options (search is on unless disabled).
const INIT = `Redoc.init('/openapi.json', {
  expandResponses: '200,201',
  jsonSampleExpandLevel: 3,
  sortTagsAlphabetically: false,
  theme: { sidebar: { width: '300px' } }
}, document.getElementById('reference'));
`;

// Redoc styles with inline <style> elements and runs its search index in a blob: worker.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "worker-src 'self' blob:",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function registerApiReferencePage(app: FastifyInstance) {
  let bundle: Buffer | null = null;
  const hidden = { schema: { hide: true } };

  app.get('/docs', hidden, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .send(PAGE),
  );
  app.get('/docs/init.js', hidden, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(INIT),
  );
  app.get('/docs/redoc.standalone.js', hidden, async (_request, reply) => {
    bundle ??= Buffer.from(offlineRedocBundle(readFileSync(require.resolve(REDOC_BUNDLE), 'utf8')));
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send(bundle);
  });
}
