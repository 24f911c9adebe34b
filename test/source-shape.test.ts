/**
 * Rules of the source tree that no type checker or linter enforces (issue 24): a route's request
 * types come from its schemas, never from a cast beside them; no file is so long that it holds
 * more than one thing (split a file by what its parts do before it passes 400 lines).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('the shape of src/', () => {
  const files = sourceFiles('src').map((path) => ({ path, text: readFileSync(path, 'utf8') }));

  it('casts no request body, params or query: their types come from the route schemas', () => {
    const casts = files.flatMap(({ path, text }) =>
      text
        .split('\n')
        .map((line, i) => ({ line, at: `${path}:${i + 1}` }))
        .filter(({ line }) => /request\.(body|params|query) as /.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    assert.deepEqual(casts, []);
  });

  it('has no file over 400 lines', () => {
    const long = files
      .map(({ path, text }) => ({ path, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) }))
      .filter(({ lines }) => lines > 400)
      .map(({ path, lines }) => `${path}: ${lines} lines`);
    assert.deepEqual(long, []);
  });
});
