/**
 * The one pass over a body's text: its depth, the escapes that may hide NUL or half a surrogate
 * pair, and the number tokens that need a closer look. Each is held to a slower definition.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { keepsExactly } from '../../src/vocabulary/exact-numbers.ts';
import { scanJsonText } from '../../src/vocabulary/json-text.ts';

const SEED = 20261124;

/** Depth as the parsed value shows it. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child));
  return deepest + 1;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const hides = (s: string) => s.includes('\u0000') || LONE_SURROGATE.test(s);

/** Whether a string or key anywhere in the value holds NUL or an unpaired surrogate. */
function holdsHidden(value: unknown): boolean {
  if (typeof value === 'string') return hides(value);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([k, v]) => hides(k) || holdsHidden(v));
}

describe('scanning JSON text', () => {
  it('measures the nesting depth the parsed value has', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => {
        assert.equal(scanJsonText(JSON.stringify(value)).depth, depthOf(value));
      }),
      { seed: SEED, numRuns: 500 },
    );
    assert.equal(scanJsonText('{"a":"[[[{{{","b":[[1]]}').depth, 3, 'brackets in strings do not count');
    // Strings are skipped to their closing quote: an escaped quote does not close them, an escaped backslash does not escape it.
    const quotes = fc.string({ unit: fc.constantFrom('a', '\\', '"', '[', '{', ']', '}') });
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6, stringUnit: quotes as never }), (value) => {
        assert.equal(scanJsonText(JSON.stringify(value)).depth, depthOf(value));
      }),
      { seed: SEED, numRuns: 500 },
    );
    assert.equal(scanJsonText('{"a":"x\\\\","b":[[1]]}').depth, 3);
    assert.equal(scanJsonText('{"a":"\\"[[[","b":1}').depth, 1);
  });

  it('flags exactly the texts whose strings hold NUL or an unpaired surrogate (as JSON.stringify escapes them)', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', '\\', '"', '\u0000', '\uD83D', '\uDE00', '\u0001', 'é'),
    });
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof(text, fc.array(text))), (value) => {
        assert.equal(scanJsonText(JSON.stringify(value)).suspectEscapes, holdsHidden(value));
      }),
      { seed: SEED, numRuns: 1000 },
    );
    // An escaped backslash before "u0000" is text, not an escape.
    assert.equal(scanJsonText('{"a":"\\\\u0000"}').suspectEscapes, false);
    assert.equal(scanJsonText('{"a":"\\u0000"}').suspectEscapes, true);
    assert.equal(scanJsonText('{"\\uDC00":1}').suspectEscapes, true);
  });

  it('never misses a number token a double cannot keep', () => {
    const digits = (min: number, max: number) =>
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    const token = fc
      .tuple(
        fc.boolean(),
        digits(1, 22),
        fc.option(digits(1, 22)),
        fc.option(fc.tuple(fc.constantFrom('e', 'E', 'e+', 'e-'), digits(1, 3))),
      )
      .map(([negative, whole, fraction, exponent]) => {
        const w = whole.replace(/^0+(?=\d)/, '');
        return `${negative ? '-' : ''}${w}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : exponent.join('')}`;
      });
    fc.assert(
      fc.property(token, (t) => {
        if (!keepsExactly(t)) assert.ok(scanJsonText(`{"x":[${t}]}`).longNumbers, t);
      }),
      { seed: SEED, numRuns: 5000 },
    );
    assert.equal(scanJsonText('{"a":"12345678901234567890","b":123456789012345}').longNumbers, false);
    assert.equal(scanJsonText('[1234567890.123456]').longNumbers, true);
  });
});
