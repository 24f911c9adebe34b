import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDocumentPath } from '../../../../src/account-import/payload/rules/document-path.ts';

test('accepts relative paths, with or without a leading slash', () => {
  for (const path of [
    '/notes/1234/attachment.jpg',
    'EXTERNAL-1234/2019-06-01-to-2019-07-01.pdf',
    'a b/c.pdf',
  ]) {
    assert.equal(isDocumentPath(path), true, path);
  }
});

test('rejects paths that could leave the document root or name another store', () => {
  const paths = [
    '',
    '../x.pdf',
    'a/../../x.pdf',
    './x.pdf',
    's3://bucket/x.pdf',
    'file:///etc/passwd',
    'C:\\x.pdf',
    '//host/x',
    'a\u0000b',
    'a\\b',
  ];
  for (const path of paths) assert.equal(isDocumentPath(path), false, JSON.stringify(path));
});
