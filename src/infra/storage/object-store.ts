/**
 * Where supplier documents live: note attachments and historical statement PDFs.
 * Two implementations: a directory on the file system (the default, under DATA_DIR) and an S3
 * bucket. The interface is what the follow-up imports need and no more: does the document exist,
 * what are its first bytes (the PDF magic check), and writing/removing objects for tests and tools.
 */

export interface ObjectInfo {
  /** Size in bytes. */
  size: number;
}

/** How a read is confined. */
export interface ReadOptions {
  /**
   * A folder of the store (a key prefix: a supplier's document root) that the key must name an
   * object in, and that the object must really lie in: one reached through a symlink leading
   * out of the folder reads as absent, exactly as if there were no object.
   */
  within?: string;
}

export interface ObjectStore {
  /** The whole object, or null when there is no object under that key. */
  get(key: string, options?: ReadOptions): Promise<Buffer | null>;
  /** Size of the object, or null when there is none: the cheap existence check. */
  head(key: string, options?: ReadOptions): Promise<ObjectInfo | null>;
  /**
   * At most the first `length` bytes (fewer when the object is shorter), or null when there is
   * no object. Reads only those bytes, so checking a 50 MB PDF's magic costs one small request.
   */
  readStart(key: string, length: number, options?: ReadOptions): Promise<Buffer | null>;
  /** Writes the whole object at once: readers see the old object or the new one, never a mix. */
  put(key: string, body: Buffer, contentType?: string): Promise<void>;
  /** Removes the object; removing an object that does not exist is not an error. */
  delete(key: string): Promise<void>;
  /** Releases connections; the store is not used afterwards. */
  close(): Promise<void>;
}

/** A key that is not a canonical relative path. Keys come from resolveDocumentKey, so this is a bug. */
export class InvalidObjectKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`invalid object key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'InvalidObjectKeyError';
  }
}

/** The store could not be read or written (I/O error, network, credentials, missing bucket). */
export class ObjectStoreError extends Error {
  constructor(
    readonly operation: 'get' | 'head' | 'readStart' | 'put' | 'delete',
    readonly key: string,
    options: { cause: unknown },
  ) {
    super(`object store ${operation} of ${JSON.stringify(key)} failed`, options);
    this.name = 'ObjectStoreError';
  }
}

/** S3's limit on a key, which we apply to both stores so that data can move between them. */
export const MAX_OBJECT_KEY_BYTES = 1024;

// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const FORBIDDEN_KEY_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\\]/;

/**
 * Both stores check every key again even though callers build keys with resolveDocumentKey:
 * a key is turned into a file path or an S3 key here, and this is the last place a traversal
 * could be stopped. Returns the key's segments.
 */
export function objectKeySegments(key: string): string[] {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidObjectKeyError(String(key), 'empty');
  if (Buffer.byteLength(key, 'utf8') > MAX_OBJECT_KEY_BYTES) {
    throw new InvalidObjectKeyError(key, `longer than ${MAX_OBJECT_KEY_BYTES} bytes`);
  }
  if (FORBIDDEN_KEY_CHARACTERS.test(key)) {
    throw new InvalidObjectKeyError(key, 'contains a control character or a backslash');
  }
  const segments = key.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw new InvalidObjectKeyError(key, 'has an empty, "." or ".." segment');
    }
  }
  return segments;
}

/**
 * The segments of `within` (a folder), after checking that `key` names something inside it.
 * Keys come from resolveDocumentKey under the same root, so a key outside it is a bug.
 */
export function folderSegments(key: string, within: string): string[] {
  const folder = objectKeySegments(within);
  const segments = objectKeySegments(key);
  const inside = segments.length > folder.length && folder.every((s, i) => segments[i] === s);
  if (!inside) throw new InvalidObjectKeyError(key, `not inside the folder ${JSON.stringify(within)}`);
  return folder;
}

/**
 * The checks both stores make on every key: its segments (objectKeySegments) and, for a read
 * confined to a folder, that folder's segments once the key is known to lie inside it; [] for none.
 */
export function checkedKey(key: string, within?: string): { segments: string[]; folder: string[] } {
  const folder = within === undefined ? [] : folderSegments(key, within);
  return { segments: objectKeySegments(key), folder };
}
