/**
 * The report of a push and its journal, both NDJSON files appended a line at a time.
 *
 * The report holds one line per account (or follow-up line) in its final state. The journal
 * (`<report>.journal`) remembers what was scheduled (201) but is not final yet, so a re-run
 * polls it instead of sending it again; it is removed when a run leaves nothing unfinished.
 * Each line is written with one write(2) as soon as it is known, so a killed process loses
 * nothing the kernel was given; fdatasync follows once per turn of the event loop.
 */
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  openSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeSync,
} from 'node:fs';

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

/** An append-only NDJSON file: each line written at once, synced to disk once per event-loop turn. */
export class NdjsonAppender {
  readonly #fd: number;
  #syncScheduled = false;
  #closed = false;

  constructor(readonly path: string) {
    this.#fd = openSync(path, 'a');
  }

  /** After close() (a failed run's requests still ending) a line is dropped: a re-run redoes it. */
  append(value: unknown): void {
    if (this.#closed) return;
    writeSync(this.#fd, `${JSON.stringify(value)}\n`);
    if (!this.#syncScheduled) {
      this.#syncScheduled = true;
      setImmediate(() => this.#sync());
    }
  }

  #sync() {
    this.#syncScheduled = false;
    if (!this.#closed) fdatasyncSync(this.#fd);
  }

  close(): void {
    if (this.#closed) return;
    fdatasyncSync(this.#fd);
    this.#closed = true;
    closeSync(this.#fd);
  }
}

export const journalPath = (reportPath: string) => `${reportPath}.journal`;

export function removeJournal(reportPath: string): void {
  rmSync(journalPath(reportPath), { force: true });
}
