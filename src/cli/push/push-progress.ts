/**
 * Progress of a push: a bar (cli-progress) on a terminal, plain lines otherwise (a log, CI).
 * Both show the counts per state, the rate of lines reaching their final state, and an ETA.
 */
import cliProgress from 'cli-progress';

export interface ProgressSource {
  total: number;
  /** Lines final before this run started (resumed): they do not count towards the rate. */
  finalAtStart: number;
  /** Counts per state: final statuses, and `SCHEDULED` for those sent and not yet final. */
  counts(): Record<string, number>;
  final(): number;
}

export interface Progress {
  stop(): void;
}

function describeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${state} ${n}`)
    .join(', ');
}

function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return `${Math.round(s)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

function measure(source: ProgressSource, started: number) {
  const final = source.final();
  const seconds = (Date.now() - started) / 1000;
  const rate = seconds > 0 ? (final - source.finalAtStart) / seconds : 0;
  const eta = rate > 0 ? (source.total - final) / rate : Number.POSITIVE_INFINITY;
  return { final, rate, eta };
}

export function startProgress(
  source: ProgressSource,
  options: { stream: NodeJS.WriteStream; label: string; intervalMs: number },
): Progress {
  const started = Date.now();
  if (options.stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream: options.stream,
        format: `${options.label} {bar} {value}/{total} | {states} | {rate}/s | ETA {eta_text}`,
        hideCursor: true,
        fps: 5,
      },
      cliProgress.Presets.shades_classic,
    );
    const payload = () => {
      const { rate, eta } = measure(source, started);
      return { states: describeCounts(source.counts()), rate: rate.toFixed(0), eta_text: formatSeconds(eta) };
    };
    bar.start(source.total, source.final(), payload());
    const timer = setInterval(() => bar.update(source.final(), payload()), 200);
    return {
      stop() {
        clearInterval(timer);
        bar.update(source.final(), payload());
        bar.stop();
      },
    };
  }
  const line = () => {
    const { final, rate, eta } = measure(source, started);
    options.stream.write(
      `${options.label}: ${final}/${source.total} final (${describeCounts(source.counts()) || 'none yet'}), ` +
        `${rate.toFixed(0)}/s, ETA ${formatSeconds(eta)}\n`,
    );
  };
  const timer = setInterval(line, options.intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      line();
    },
  };
}
