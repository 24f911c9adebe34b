import { type Html, html } from './html.ts';

/** What a signed-in page needs from its session: the token every form posts back. */
export interface PageContext {
  csrfToken: string;
  notice?: string | null;
  /** The notice tells of a refused action: shown as an alert. */
  refused?: boolean;
}

/**
 * The dashboard's content security policy: nothing but Ferry's own scripts, styles and data
 * (the chart and the page script are served from npm packages under /dashboard/assets/).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ASSETS = '/dashboard/assets';

function document(title: string, body: Html, extraHead: Html | null = null) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Ferry dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS}/dashboard.css">
${extraHead}
</head>
${body}
</html>
`;
}

/** A form posting to `action` with the session's CSRF token; `confirm` asks before sending. */
export function postForm(
  ctx: PageContext,
  action: string,
  label: string,
  opts: { fields?: Record<string, string>; confirm?: string; danger?: boolean } = {},
) {
  const fields = Object.entries(opts.fields ?? {}).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  return html`<form class="inline" method="post" action="${action}"${opts.confirm ? html` data-confirm="${opts.confirm}"` : null}>
<input type="hidden" name="_csrf" value="${ctx.csrfToken}">${fields}
<button type="submit"${opts.danger ? html` class="danger"` : null}>${label}</button>
</form>`;
}

/** A signed-in page: navigation, sign-out, the notice of the last action, then `main`. */
export function page(ctx: PageContext, opts: { title: string; main: Html; chart?: boolean }) {
  const head = html`${
    opts.chart
      ? html`<link rel="stylesheet" href="${ASSETS}/uPlot.min.css">
<script src="${ASSETS}/uPlot.iife.min.js" defer></script>`
      : null
  }
<script src="${ASSETS}/dashboard.js" defer></script>`;
  const body = html`<body>
<header class="top">
<nav aria-label="Dashboard">
<a href="/dashboard/" class="brand">Ferry</a>
<a href="/dashboard/">Suppliers</a>
<a href="/dashboard/api-keys/">API keys</a>
<a href="/dashboard/webhooks/">Webhooks</a>
<a href="/dashboard/catalogue/">Catalogue</a>
</nav>
${postForm(ctx, '/dashboard/sign-out', 'Sign out')}
</header>
<main>
<h1>${opts.title}</h1>
${
  ctx.notice
    ? ctx.refused
      ? html`<p class="error" role="alert">${ctx.notice}</p>`
      : html`<p class="notice" role="status">${ctx.notice}</p>`
    : null
}
${opts.main}
</main>
</body>`;
  return document(opts.title, body, head);
}

/** A page outside the session: sign-in and the error pages seen before signing in. */
export function barePage(title: string, main: Html) {
  return document(
    title,
    html`<body>
<main class="narrow">
<h1>${title}</h1>
${main}
</main>
</body>`,
  );
}

export function signInPage(message: string | null) {
  return barePage(
    'Sign in',
    html`${message ? html`<p class="error" role="alert">${message}</p>` : null}
<form method="post" action="/dashboard/sign-in" class="stack">
<label for="key">Operator key</label>
<input id="key" name="key" type="password" autocomplete="current-password" required>
<label for="name">Your name (recorded on the waves you approve or roll back)</label>
<input id="name" name="name" autocomplete="name" maxlength="200">
<button type="submit">Sign in</button>
</form>`,
  );
}

export function errorPage(status: number, detail: string, items: { attr: string; detail: string }[]) {
  return barePage(
    `${status}: ${status === 404 ? 'Not found' : status < 500 ? 'Refused' : 'Server error'}`,
    html`<p class="error" role="alert">${detail}</p>
${items.length ? html`<ul>${items.map((i) => html`<li><code>${i.attr || '(form)'}</code>: ${i.detail}</li>`)}</ul>` : null}
<p><a href="/dashboard/">Back to the dashboard</a></p>`,
  );
}
