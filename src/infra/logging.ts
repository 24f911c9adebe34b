import type { LoggerOptions } from 'pino';

/**
 * Where a secret could sit in a log line's fields, should any code ever log one: request
 * headers (tokens, API and operator keys, the dashboard's cookie) and fields named like a
 * credential. Ferry logs none of them today; the redaction is the net under that rule.
 */
const SECRET_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  '*.apiKey',
  '*.api_key',
  '*.token',
  '*.operatorKey',
  '*.operatorApiKey',
  '*.password',
  '*.smtpUrl',
];

/** The options of every Ferry logger (the API's and `ferry worker`'s): JSON lines, secrets redacted. */
export function loggerOptions(level: string): LoggerOptions {
  return { level, redact: { paths: SECRET_PATHS, censor: '[redacted]' } };
}
