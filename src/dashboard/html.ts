/**
 * HTML built from template literals: every interpolated value is escaped unless it is already
 * `Html` (made by this tag or `trusted`). Arrays are joined, null/undefined/false render nothing.
 * Payload values are supplier input, so nothing reaches a page without passing through here.
 */
export class Html {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]);

type Part = Html | string | number | boolean | null | undefined | Part[];

function render(value: Part): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Markup made by Ferry itself (never input). */
export const trusted = (text: string) => new Html(text);

/** A path segment for a link: input values in URLs are encoded, then escaped by `html`. */
export const seg = (value: string) => encodeURIComponent(value);

/** A query string from the defined values. */
export function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}
