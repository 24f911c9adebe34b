import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkDocumentPath,
  InvalidDocumentRootError,
  isDocumentPath,
  resolveDocumentKey,
} from '../../../src/infra/storage/document-path.ts';

describe('resolveDocumentKey', () => {
  const accepted: [root: string, path: string, key: string][] = [
    ['TENTACLE', 'notes/1234/attachment.jpg', 'TENTACLE/notes/1234/attachment.jpg'],
    ['TENTACLE', '/notes/1234/attachment.jpg', 'TENTACLE/notes/1234/attachment.jpg'],
    [
      'suppliers/tentacle',
      'EXTERNAL-1234/2019-06-01-to-2019-07-01.pdf',
      'suppliers/tentacle/EXTERNAL-1234/2019-06-01-to-2019-07-01.pdf',
    ],
    ['r', 'statement.pdf', 'r/statement.pdf'],
    ['/TENTACLE/', 'a.pdf', 'TENTACLE/a.pdf'],
    ['TENTACLE', 'a b/c d.pdf', 'TENTACLE/a b/c d.pdf'],
    ['TENTACLE', 'ünïcødé/報告.pdf', 'TENTACLE/ünïcødé/報告.pdf'],
    ['TENTACLE', '...pdf', 'TENTACLE/...pdf'],
    ['TENTACLE', 'a..b/c..pdf', 'TENTACLE/a..b/c..pdf'],
    ['TENTACLE', '.hidden.pdf', 'TENTACLE/.hidden.pdf'],
    ['TENTACLE', '100%.pdf', 'TENTACLE/100%.pdf'],
    ['TENTACLE', 'a%20b.pdf', 'TENTACLE/a%20b.pdf'],
    ['TENTACLE', 'notes/a:b.pdf', 'TENTACLE/notes/a:b.pdf'],
    ['TENTACLE', '2019:a.pdf', 'TENTACLE/2019:a.pdf'],
    ['r', 'x'.repeat(1022), `r/${'x'.repeat(1022)}`],
  ];
  for (const [root, path, key] of accepted) {
    it(`places ${JSON.stringify(path.length > 40 ? `${path.slice(0, 40)}…` : path)} under root ${JSON.stringify(root)}`, () => {
      assert.deepEqual(resolveDocumentKey(root, path), { ok: true, key });
    });
  }

  const rejected: [path: string, why: string][] = [
    ['', 'empty'],
    ['/', 'only the leading slash'],
    ['..', 'parent'],
    ['../secrets.pdf', 'leading parent segment'],
    ['/../secrets.pdf', 'parent after the leading slash'],
    ['a/../../secrets.pdf', 'parent in the middle'],
    ['a/..', 'trailing parent'],
    ['./a.pdf', 'current-folder segment'],
    ['a/./b.pdf', 'current-folder segment in the middle'],
    ['a/.', 'trailing current-folder segment'],
    ['a//b.pdf', 'empty segment'],
    ['a/', 'trailing slash'],
    ['//host/share/a.pdf', 'network-path reference'],
    ['///etc/passwd', 'triple slash'],
    ['s3://other-bucket/a.pdf', 's3 URL'],
    ['file:///etc/passwd', 'file URL'],
    ['https://example.com/a.pdf', 'http URL'],
    ['C:/Windows/win.ini', 'drive letter'],
    ['mailto:a.pdf', 'scheme without slashes'],
    ['C:\\Windows\\win.ini', 'drive letter with backslashes'],
    ['a\\b.pdf', 'backslash separator'],
    ['..\\secrets.pdf', 'backslash traversal'],
    ['a\u0000.pdf', 'NUL'],
    ['a.pdf\u0000.jpg', 'NUL truncation'],
    ['a\n.pdf', 'newline'],
    ['a\r.pdf', 'carriage return'],
    ['a\t.pdf', 'tab'],
    ['a\u007f.pdf', 'DEL'],
    ['a\u0085.pdf', 'C1 next-line'],
    ['%2e%2e/secrets.pdf', 'percent-encoded parent'],
    ['%2E%2E/secrets.pdf', 'upper-case percent-encoded parent'],
    ['.%2e/secrets.pdf', 'half-encoded parent'],
    ['%2e./secrets.pdf', 'other half-encoded parent'],
    ['a/%2e%2e%2fsecrets.pdf', 'encoded parent and slash in one segment'],
    ['..%2fsecrets.pdf', 'encoded slash after parent'],
    ['..%5csecrets.pdf', 'encoded backslash after parent'],
    ['a%5cb.pdf', 'encoded backslash'],
    ['%252e%252e/secrets.pdf', 'double-encoded parent'],
    ['%25252e%25252e/secrets.pdf', 'triple-encoded parent'],
    ['a%00.pdf', 'encoded NUL'],
    ['%2f%2fhost/a.pdf', 'encoded network-path reference'],
    ['a%2f%2fb.pdf', 'encoded empty segment'],
    ['s3%3a//bucket/a.pdf', 'encoded scheme'],
    ['\uff0e\uff0e/secrets.pdf', 'fullwidth dots (NFKC ..)'],
    ['\u2025/secrets.pdf', 'two-dot leader (NFKC ..)'],
    ['a\uff3cb.pdf', 'fullwidth backslash (NFKC \\)'],
    ['x'.repeat(1025), 'over 1024 characters'],
    [`%${'25'.repeat(5)}2e/x.pdf`, 'encoded more times than is decoded'],
  ];
  for (const [path, why] of rejected) {
    it(`rejects ${why}: ${JSON.stringify(path.length > 40 ? `${path.slice(0, 40)}…` : path)}`, () => {
      const result = resolveDocumentKey('TENTACLE', path);
      assert.equal(result.ok, false);
      assert.equal(!result.ok && result.code, 'invalid_document_path');
      assert.ok(!result.ok && result.detail.length > 0);
    });
  }

  it('rejects a path that only becomes too long under the root', () => {
    const root = 'r'.repeat(100);
    assert.equal(resolveDocumentKey('r', 'x'.repeat(1022)).ok, true);
    const result = resolveDocumentKey(root, 'x'.repeat(1000));
    assert.equal(result.ok, false);
  });

  it('counts the key limit in UTF-8 bytes, as S3 does', () => {
    assert.equal(resolveDocumentKey('r', 'é'.repeat(511)).ok, true);
    assert.equal(resolveDocumentKey('r', `${'é'.repeat(511)}x`).ok, false);
  });

  it('throws on a document root that is not a safe relative folder', () => {
    // An empty root (or only slashes) would be the whole store, every supplier's documents.
    for (const root of ['', '/', '//', '..', 'a/../..', './a', 'a\\b', 's3://bucket', 'a\u0000']) {
      assert.throws(() => resolveDocumentKey(root, 'a.pdf'), InvalidDocumentRootError, root);
    }
  });
});

describe('isDocumentPath', () => {
  it('answers the same as checkDocumentPath', () => {
    for (const path of ['a.pdf', '/a/b.pdf', '../a.pdf', 'a\\b', '']) {
      assert.equal(isDocumentPath(path), checkDocumentPath(path).ok, path);
    }
  });

  it('rejects values that are not strings', () => {
    for (const value of [null, undefined, 42, ['a.pdf'], { path: 'a.pdf' }]) {
      assert.equal(isDocumentPath(value), false);
    }
  });

  it('gives the segments of an accepted path', () => {
    assert.deepEqual(checkDocumentPath('/a/b c/d.pdf'), { ok: true, segments: ['a', 'b c', 'd.pdf'] });
  });
});
