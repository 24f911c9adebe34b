/** `ferry catalogue push|status` against the service on a real socket (the file is streamed). */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCatalogueCommand } from '../../src/cli/catalogue-commands.ts';
import { listeningTestApp, type TestApp } from '../helpers/test-app.ts';
import { exampleProducts, ndjson, product } from './catalogue-fixtures.ts';

describe('ferry catalogue', () => {
  let t: TestApp;
  let env: Record<string, string>;
  let dir: string;
  before(async () => {
    ({ t, env } = await listeningTestApp());
    dir = mkdtempSync(join(tmpdir(), 'ferry-catalogue-cli-'));
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function ferry(...argv: string[]) {
    let out = '';
    let err = '';
    const code = await runCatalogueCommand(argv, {
      out: (s) => {
        out += s;
      },
      err: (s) => {
        err += s;
      },
      env,
    });
    return { code, out, err };
  }
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('says when nothing is loaded, diffs a dry run, stores a push, and names a bad line', async () => {
    const none = await ferry('status');
    assert.equal(none.code, 0);
    assert.match(none.out, /Catalogue: none loaded/);
    assert.match(none.out, /List tpr: none loaded/);

    const products = file('products.ndjson', ndjson(exampleProducts()));
    const dry = await ferry('push', products, '--dry-run');
    assert.equal(dry.code, 0, dry.err);
    assert.match(dry.out, /Dry run of the catalogue: 2 products added/);
    const pushed = await ferry('push', products);
    assert.equal(pushed.code, 0, pushed.err);
    assert.match(pushed.out, /version 1 \(2 products, 2 tariffs\)/);

    const bad = await ferry(
      'push',
      file('bad.ndjson', ndjson([product('X'), product('Y', { fuel: 'WIND' })])),
    );
    assert.equal(bad.code, 1);
    assert.match(bad.err, /2\.fuel: invalid_choice/);
    assert.match(bad.err, /Nothing was stored/);

    const list = await ferry('push', '--list', 'tpr', file('tpr.txt', '00001\n00043\n'));
    assert.equal(list.code, 0, list.err);
    const status = await ferry('status');
    assert.match(status.out, /Catalogue: version 1 \(2 products, 2 tariffs\)/);
    assert.match(status.out, /List tpr: version 1 \(2 values\)/);
    assert.equal((await ferry('push')).code, 2);
  });
});
