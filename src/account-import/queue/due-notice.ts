/**
 * How the workers hear that import processes became due (decision 0100): after a request that
 * scheduled accounts has been answered, the API process sends a coalesced `NOTIFY` on this channel
 * (at most one per interval, outside any transaction, as the event feed's notifier does), and
 * every worker listening ends its idle wait and claims at once. Between notices an idle worker
 * looks less and less often, so a quiet fleet of many processes costs the database little; a
 * notice that is lost only delays the work until the next look.
 */
export const IMPORTS_DUE_CHANNEL = 'ferry_imports_due';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A success of this route may have made import processes due: the workers are told. */
    makesWorkDue?: boolean;
  }
}
