/**
 * One pass over JSON text already known to be valid, reading what the parsed value no longer
 * shows cheaply: how deep it nests, whether a string holds an escape that may be NUL or half a
 * surrogate pair (`\u0000`, `\uD800`–`\uDFFF`), and whether a number token is long enough that
 * a double might not keep it. A character loop outside strings, and the engine's `indexOf` to
 * skip over them: the regular expressions it replaced scanned the text three times and cost ≈ 8 %
 * of a validate request, the loop over every character ≈ 8 % again (docs/performance.md).
 */
export interface JsonTextScan {
  /** The deepest nesting of objects and arrays. */
  depth: number;
  /** A `\u0000` or `\uD8xx`–`\uDFxx` escape in some string (a pair is flagged too; the walk decides). */
  suspectEscapes: boolean;
  /**
   * A number token with an exponent or more than 15 characters. Any other number has at most
   * 15 significant digits, which a double keeps exactly, so no other number needs a closer look.
   */
  longNumbers: boolean;
}

const QUOTE = 34;
const BACKSLASH = 92;
const LOWER_U = 117;

const isDigit = (c: number) => c >= 48 && c <= 57;

/** Whether the four hex digits at `at` are 0000 or a surrogate's (d8–df). */
function suspectHex(text: string, at: number): boolean {
  const first = text.charCodeAt(at) | 0x20; // lower case
  if (first === 100 /* d */) {
    const second = text.charCodeAt(at + 1) | 0x20;
    return second === 56 || second === 57 || (second >= 97 && second <= 102); // 8, 9, a–f
  }
  return text.startsWith('0000', at);
}

export function scanJsonText(text: string): JsonTextScan {
  let depth = 0;
  let deepest = 0;
  // Without a `\u` anywhere, no string holds a suspect escape: strings are then skipped whole.
  let suspectEscapes = false;
  let escapesToRead = text.includes('\\u');
  let longNumbers = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(text, i);
      if (escapesToRead && suspectEscapeIn(text, i + 1, end)) {
        suspectEscapes = true;
        escapesToRead = false;
      }
      i = end;
    } else if (c === 123 || c === 91) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 125 || c === 93) {
      depth--;
    } else if (c === 45 || isDigit(c)) {
      const start = i;
      let exponent = false;
      for (; i + 1 < n; i++) {
        const d = text.charCodeAt(i + 1);
        if (d === 101 || d === 69) exponent = true;
        else if (!isDigit(d) && d !== 46 && d !== 45 && d !== 43) break;
      }
      if (exponent || i - start + 1 > 15) longNumbers = true;
    }
  }
  return { depth: deepest, suspectEscapes, longNumbers };
}

/**
 * The index of the quote closing the string opened at `open`, found by the engine's own search
 * (most of a body's characters are inside strings): a quote after an odd run of backslashes is
 * escaped. The text is valid JSON, so the string is closed.
 */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/** Whether the string characters in [from, to) hold a `\u0000` or surrogate escape. */
function suspectEscapeIn(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    if (text.charCodeAt(i) !== BACKSLASH) continue;
    i++;
    if (text.charCodeAt(i) === LOWER_U && suspectHex(text, i + 1)) return true;
  }
  return false;
}
