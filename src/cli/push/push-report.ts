/**
 * The report of a push and its journal, both NDJSON files appended a line at a time.
 *
 * The report holds one line per account (or follow-up line) in its final state. The journal
 * (`<report>.journal`) remembers what was scheduled (201) but is not final yet, so a re-run
 * polls it instead of sending it again; it is removed when a run leaves nothing unfinished.
 * The lines known in one turn of the event loop are written together with one write(2) at its
 * end, so a killed process loses at most the answers of that turn (a re-run sends those lines
 * again, which changes nothing: scheduling is idempotent); fdatasync follows at most every
 * SYNC_INTERVAL_MS, for a machine that loses power. A sync per line (or per turn) cost a push
 * more than half its throughput: at a few hundred answers a second the disk did nothing else.
 */
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { readInputLines } from './push-input.ts';

/** The lines of an NDJSON file that parse; a torn last line (a killed writer) is cut off first. */
export function readNdjsonLines(path: string): Record<string, unknown>[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) truncateSync(path, Buffer.byteLength(text.slice(0, end)));
  const out: Record<string, unknown>[] = [];
  for (const line of text.slice(0, end).split('\n')) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line);
      if (value && typeof value === 'object') out.push(value);
    } catch {}
  }
  return out;
}

/** Cuts off a torn last line (a killed writer), reading only the file's end. */
export function cutTornLine(path: string): void {
  if (!existsSync(path)) return;
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const chunk = Buffer.alloc(64 * 1024);
    for (let end = size; end > 0; ) {
      const start = Math.max(0, end - chunk.length);
      const n = readSync(fd, chunk, 0, end - start, start);
      const lf = chunk.subarray(0, n).lastIndexOf(0x0a);
      if (lf !== -1) {
        if (start + lf + 1 < size) truncateSync(path, start + lf + 1);
        return;
      }
      end = start;
    }
    if (size > 0) truncateSync(path, 0);
  } finally {
    closeSync(fd);
  }
}

/**
 * The lines of an NDJSON file, streamed, each with its index among the non-blank lines (what
 * compactNdjson drops lines by) and its value, or null when it does not parse.
 */
export async function* ndjsonRecords(
  path: string,
): AsyncGenerator<{ index: number; value: Record<string, unknown> | null }> {
  if (!existsSync(path)) return;
  let index = 0;
  for await (const input of readInputLines(path)) {
    const value =
      input.value && typeof input.value === 'object' ? (input.value as Record<string, unknown>) : null;
    yield { index: index++, value };
  }
}

/**
 * Rewrites an NDJSON file without the lines `drop` names by index (as ndjsonRecords counts them),
 * through a temporary file renamed over it: a kill leaves the old file or the new one, whole.
 */
export async function compactNdjson(path: string, drop: (index: number) => boolean): Promise<void> {
  const temporary = `${path}.compacting`;
  const fd = openSync(temporary, 'w');
  try {
    let index = 0;
    let pending: string[] = [];
    const flush = () => {
      if (pending.length > 0) writeSync(fd, `${pending.join('\n')}\n`);
      pending = [];
    };
    for await (const input of readInputLines(path)) {
      if (!drop(index++)) pending.push(input.text);
      if (pending.length >= 1000) flush();
    }
    flush();
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

/** How long written report lines may wait for fdatasync. */
const SYNC_INTERVAL_MS = 250;

/** An append-only NDJSON file: written once per event-loop turn, synced every SYNC_INTERVAL_MS. */
export class NdjsonAppender {
  readonly #fd: number;
  #pending: string[] = [];
  #syncTimer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(readonly path: string) {
    this.#fd = openSync(path, 'a');
  }

  /** After close() (a failed run's requests still ending) a line is dropped: a re-run redoes it. */
  append(value: unknown): void {
    if (this.#closed) return;
    this.#pending.push(`${JSON.stringify(value)}\n`);
    if (this.#pending.length === 1) setImmediate(() => this.#write());
  }

  #write() {
    if (this.#closed || this.#pending.length === 0) return;
    writeSync(this.#fd, this.#pending.join(''));
    this.#pending = [];
    this.#syncTimer ??= setTimeout(() => {
      this.#syncTimer = null;
      if (!this.#closed) fdatasyncSync(this.#fd);
    }, SYNC_INTERVAL_MS);
  }

  close(): void {
    if (this.#closed) return;
    this.#write();
    if (this.#syncTimer) clearTimeout(this.#syncTimer);
    fdatasyncSync(this.#fd);
    this.#closed = true;
    closeSync(this.#fd);
  }
}

export const journalPath = (reportPath: string) => `${reportPath}.journal`;

export function removeJournal(reportPath: string): void {
  rmSync(journalPath(reportPath), { force: true });
}
