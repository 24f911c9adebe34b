/**
 * A profile's CSV file, streamed: decoded as its format says (UTF-8 with or without a BOM, or
 * windows-1252 through iconv-lite — Node's own TextDecoder reads windows-1252 as Latin-1, so 0x80
 * would not be €), parsed by csv-parse, and cut down to the columns the profile reads. Each row
 * keeps the line it starts on; a cell whose bytes are not in the encoding is an `encoding_error`.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
import type { ProblemLog } from './mapping-problems.ts';
import type { FileFormat } from './profile.ts';

export interface CsvRow {
  line: number;
  /** The kept columns' cells, in the order asked for. */
  cells: string[];
}

export interface CsvSource {
  path: string;
  format: FileFormat;
  /** The profile key for problems about the file itself (`files.customers`). */
  key: string;
}

/** What the header says of the kept columns: where each is (1-based), or 0 when it is missing. */
export interface CsvLayout {
  file: string;
  columns: string[];
  positions: number[];
}

const REPLACEMENT = '\uFFFD';

async function* decoded(path: string, encoding: FileFormat['encoding']): AsyncGenerator<string> {
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  if (encoding === 'windows-1252') {
    const decoder = iconv.getDecoder('windows-1252');
    for await (const chunk of stream) yield decoder.write(chunk as Buffer);
    const rest = decoder.end();
    if (rest) yield rest;
    return;
  }
  // The BOM, when there is one, is dropped; a byte that is not UTF-8 becomes U+FFFD.
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of stream) yield decoder.decode(chunk as Buffer, { stream: true });
  const rest = decoder.decode();
  if (rest) yield rest;
}

/**
 * The file's rows, cut to `columns`. The first call of `onLayout` gives the header's positions of
 * the columns; a missing one is for the caller to report (then it returns false and no row is read).
 */
export async function* readCsvRows(
  source: CsvSource,
  columns: string[],
  ctx: { problems: ProblemLog; onLayout: (layout: CsvLayout) => boolean },
): AsyncGenerator<CsvRow> {
  const file = basename(source.path);
  const parser = parse({
    delimiter: source.format.delimiter,
    quote: source.format.quote,
    escape: source.format.quote,
    relax_column_count: true,
  });
  const input = Readable.from(decoded(source.path, source.format.encoding));
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);
  let header: string[] | null = null;
  let positions: number[] = [];
  // Line numbers are counted here rather than asked of csv-parse (its `info` cost a tenth of the
  // mapping): every line is a record, a blank one a single empty cell, and a record spans as many
  // more lines as its quoted cells hold line breaks.
  let line = 0;
  let next = 1;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      line = next;
      next = line + 1;
      for (const cell of record) if (cell.includes('\n')) next += cell.split('\n').length - 1;
      if (record.length === 1 && record[0] === '') continue;
      if (header === null) {
        header = record.map((h) => h.trim());
        positions = columns.map((c) => (header as string[]).indexOf(c) + 1);
        if (!ctx.onLayout({ file, columns, positions })) return;
        continue;
      }
      if (record.length !== header.length) {
        ctx.problems.add({
          code: 'malformed_csv',
          file,
          line,
          column: Math.min(record.length, header.length) + 1,
          header: null,
          key: source.key,
          detail: `the row has ${record.length} fields, the header ${header.length}`,
        });
        continue;
      }
      const cells = positions.map((p) => record[p - 1]);
      for (let i = 0; i < cells.length; i++) {
        if (!cells[i].includes(REPLACEMENT)) continue;
        ctx.problems.add({
          code: 'encoding_error',
          file,
          line,
          column: positions[i],
          header: columns[i],
          key: source.key,
          detail: `bytes that are not ${source.format.encoding}`,
        });
      }
      yield { line, cells };
    }
    if (header === null) {
      ctx.onLayout({ file, columns, positions: columns.map(() => 0) });
    }
  } catch (err) {
    const e = err as Error & { lines?: number; code?: string };
    if (e.code === 'ENOENT' || e.code === 'EACCES') throw err;
    ctx.problems.add({
      code: 'malformed_csv',
      file,
      line: e.lines ?? next,
      column: 1,
      header: null,
      key: source.key,
      detail: e.message,
    });
  } finally {
    input.destroy();
  }
}
