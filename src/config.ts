import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

/** Typed configuration, read once from the environment at start and passed down. */
export interface FerryConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  operatorApiKey: string | null;
  documentStoreUrl: string;
  s3: { endpoint: string | null; region: string };
  serviceTimezone: string;
  gocardless: { apiUrl: string; accessToken: string | null };
  stripe: { apiUrl: string; apiKey: string | null };
  workerConcurrency: number;
  /** FERRY_PROCESSES: API processes of `ferry serve`, worker processes of `ferry worker` (section 12). */
  processes: number;
  /** Threads that check the validate endpoint's accounts beside the event loop; 0: on it (decision 0049). */
  checkThreads: number;
  /** Where the outbox's e-mails go; null: nothing sends them (they wait in the outbox). */
  smtpUrl: string | null;
  /** The From of every e-mail Ferry sends. */
  mailFrom: string;
  /** How long a worker's claim on a process lasts before another worker may take it over. */
  workerLeaseSeconds: number;
  rateLimitPerSecond: number;
  /** Accounts of one supplier the V1 process endpoint creates at once; beyond, 429. */
  processInFlightPerSupplier: number;
  /** Bounds a request end to end: the HTTP handler and each database statement. */
  requestTimeoutMs: number;
  /** A cached API key or supplier is re-read from the database after at most this long. */
  cacheMaxAgeMs: number;
  /** How often the LISTEN connection proves it is alive (and how long it may take to). */
  listenHeartbeatMs: number;
  logLevel: string;
  /** `ferry worker` serves its own /metrics (batch latency, process) on this port; null: none. */
  metricsPort: number | null;
  /** When set, /metrics answers only `Authorization: Bearer <token>`; null: open (decision 0062). */
  metricsToken: string | null;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | null {
  const v = env[name];
  return v === undefined || v.trim() === '' ? null : v.trim();
}

/** FERRY_PROCESSES: a whole number, or `auto` for one per core. */
function processCount(env: Env): number {
  const raw = str(env, 'FERRY_PROCESSES');
  if (raw === 'auto') return availableParallelism();
  return int(env, 'FERRY_PROCESSES', 1, 1, 256);
}

/** Check threads per process: one per core of its share beside its event loop, at most four. */
export function defaultCheckThreads(processes: number, cores = availableParallelism()): number {
  if (processes === 1) return Math.min(4, Math.max(1, cores - 1));
  return Math.min(4, Math.max(0, Math.floor(cores / processes) - 1));
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function url(env: Env, name: string, fallback: string | null, protocols: string[]): string | null {
  const raw = str(env, name) ?? fallback;
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `is not a valid URL: "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

function timezone(env: Env, name: string, fallback: string): string {
  const tz = str(env, name) ?? fallback;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
  } catch {
    throw new ConfigError(name, `is not a known IANA time zone: "${tz}"`);
  }
  return tz;
}

/** `Name <address>` or a bare address: one @ with something either side. */
function mailFrom(env: Env, name: string, fallback: string): string {
  const from = str(env, name) ?? fallback;
  const address = /<([^<>]*)>\s*$/.exec(from)?.[1] ?? from;
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(address)) {
    throw new ConfigError(name, `must be an e-mail address, optionally as "Name <address>", got "${from}"`);
  }
  return from;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and validates every variable; throws ConfigError naming the first bad one. */
export function loadConfig(env: Env = process.env): FerryConfig {
  const dataDir = resolve(str(env, 'DATA_DIR') ?? './data');
  const port = int(env, 'PORT', 8080, 0, 65535);
  const host = str(env, 'HOST') ?? '127.0.0.1';
  const operatorApiKey = str(env, 'OPERATOR_API_KEY');
  if (operatorApiKey !== null && operatorApiKey.length < 16) {
    throw new ConfigError('OPERATOR_API_KEY', 'must be at least 16 characters');
  }
  const metricsToken = str(env, 'METRICS_TOKEN');
  if (metricsToken !== null && metricsToken.length < 16) {
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters');
  }
  const documentStoreUrl =
    url(env, 'DOCUMENT_STORE_URL', `file://${resolve(dataDir, 'documents')}`, ['file:', 's3:']) ?? '';
  const logLevel = str(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const processes = processCount(env);
  return {
    port,
    host,
    dataDir,
    databaseUrl: url(env, 'DATABASE_URL', null, ['postgres:', 'postgresql:']),
    operatorApiKey,
    documentStoreUrl,
    s3: {
      endpoint: url(env, 'S3_ENDPOINT', null, ['http:', 'https:']),
      region: str(env, 'S3_REGION') ?? 'eu-west-2',
    },
    serviceTimezone: timezone(env, 'SERVICE_TIMEZONE', 'Europe/London'),
    gocardless: {
      apiUrl: url(env, 'GOCARDLESS_API_URL', 'https://api.gocardless.com', ['http:', 'https:']) ?? '',
      accessToken: str(env, 'GOCARDLESS_ACCESS_TOKEN'),
    },
    stripe: {
      apiUrl: url(env, 'STRIPE_API_URL', 'https://api.stripe.com', ['http:', 'https:']) ?? '',
      apiKey: str(env, 'STRIPE_API_KEY'),
    },
    workerConcurrency: int(env, 'WORKER_CONCURRENCY', 100, 1, 1024),
    processes,
    // One per core beside the event loop's, at most four; one process of N gets its share of the
    // cores (none beside its event loop when N fills the machine), so N do not oversubscribe them.
    checkThreads: int(env, 'CHECK_THREADS', defaultCheckThreads(processes), 0, 16),
    smtpUrl: url(env, 'SMTP_URL', null, ['smtp:', 'smtps:']),
    mailFrom: mailFrom(env, 'MAIL_FROM', 'Ferry <no-reply@localhost>'),
    workerLeaseSeconds: int(env, 'WORKER_LEASE_SECONDS', 120, 1, 86_400),
    rateLimitPerSecond: int(env, 'RATE_LIMIT_PER_SECOND', 200, 1, 1_000_000),
    processInFlightPerSupplier: int(env, 'PROCESS_IN_FLIGHT_PER_SUPPLIER', 8, 0, 10_000),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
    // At most 30 s: a revoked key stops within that, whatever the feed says (docs/product.md,
    // Authentication and tenancy).
    cacheMaxAgeMs: int(env, 'CACHE_MAX_AGE_MS', 30_000, 0, 30_000),
    listenHeartbeatMs: int(env, 'LISTEN_HEARTBEAT_MS', 5_000, 100, 30_000),
    logLevel,
    metricsPort: str(env, 'METRICS_PORT') === null ? null : int(env, 'METRICS_PORT', 0, 1, 65535),
    metricsToken,
  };
}
