/**
 * The push's line reader: the same lines, numbers and texts as readline gives (whatever the line
 * breaks and wherever the reads split them), and each line found again alone from its offset.
 */
import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { countInputLines, readInputLineAt, readInputLines } from '../../src/cli/push/push-input.ts';

/** What readline reads: every line with its number, blank ones skipped, as push read them before. */
async function readlineLines(path: string) {
  const out: { line: number; text: string }[] = [];
  let line = 0;
  for await (const text of createInterface({
    input: createReadStream(path, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    line++;
    if (text.trim()) out.push({ line, text });
  }
  return out;
}

/** Deterministic pseudo-random numbers (a failure can be replayed). */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

const PIECES = ['{"a":1}', '{"name":"Zoë — ☃ 😀"}', 'not json', '   ', '', '{"x":"y"}  ', '[1,2]'];
const BREAKS = ['\n', '\r\n', '\r', '\n\n', '\r\r\n'];

describe('push input lines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-push-input-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the lines readline reads, at any read size, and finds each again from its offset', async () => {
    const next = random(20261125);
    for (let file = 0; file < 40; file++) {
      const parts: string[] = [];
      const lines = 1 + Math.floor(next() * 30);
      for (let i = 0; i < lines; i++) {
        parts.push(PIECES[Math.floor(next() * PIECES.length)]);
        // The last line without a break now and then.
        if (i < lines - 1 || next() < 0.7) parts.push(BREAKS[Math.floor(next() * BREAKS.length)]);
      }
      const path = join(dir, `book-${file}.ndjson`);
      writeFileSync(path, parts.join(''));
      const expected = await readlineLines(path);
      for (const chunkBytes of [1, 2, 3, 7, 64, 1 << 20]) {
        const got = [];
        for await (const l of readInputLines(path, chunkBytes)) got.push(l);
        const context = `file ${file} (${JSON.stringify(parts.join(''))}), reads of ${chunkBytes} bytes`;
        assert.deepEqual(
          got.map(({ line, text }) => ({ line, text })),
          expected,
          context,
        );
        for (const l of got) {
          const again = await readInputLineAt(path, l);
          assert.equal(again.text, l.text, context);
          assert.deepEqual(again.value, l.value, context);
          assert.equal(again.parseError === null, l.parseError === null, context);
        }
      }
      assert.equal(await countInputLines(path), expected.length);
    }
  });
});
