/** Renders the OpenAPI document as one self-contained HTML reference page (no scripts, no CDN). */

interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema; description?: string }[];
  requestBody?: {
    content?: Record<string, { schema?: Schema; examples?: Record<string, { value: unknown }> }>;
  };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}
type Schema = Record<string, unknown>;

const esc = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const anchor = (method: string, path: string) => `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-');

function typeOf(s: Schema | undefined): string {
  if (!s) return '';
  if (typeof s.$ref === 'string') return s.$ref.split('/').pop() ?? '';
  if (Array.isArray(s.anyOf)) return (s.anyOf as Schema[]).map(typeOf).join(' | ');
  if (Array.isArray(s.enum)) return (s.enum as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in s) return JSON.stringify(s.const);
  if (s.type === 'array') return `${typeOf(s.items as Schema)}[]`;
  const fmt = s.format ? ` (${s.format})` : '';
  return `${String(s.type ?? 'any')}${fmt}`;
}

/** A nested table of an object schema's fields, `depth` levels down. */
function fieldsTable(s: Schema | undefined, depth = 0): string {
  if (!s || depth > 3) return '';
  const target = s.type === 'array' ? (s.items as Schema) : s;
  const props = target?.properties as Record<string, Schema> | undefined;
  if (!props) return '';
  const required = new Set((target.required as string[]) ?? []);
  const rows = Object.entries(props).map(
    ([name, p]) =>
      `<tr><td><code>${esc(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}</td>` +
      `<td><code>${esc(typeOf(p))}</code></td><td>${esc(String(p.description ?? ''))}${fieldsTable(p, depth + 1)}</td></tr>`,
  );
  return `<table><thead><tr><th>field</th><th>type</th><th>about</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function operationHtml(method: string, path: string, op: Operation): string {
  const params = (op.parameters ?? [])
    .map(
      (p) =>
        `<li><code>${esc(p.name)}</code> (${esc(p.in)}${p.required ? ', required' : ''}) ${esc(typeOf(p.schema))} ${esc(p.description ?? '')}</li>`,
    )
    .join('');
  const body = op.requestBody?.content?.['application/json'];
  const examples = Object.entries(body?.examples ?? {})
    .map(
      ([name, ex]) =>
        `<details><summary>Example: ${esc(name)}</summary><pre>${esc(JSON.stringify(ex.value, null, 2))}</pre></details>`,
    )
    .join('');
  const responses = Object.entries(op.responses ?? {})
    .map(
      ([code, r]) =>
        `<li><b>${esc(code)}</b> ${esc(typeOf(r.content?.['application/json']?.schema))} ${esc(r.description ?? '')}</li>`,
    )
    .join('');
  return `<section class="op" id="${anchor(method, path)}">
<h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code></h3>
<p>${esc(op.summary ?? '')}</p>${op.description ? `<p>${esc(op.description)}</p>` : ''}
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}
${body ? `<h4>Request body</h4>${fieldsTable(body.schema)}${examples}` : ''}
${responses ? `<h4>Responses</h4><ul>${responses}</ul>` : ''}
</section>`;
}

export function renderApiReference(doc: OpenApiDoc): string {
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ method, path, op })),
  );
  const nav = ops
    .map(
      ({ method, path, op }) =>
        `<li><a href="#${anchor(method, path)}"><span class="m ${method}">${method.toUpperCase()}</span> ${esc(op.summary ?? path)}</a></li>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.info.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;display:flex;color:#1d2330}
nav{width:300px;flex:none;height:100vh;overflow:auto;position:sticky;top:0;background:#f4f6fa;padding:16px;box-sizing:border-box}
nav ul{list-style:none;padding:0;font-size:13px} nav a{color:inherit;text-decoration:none}
main{padding:24px 40px;max-width:1000px} pre{background:#f4f6fa;padding:12px;overflow:auto;white-space:pre-wrap}
table{border-collapse:collapse;margin:6px 0;font-size:13px} td,th{border:1px solid #dde2ec;padding:4px 8px;vertical-align:top;text-align:left}
.m{font:bold 11px monospace;padding:2px 6px;border-radius:4px;color:#fff;background:#607090}
.m.get{background:#2f7d4f}.m.post{background:#2d5fa8}.m.patch{background:#9a6b12}.m.delete{background:#a33}
.req{color:#a33;font-size:11px} .op{border-top:1px solid #dde2ec;padding-top:8px}
</style></head><body>
<nav><b>${esc(doc.info.title)}</b> <small>${esc(doc.info.version)}</small><p><a href="/openapi.json">openapi.json</a></p><ul>${nav}</ul></nav>
<main><h1>${esc(doc.info.title)}</h1><pre>${esc(doc.info.description ?? '')}</pre>
${ops.map(({ method, path, op }) => operationHtml(method, path, op)).join('\n')}
</main></body></html>`;
}
