/**
 * stdout when its reader goes away. `ferry process list | head` closes the pipe after ten lines;
 * the next write fails with EPIPE, which Node reports as an 'error' event that, unheard, ends the
 * process with a stack trace. Ferry stops quietly instead and exits 0, as `git log | head` does
 * (decision 0056): a command that streams stops at its next write, one that prints at the end
 * finishes its work and keeps its own exit status.
 */

/** The reader of stdout has gone: nothing more can be shown, and that is not a failure. */
export class StdoutReaderGone extends Error {
  constructor() {
    super('the reader of stdout has gone');
  }
}

let readerGone = false;

/** Once, before a command prints: a closed pipe is heard (and remembered) rather than fatal. */
export function hearStdoutClosing(stdout: NodeJS.WriteStream = process.stdout): void {
  stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || readerGone) {
      readerGone = true;
      return;
    }
    throw err;
  });
}

/** Writes a chunk and waits until stdout takes it, so a full pipe holds a streaming command back. */
export function writeStdout(chunk: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (readerGone) return reject(new StdoutReaderGone());
    process.stdout.write(chunk, (err) => {
      if (!err) return resolve();
      if ('code' in err && err.code === 'EPIPE') readerGone = true;
      reject(readerGone ? new StdoutReaderGone() : err);
    });
  });
}
