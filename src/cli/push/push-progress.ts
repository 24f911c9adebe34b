/**
 * Progress of a push: a bar (cli-progress) on a terminal, plain lines otherwise (a log, CI).
 * Both show the counts per state and, once it is known, the rate of lines reaching their final
 * state and an ETA; while a supplier is paused, that instead.
 */
import cliProgress from 'cli-progress';

export interface ProgressSource {
  total: number;
  /** Counts per state: final statuses, and `SCHEDULED` for those sent and not yet final. */
  counts(): Record<string, number>;
  /** Lines final, resumed ones included. */
  final(): number;
  /** Lines that reached their final state in this run: the rate. */
  finishedThisRun(): number;
  /** Suppliers paused now (their accounts wait). */
  paused?(): string[];
}

/**
 * The rate is known once this many lines have become final over this many seconds: earlier, a
 * few lines (the first bulk answer, rejections answered at once) made a rate off by 100 times.
 */
export const RATE_MIN_FINISHED = 20;
export const RATE_MIN_SECONDS = 3;

export interface Progress {
  stop(): void;
}

function describeCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${state} ${n}`)
    .join(', ');
}

function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * What the progress says of speed: the suppliers paused, the rate and ETA once known, or null
 * (nothing said) before. `seconds` counts the time no supplier was paused.
 */
export function speedOf(input: {
  finished: number;
  seconds: number;
  remaining: number;
  paused: string[];
}): string | null {
  const { finished, seconds, remaining, paused } = input;
  if (paused.length > 0) return `supplier ${paused.join(', ')} paused; waiting for it to be resumed`;
  if (finished < RATE_MIN_FINISHED || seconds < RATE_MIN_SECONDS) return null;
  const rate = finished / seconds;
  return `${rate.toFixed(0)}/s, ETA ${formatSeconds(remaining / rate)}`;
}

/** Measures the speed of a source, leaving out the time a supplier was paused. */
function speedometer(source: ProgressSource) {
  const started = Date.now();
  let pausedMs = 0;
  let lastAt = started;
  let wasPaused = false;
  return () => {
    const now = Date.now();
    if (wasPaused) pausedMs += now - lastAt;
    lastAt = now;
    const paused = source.paused?.() ?? [];
    wasPaused = paused.length > 0;
    return speedOf({
      finished: source.finishedThisRun(),
      seconds: (now - started - pausedMs) / 1000,
      remaining: Math.max(0, source.total - source.final()),
      paused,
    });
  };
}

export function startProgress(
  source: ProgressSource,
  options: { stream: NodeJS.WriteStream; label: string; intervalMs: number },
): Progress {
  const speed = speedometer(source);
  if (options.stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream: options.stream,
        format: `${options.label} {bar} {value}/{total} | {states}{speed}`,
        hideCursor: true,
        fps: 5,
      },
      cliProgress.Presets.shades_classic,
    );
    const payload = () => {
      const said = speed();
      return { states: describeCounts(source.counts()), speed: said ? ` | ${said}` : '' };
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
    const said = speed();
    options.stream.write(
      `${options.label}: ${source.final()}/${source.total} final (${describeCounts(source.counts()) || 'none yet'})` +
        `${said ? `, ${said}` : ''}\n`,
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
