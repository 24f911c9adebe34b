import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { ObjectInfo, ObjectStore, ReadOptions } from './object-store.ts';
import { checkedKey, ObjectStoreError } from './object-store.ts';

/** Errors that mean "no object under this key" rather than "the store is broken". */
// ENAMETOOLONG: no such name can exist, so no such document does (never "retry shortly").
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG']);

const errnoOf = (err: unknown): string | undefined =>
  err && typeof err === 'object' && 'code' in err ? String((err as { code: unknown }).code) : undefined;

/** A symlink (or a key) that leads outside the root; callers see it as a missing object. */
class OutsideRootError extends Error {}

/**
 * Objects as files under one root directory: key `a/b.pdf` is `<root>/a/b.pdf`. Nothing outside
 * the root is ever read or written, including through symlinks placed inside it: every path is
 * resolved with realpath and must still be under the root's own real path.
 *
 * The content type is not kept (files have no metadata); nothing reads it back.
 */
export class FileObjectStore implements ObjectStore {
  readonly root: string;
  #realRoot: string | null = null;

  constructor(rootDir: string) {
    this.root = resolve(rootDir);
  }

  async get(key: string, options?: ReadOptions): Promise<Buffer | null> {
    return this.#read('get', key, options, async (file) => readFile(file));
  }

  async head(key: string, options?: ReadOptions): Promise<ObjectInfo | null> {
    return this.#read('head', key, options, async (file) => {
      const info = await stat(file);
      return info.isFile() ? { size: info.size } : null;
    });
  }

  async readStart(key: string, length: number, options?: ReadOptions): Promise<Buffer | null> {
    return this.#read('readStart', key, options, async (file) => {
      const handle = await open(file, 'r');
      try {
        const buffer = Buffer.alloc(Math.max(0, length));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    });
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.#pathOf(key);
    try {
      const directory = dirname(file);
      // Check before mkdir too: mkdir -p through a symlinked folder would create folders outside.
      await this.#assertInsideRoot(await this.#deepestExisting(directory));
      await mkdir(directory, { recursive: true });
      await this.#assertInsideRoot(directory);
      // Write beside the target and rename over it: a reader never sees a half-written file,
      // and the rename stays on one file system. fsync first so a crash leaves old or new.
      const temporary = join(directory, `.${randomUUID()}.partial`);
      const handle = await open(temporary, 'wx');
      try {
        await handle.writeFile(body);
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        await rename(temporary, file);
      } catch (err) {
        await unlink(temporary).catch(() => {});
        throw err;
      }
    } catch (err) {
      throw new ObjectStoreError('put', key, { cause: err });
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.#pathOf(key);
    try {
      await this.#assertInsideRoot(dirname(file));
      await unlink(file);
    } catch (err) {
      if (err instanceof OutsideRootError || ABSENT.has(errnoOf(err) ?? '')) return;
      throw new ObjectStoreError('delete', key, { cause: err });
    }
  }

  async close(): Promise<void> {}

  /**
   * Runs a read on the real path of the key's file; absent, outside the root or outside the
   * `within` folder reads as null. The folder is taken literally under the root's real path: a
   * folder that is itself a symlink (into another supplier's, say) confines to nothing.
   */
  async #read<T>(
    operation: 'get' | 'head' | 'readStart',
    key: string,
    options: ReadOptions | undefined,
    readFn: (file: string) => Promise<T | null>,
  ): Promise<T | null> {
    const file = this.#pathOf(key);
    const { folder } = checkedKey(key, options?.within);
    try {
      const real = await realpath(file);
      await this.#assertInsideRoot(real, folder);
      return await readFn(real);
    } catch (err) {
      if (err instanceof OutsideRootError || ABSENT.has(errnoOf(err) ?? '')) return null;
      throw new ObjectStoreError(operation, key, { cause: err });
    }
  }

  #pathOf(key: string): string {
    const file = join(this.root, ...checkedKey(key).segments);
    // checkedKey already refuses `..`; this guards against the rules ever drifting.
    if (!file.startsWith(this.root + sep)) throw new OutsideRootError(key);
    return file;
  }

  /** `folder`: segments of a folder under the root that the path must lie strictly inside. */
  async #assertInsideRoot(path: string, folder: string[] = []): Promise<void> {
    this.#realRoot ??= await realpath(this.root);
    const real = await realpath(path);
    if (folder.length > 0) {
      if (!real.startsWith(join(this.#realRoot, ...folder) + sep)) throw new OutsideRootError(path);
    } else if (real !== this.#realRoot && !real.startsWith(this.#realRoot + sep)) {
      throw new OutsideRootError(path);
    }
  }

  /** The deepest folder on the way to `directory` that exists already (the root is created). */
  async #deepestExisting(directory: string): Promise<string> {
    await mkdir(this.root, { recursive: true });
    let candidate = directory;
    while (candidate.startsWith(this.root + sep)) {
      try {
        await stat(candidate);
        return candidate;
      } catch (err) {
        if (!ABSENT.has(errnoOf(err) ?? '')) throw err;
        candidate = dirname(candidate);
      }
    }
    return this.root;
  }
}
