/**
 * scripts/check-doc-paths.mjs (`npm run lint:docs`) on a folder of its own: it passes every form of
 * a citation that exists and fails, naming file and line, on each one that does not, so a checker
 * that silently passed everything would fail here.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const CHECKER = fileURLToPath(new URL('../../scripts/check-doc-paths.mjs', import.meta.url));

function check(root: string) {
  const run = spawnSync(process.execPath, [CHECKER, root], { encoding: 'utf8' });
  return { code: run.status, out: run.stdout + run.stderr };
}

describe('the doc-path check', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'ferry-doc-paths-'));
    write(
      'docs/product.md',
      '# How it behaves\n\nSee [the record](decisions/0031-vendors.md#why) and `src/app.ts`.\n',
    );
    write('docs/decisions/0031-vendors.md', 'Back to [the product](../product.md); code in `src/infra/`.\n');
    write('src/app.ts', '// Errors: docs/product.md, Errors. Why: docs/decisions/0031.\nexport {};\n');
    write(
      'src/infra/vendors.ts',
      '// (docs/decisions/0031-vendors.md#context), and docs/decisions/.\nexport {};\n',
    );
    write('README.md', 'Read `docs/product.md`, [decisions](docs/decisions/) and src/infra/vendors.ts.\n');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('passes when every cited path exists, whatever surrounds it', () => {
    const { code, out } = check(root);
    assert.equal(code, 0, out);
  });

  it('fails on a dead docs/ citation in code, naming its file and line', () => {
    write('src/late.ts', 'export {};\n// moved: docs/decisions/0032-gone.md.\n');
    try {
      const { code, out } = check(root);
      assert.equal(code, 1, out);
      assert.match(out, /src\/late\.ts:2: docs\/decisions\/0032-gone\.md$/m);
      assert.doesNotMatch(out, /product\.md|0031/, 'only the dead citation is listed');
    } finally {
      rmSync(join(root, 'src/late.ts'));
    }
  });

  it('fails on a dead relative link in docs and a dead src/ path cited in a doc', () => {
    write('docs/decisions/0040-mail.md', 'As [0039](0039-layers.md) said, see `src/mail/sender.ts`.\n');
    try {
      const { code, out } = check(root);
      assert.equal(code, 1, out);
      assert.match(out, /docs\/decisions\/0040-mail\.md:1: src\/mail\/sender\.ts/);
      assert.match(out, /docs\/decisions\/0040-mail\.md:1: 0039-layers\.md/);
    } finally {
      rmSync(join(root, 'docs/decisions/0040-mail.md'));
    }
    assert.equal(check(root).code, 0);
  });
});
