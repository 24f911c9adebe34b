#!/usr/bin/env node
// Every path the repository cites must exist (issue 24: docs that stand alone). Checks, in every
// tracked text file (src, test, docs, bench, scripts, .ci, README.md, CHANGELOG.md, package.json…):
// - each `docs/<path>` citation (a file or a folder; `docs/decisions/0031` names the record
//   0031-….md), whatever surrounds it: backticks, a Markdown link, a trailing `.`/`,`/`)`, a
//   `#anchor` or a `:line`;
// - in Markdown files, each relative link target (`[x](../decisions/0031-….md)`, `(0031-….md)`),
//   resolved against the citing file's folder;
// - in docs/*.md and README.md, each `src/<path>` citation as well.
// Exits 1 listing each missing path as file:line, 0 when every one exists. No dependencies.
// Usage: node scripts/check-doc-paths.mjs [root]   (root defaults to the repository folder)
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));

/**
 * Applied migrations cannot change (postgrator checks their checksums), so an old name cited in
 * one stays: each is listed here, keyed `file: cited path`, with the path it names today (which
 * must exist).
 */
const FROZEN = new Map([
  [
    'src/infra/db/migrations/0003.do.payment-instructions.sql: docs/decisions/payment-instructions.md',
    'docs/decisions/0033-payment-instructions.md',
  ],
  [
    'src/infra/db/migrations/0007.do.follow-up-reference-fields.sql: docs/decisions/9xx-follow-up-wire-fidelity.md',
    'docs/decisions/0023-follow-up-wire-fidelity.md',
  ],
]);
/** This script and its test write about citations (examples, dead ones on purpose): not read. */
const ABOUT_CITATIONS = new Set(['scripts/check-doc-paths.mjs', 'test/docs/doc-paths.test.ts']);
/** Text that looks like a citation and is not one, keyed `file: text`, with why. */
const NOT_CITATIONS = new Map([
  ['test/cli/admin-commands.test.ts: docs/cli1', "a supplier's document root in the test's data"],
]);

/** Files worth reading: text by extension, or anything under .ci/ (the CI script has none). */
const TEXT = /\.(ts|mts|cts|js|mjs|cjs|json|md|yml|yaml|sh|sql|txt|html|css)$/;
/** Generated or vendored: large, and their citations are not ours. */
const SKIP =
  /(^|\/)(node_modules|dist|data|\.git)\/|^package-lock\.json$|^src\/client\/openapi\.ts$|(^|\/)generated\//;

/** Tracked and not-ignored files of a Git checkout; every file of a plain folder otherwise. */
function listFiles(dir) {
  try {
    const out = execFileSync(
      'git',
      ['-C', dir, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return [...new Set(out.split('\0').filter(Boolean))];
  } catch {
    return walk(dir, '');
  }
}

function walk(dir, prefix) {
  const out = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!SKIP.test(`${path}/`)) out.push(...walk(dir, path));
    } else out.push(path);
  }
  return out;
}

const PATH_CHARS = '[A-Za-z0-9_./*-]';
/** `docs/…` or `src/…` not preceded by a path character or a slash (so `/docs`, `../docs` and URLs are left out). */
const citation = (top) => new RegExp(`(?<![\\w./-])(?:\\./)?(${top}/${PATH_CHARS}*)`, 'g');
const DOCS = citation('docs');
const SRC = citation('src');
/** A Markdown link's target: `](target)` or `](target "title")`. */
const LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

/** The cited path without what follows it in prose: a trailing `.`, `,`, `:`, `;` or `)`. */
function clean(path) {
  return path.replace(/[.,:;)]+$/, '');
}

/** Whether a cited path (relative to root) names a file or folder; `*` matches within a segment. */
function exists(path) {
  const full = join(root, path);
  if (existsSync(full)) return true;
  const parent = dirname(full);
  const name = full.slice(parent.length + 1);
  // docs/decisions/0031 names the record 0031-….md.
  if (/^\d{4}$/.test(name) && existsSync(parent) && statSync(parent).isDirectory()) {
    return readdirSync(parent).some((entry) => entry.startsWith(`${name}-`));
  }
  if (path.includes('*')) return globExists(path.split('/').filter(Boolean), root);
  return false;
}

function globExists(segments, dir) {
  if (segments.length === 0) return true;
  const [head, ...rest] = segments;
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
  const pattern = new RegExp(`^${head.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);
  return readdirSync(dir)
    .filter((entry) => pattern.test(entry))
    .some((entry) => globExists(rest, join(dir, entry)));
}

/** A link target worth resolving: relative, not a URL, not a bare anchor. */
function relativeTarget(target) {
  if (/^([a-z][a-z0-9+.-]*:|#|\/|\{)/i.test(target)) return undefined;
  const path = decodeURI(target.replace(/[#?].*$/, ''));
  return path === '' ? undefined : path;
}

const missing = [];
const files = listFiles(root).filter(
  (file) =>
    !SKIP.test(file) &&
    !ABOUT_CITATIONS.has(file) &&
    (TEXT.test(file) || file.startsWith('.ci/')) &&
    existsSync(join(root, file)),
);
for (const file of files) {
  const full = join(root, file);
  if (!statSync(full).isFile()) continue;
  const text = readFileSync(full, 'utf8');
  const isMarkdown = file.endsWith('.md');
  const citesSrc = (file.startsWith('docs/') && isMarkdown) || file === 'README.md';
  text.split('\n').forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    const patterns = citesSrc ? [DOCS, SRC] : [DOCS];
    for (const pattern of patterns) {
      for (const match of line.matchAll(pattern)) {
        const path = clean(match[1]);
        const key = `${file}: ${path}`;
        if (NOT_CITATIONS.has(key)) continue;
        if (FROZEN.has(key)) {
          if (!exists(FROZEN.get(key)))
            missing.push(`${where}: ${path} (now ${FROZEN.get(key)}, missing too)`);
        } else if (!exists(path)) missing.push(`${where}: ${path}`);
      }
    }
    if (isMarkdown) {
      for (const match of line.matchAll(LINK)) {
        const target = relativeTarget(match[1]);
        if (target === undefined) continue;
        const path = relative(root, resolve(dirname(full), target))
          .split(sep)
          .join('/');
        if (path.startsWith('..')) missing.push(`${where}: ${target} (outside the repository)`);
        else if (!exists(path)) missing.push(`${where}: ${target}`);
      }
    }
  });
}

if (missing.length > 0) {
  console.error(`${missing.length} cited path(s) do not exist:`);
  for (const line of missing) console.error(`  ${line}`);
  process.exit(1);
}
console.log(
  `doc paths: every cited docs/ path (and src/ path in docs/ and README.md) exists (${files.length} files)`,
);
