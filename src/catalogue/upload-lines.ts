/**
 * The lines of a streamed upload (the catalogue, a code list), whatever their length in total,
 * refused once past `maxBytes`: the 5 MiB body limit does not hold for these uploads (the body is
 * never held whole), this one does.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { apiError } from '../errors/error-catalogue.ts';

export async function* uploadLines(body: Readable, maxBytes: number): AsyncGenerator<string> {
  let bytes = 0;
  for await (const line of createInterface({ input: body, crlfDelay: Number.POSITIVE_INFINITY })) {
    bytes += Buffer.byteLength(line) + 1;
    if (bytes > maxBytes) {
      throw apiError(
        'payload_too_large',
        `The upload is larger than the ${Math.round(maxBytes / 1_000_000)} MB limit; nothing was stored.`,
      );
    }
    yield line;
  }
}
