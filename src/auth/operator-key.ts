import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE_NAME = 'operator-api-key';

/**
 * The operator credential: OPERATOR_API_KEY when set; otherwise the key saved in DATA_DIR,
 * generated on the first start, which `onGenerated` is told of by the file's path only: the key
 * never leaves its file (owner-only) for a console or a log.
 */
export function resolveOperatorKey(
  configured: string | null,
  dataDir: string,
  onGenerated: (file: string) => void,
): string {
  if (configured) return configured;
  const file = join(dataDir, FILE_NAME);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = `ferry_op_${randomBytes(32).toString('base64url')}`;
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  onGenerated(file);
  return key;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time comparison of two secrets of any length. */
export const secretsEqual = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));
