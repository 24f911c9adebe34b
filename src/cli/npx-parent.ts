/**
 * `npx ferry …` runs as npm exec → `sh -c ferry …` → node. npm passes a SIGTERM or SIGINT it gets
 * on to its child, the shell; dash (Debian's and Ubuntu's sh) neither passes it on nor execs
 * node in its place, so the shell ends and ferry runs on, an orphan holding its port. Under npm
 * exec, ferry therefore watches its parent: once the parent is gone (ferry was adopted by
 * another process), it sends itself SIGTERM, and the running command stops as it would on a
 * signal (serve, worker, dev vendor-sim). The check is a timer that keeps no command alive.
 */
export function stopWhenNpxParentEnds(
  env: Record<string, string | undefined> = process.env,
  opts: { intervalMs?: number } = {},
): (() => void) | null {
  if (env.npm_command !== 'exec') return null;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, opts.intervalMs ?? 500);
  timer.unref();
  return () => clearInterval(timer);
}
