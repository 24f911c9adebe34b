import { type Html, html } from './html.ts';

/**
 * A stored payload as a tree the operator can fold: each object or array is a <details> (open
 * down to `openDepth`), each scalar shown as JSON would write it. Every key and value is supplier
 * input and goes through the escaping `html` tag.
 */
export function payloadTree(value: unknown, openDepth = 2): Html {
  return html`<div class="tree">${node(value, 0, openDepth)}</div>`;
}

function node(value: unknown, depth: number, openDepth: number): Html {
  if (value === null || typeof value !== 'object') return scalar(value);
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value as Record<string, unknown>);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  if (entries.length === 0) return html`<span class="empty">${Array.isArray(value) ? '[]' : '{}'}</span>`;
  return html`<details${depth < openDepth ? html` open` : null}><summary>${summary}</summary>
<dl>${entries.map(
    ([k, v]) => html`<div class="entry"><dt>${k}</dt><dd>${node(v, depth + 1, openDepth)}</dd></div>`,
  )}</dl></details>`;
}

function scalar(value: unknown): Html {
  const kind = value === null ? 'null' : typeof value;
  return html`<span class="${`v-${kind}`}">${JSON.stringify(value) ?? String(value)}</span>`;
}
