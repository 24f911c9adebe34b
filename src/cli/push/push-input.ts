import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

/** One non-blank line of the input file: its number (1-based), its text, and its JSON value. */
export interface InputLine {
  line: number;
  text: string;
  /** The parsed value; undefined when the line is not JSON. */
  value: unknown;
  parseError: string | null;
  /** Where the line's bytes are in the file (without its line break), to read it again alone. */
  offset: number;
  bytes: number;
}

/** A line as the reader finds it, before it is parsed. */
type LineSpan = Pick<InputLine, 'line' | 'text' | 'offset' | 'bytes'>;

/** How much of the input is read at a time. */
const READ_BYTES = 1 << 20;
const LF = 0x0a;
const CR = 0x0d;

/**
 * The file's lines, streamed with their byte offsets, blank ones included. Line breaks are `\n`,
 * `\r\n` or a lone `\r` (as readline reads them); the text is UTF-8 decoded.
 */
async function* lineSpans(path: string, chunkBytes: number): AsyncGenerator<LineSpan> {
  const stream = createReadStream(path, { highWaterMark: chunkBytes });
  let line = 0;
  // The start of a line the previous chunks ended in the middle of, and where in the file it began.
  let partial: Buffer[] = [];
  let partialOffset = 0;
  let chunkOffset = 0;
  // The previous chunk ended with a \r: a \n starting this one is the rest of that line break.
  let skipLf = false;
  const span = (bytes: Buffer, offset: number): LineSpan => ({
    line: ++line,
    text: bytes.toString('utf8'),
    offset,
    bytes: bytes.length,
  });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = skipLf && chunk[0] === LF ? 1 : 0;
      skipLf = false;
      // Searched again only once passed: a file without \r costs one search a chunk.
      let cr = chunk.indexOf(CR, start);
      for (;;) {
        if (cr !== -1 && cr < start) cr = chunk.indexOf(CR, start);
        const lf = chunk.indexOf(LF, start);
        const end = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf;
        if (end === -1) break;
        const head = chunk.subarray(start, end);
        if (partial.length > 0) yield span(Buffer.concat([...partial, head]), partialOffset);
        else yield span(head, chunkOffset + start);
        partial = [];
        start = end + 1;
        if (end === cr) {
          if (start === chunk.length) skipLf = true;
          else if (chunk[start] === LF) start++;
        }
      }
      if (start < chunk.length) {
        if (partial.length === 0) partialOffset = chunkOffset + start;
        partial.push(chunk.subarray(start));
      }
      chunkOffset += chunk.length;
    }
    if (partial.length > 0) yield span(Buffer.concat(partial), partialOffset);
  } finally {
    stream.destroy();
  }
}

const inputLine = ({ line, text, offset, bytes }: LineSpan): InputLine => {
  try {
    return { line, text, value: JSON.parse(text), parseError: null, offset, bytes };
  } catch (err) {
    return { line, text, value: undefined, parseError: (err as Error).message, offset, bytes };
  }
};

/**
 * The input's non-blank lines, streamed (a book of a million accounts is not held in memory);
 * `chunkBytes` is how much is read at a time.
 */
export async function* readInputLines(path: string, chunkBytes = READ_BYTES): AsyncGenerator<InputLine> {
  for await (const span of lineSpans(path, chunkBytes)) if (span.text.trim()) yield inputLine(span);
}

/** One line read again, alone, from where readInputLines found it. */
export async function readInputLineAt(
  path: string,
  at: Pick<InputLine, 'line' | 'offset' | 'bytes'>,
): Promise<InputLine> {
  const file = await open(path);
  try {
    const bytes = Buffer.alloc(at.bytes);
    const { bytesRead } = await file.read(bytes, 0, at.bytes, at.offset);
    return inputLine({ ...at, text: bytes.subarray(0, bytesRead).toString('utf8') });
  } finally {
    await file.close();
  }
}

/** How many non-blank lines the input has (for the progress total). */
export async function countInputLines(path: string): Promise<number> {
  let n = 0;
  for await (const span of lineSpans(path, READ_BYTES)) if (span.text.trim()) n++;
  return n;
}

export interface ReportedError {
  code: string;
  attr: string | null;
  detail: string;
  /** A whole-book check's error (--validate-only): the other line of the file it is about. */
  other_line?: number;
  other_external_account_number?: string | null;
}

/**
 * The errors of a refused request, as the report lists them: the items of a validation body
 * (`errors`), else the code inside `non_field_errors`, else the body's own code and detail.
 */
export function errorsOf(status: number, body: unknown): ReportedError[] {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  if (Array.isArray(b.errors) && b.errors.length > 0) {
    return b.errors.map((e: Record<string, unknown>) => ({
      code: String(e.code ?? 'invalid'),
      attr: typeof e.attr === 'string' ? e.attr : null,
      detail: String(e.detail ?? ''),
    }));
  }
  const nested = b.non_field_errors as Record<string, unknown> | undefined;
  const source = nested && typeof nested === 'object' ? nested : b;
  return [
    {
      code: typeof source.code === 'string' ? source.code : `http_${status}`,
      attr: null,
      detail: String(source.detail ?? source.error_detail ?? (typeof body === 'string' ? body : '')),
    },
  ];
}
