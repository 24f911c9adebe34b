/**
 * Document paths as suppliers send them (`document_path`, `statement_path`): relative to the
 * supplier's document root, optionally with one leading `/` (docs/product.md, Documents).
 *
 * This is the one implementation of the rule. Payload validation uses `isDocumentPath` to report
 * `invalid_document_path` at the field; the follow-up imports use `resolveDocumentKey` to turn an
 * accepted path into an object-store key. Both stores check keys again (objectKeySegments).
 */

import { MAX_OBJECT_KEY_BYTES } from './object-store.ts';

export const MAX_DOCUMENT_PATH_LENGTH = 1024;

export interface DocumentPathRejection {
  ok: false;
  code: 'invalid_document_path';
  detail: string;
}

export type DocumentPathCheck = { ok: true; segments: string[] } | DocumentPathRejection;
export type DocumentKeyResolution = { ok: true; key: string } | DocumentPathRejection;

/** The operator-configured root is itself unsafe: a configuration error, not the supplier's fault. */
export class InvalidDocumentRootError extends Error {
  constructor(readonly documentRoot: string) {
    super(`document root ${JSON.stringify(documentRoot)} is not a safe relative folder`);
    this.name = 'InvalidDocumentRootError';
  }
}

const reject = (detail: string): DocumentPathRejection => ({
  ok: false,
  code: 'invalid_document_path',
  detail,
});

// C0 and C1 control characters (NUL included) and DEL.
// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
// `s3:`, `file:`, `https:`, and Windows drives (`C:`): anything that names another store or disk.
const SCHEME_PREFIX = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const MAX_DECODING_ROUNDS = 4;

/** The checks on one spelling of the path; returns its segments when it is acceptable. */
function checkSpelling(path: string): DocumentPathCheck {
  if (path.length === 0) return reject('The document path is empty.');
  if (CONTROL_CHARACTER.test(path)) return reject('The document path contains a control character.');
  if (path.includes('\\')) return reject('The document path contains a backslash; separate folders with /.');
  if (SCHEME_PREFIX.test(path) || path.startsWith('//')) {
    return reject('The document path must be relative to the document root, not a URL.');
  }
  const relative = path.startsWith('/') ? path.slice(1) : path;
  if (relative.length === 0) return reject('The document path names no document.');
  const segments = relative.split('/');
  if (segments.some((s) => s === '.' || s === '..')) {
    return reject('The document path may not contain . or .. segments.');
  }
  if (segments.includes(''))
    return reject('The document path has an empty folder name (// or a trailing /).');
  return { ok: true, segments };
}

function percentDecodeOnce(value: string): string | null {
  if (!value.includes('%')) return null;
  try {
    const decoded = decodeURIComponent(value);
    return decoded === value ? null : decoded;
  } catch {
    // Not valid percent-encoding (`100%.pdf`, overlong UTF-8): it can only be a literal name.
    return null;
  }
}

/**
 * Checks a supplier's document path. The path is stored literally, but every spelling that some
 * layer might produce from it (percent-decoded, repeatedly; Unicode NFKC-folded, which turns
 * fullwidth `．．` into `..`) must pass too, so that no proxy, tool or later decoding step can
 * turn an accepted path into a traversal.
 */
export function checkDocumentPath(path: unknown): DocumentPathCheck {
  if (typeof path !== 'string') return reject('The document path must be a string.');
  if (path.length > MAX_DOCUMENT_PATH_LENGTH) {
    return reject(`The document path is longer than ${MAX_DOCUMENT_PATH_LENGTH} characters.`);
  }
  const literal = checkSpelling(path);
  if (!literal.ok) return literal;

  const spellings = [path.normalize('NFKC')];
  let current = path;
  for (let round = 0; round < MAX_DECODING_ROUNDS; round++) {
    const decoded = percentDecodeOnce(current);
    if (decoded === null) break;
    spellings.push(decoded, decoded.normalize('NFKC'));
    current = decoded;
  }
  if (percentDecodeOnce(current) !== null)
    return reject('The document path is percent-encoded too many times.');
  for (const spelling of spellings) {
    if (spelling === path) continue;
    const other = checkSpelling(spelling);
    if (!other.ok) return reject(`The document path decodes to a path that is not allowed: ${other.detail}`);
  }
  return literal;
}

/** The yes/no form for payload validation (`invalid_document_path` at the field). */
export function isDocumentPath(path: unknown): boolean {
  return checkDocumentPath(path).ok;
}

/**
 * The segments of a supplier's document root. Roots are normalised when the operator sets them
 * (no leading or trailing `/`, never empty), so an unsafe one here means the stored data was
 * changed by hand. An empty root would be the whole store, every other supplier's included.
 */
export function documentRootSegments(documentRoot: string): string[] {
  const segments = documentRoot.split('/').filter((s) => s !== '');
  const unsafe =
    segments.length === 0 ||
    CONTROL_CHARACTER.test(documentRoot) ||
    documentRoot.includes('\\') ||
    SCHEME_PREFIX.test(documentRoot) ||
    segments.some((s) => s === '.' || s === '..');
  if (unsafe) throw new InvalidDocumentRootError(documentRoot);
  return segments;
}

/**
 * The object-store key of a supplier's document: `<document root>/<path>`. Throws
 * InvalidDocumentRootError for an unsafe root; rejects an unsafe path with `invalid_document_path`.
 */
export function resolveDocumentKey(documentRoot: string, path: string): DocumentKeyResolution {
  const root = documentRootSegments(documentRoot);
  const checked = checkDocumentPath(path);
  if (!checked.ok) return checked;
  const key = [...root, ...checked.segments].join('/');
  if (Buffer.byteLength(key, 'utf8') > MAX_OBJECT_KEY_BYTES) {
    return reject('The document path is too long once placed under the document root.');
  }
  return { ok: true, key };
}
