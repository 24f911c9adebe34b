import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** One non-blank line of the input file: its number (1-based), its text, and its JSON value. */
export interface InputLine {
  line: number;
  text: string;
  /** The parsed value; undefined when the line is not JSON. */
  value: unknown;
  parseError: string | null;
}

/** The input's lines, streamed (a book of a million accounts is not held in memory). */
export async function* readInputLines(path: string): AsyncGenerator<InputLine> {
  const lines = createInterface({
    input: createReadStream(path, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (!text.trim()) continue;
    try {
      yield { line, text, value: JSON.parse(text), parseError: null };
    } catch (err) {
      yield { line, text, value: undefined, parseError: (err as Error).message };
    }
  }
}

/** How many non-blank lines the input has (for the progress total). */
export async function countInputLines(path: string): Promise<number> {
  let n = 0;
  const lines = createInterface({
    input: createReadStream(path, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const text of lines) if (text.trim()) n++;
  return n;
}

export interface ReportedError {
  code: string;
  attr: string | null;
  detail: string;
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
