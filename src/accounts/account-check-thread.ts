/**
 * What a check thread of the built service loads (AccountCheckPool in account-checks.ts): the
 * check, imported as the event loop imports its modules. Piscina require()s a thread's file first
 * and imports it only when that fails; a module with top-level await cannot be required, so this
 * one is imported. Under a loader (tsx, which the bench runs on), a require() of the built code
 * compiled it again (esbuild, names kept), and the threads checked slower than `npm start` does.
 */
await Promise.resolve();

export { verdictInThread } from './account-checks.ts';
export { bodyVerdictInThread } from './body-verdict.ts';
