/**
 * A document path as suppliers send it: relative to their document root, optionally with a
 * leading `/` (PRODUCT §6). Anything that could leave the root or name another store is rejected
 * here, before a path ever reaches the storage layer: `..` segments, URLs with a scheme,
 * backslashes (Windows separators) and control characters including NUL.
 */
export function isDocumentPath(value: string): boolean {
  if (value.length === 0 || value.length > 1024) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return false;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) || value.startsWith('//')) return false;
  return !value.split('/').some((segment) => segment === '..' || segment === '.');
}
