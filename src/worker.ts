import type { FastifyBaseLogger } from 'fastify';
import type { FerryConfig } from './config.ts';
import type { Db } from './infra/db/db.ts';

export interface WorkerHandle {
  stop(): Promise<void>;
}

/**
 * Account-creation workers. The processing loop arrives with the account import; until then
 * this starts nothing and says so, so `ferry serve` and `ferry worker` keep their contract.
 */
export function startWorkers(
  _config: FerryConfig,
  deps: { db: Db; logger: FastifyBaseLogger },
): WorkerHandle {
  deps.logger.warn('account-creation workers are not available in this build');
  return { stop: async () => {} };
}
