/**
 * `ferry push <kind> [book.ndjson] --profile P.yaml`: the profile's CSV files are mapped into the
 * book before anything is sent (accounts, or a follow-up's request bodies: decision 0094). A
 * profile or source-file mistake stops the push there; with --summary the source files' problems
 * are written grouped by code and profile key, as a push's validation errors are. Once pushed, the
 * report's errors are traced to the rows and columns they came from.
 */
import type { BookPlan } from '../../flat-files/profile-plan.ts';
import { addSourcesToReport } from '../../flat-files/report-sources.ts';
import { sourcesPathOf } from '../../flat-files/write-book.ts';
import { type MapRequest, mapProfileBook } from '../map-commands.ts';
import { formatSummary, mappingSummary, writeSummary } from './push-summary.ts';

interface ProfileIo {
  out: (s: string) => void;
  err: (s: string) => void;
}

/** A book `ferry push --profile` mapped, to trace its report's errors to the source. */
export interface ProfileBook {
  plan: BookPlan;
  book: string;
}

/**
 * Maps before anything is sent. Returns the book to push, or the exit code when the profile or
 * the source files have problems (those then grouped on `out`, and in `summaryPath` when given).
 */
export async function mapBeforePush(
  request: MapRequest & { summaryPath: string | undefined },
  io: ProfileIo,
): Promise<ProfileBook | { code: number }> {
  const mapped = await mapProfileBook(request, { ...io, label: 'ferry push' });
  if (mapped.code === 0) return { plan: mapped.plan, book: mapped.book };
  if (mapped.code === 1) {
    const summary = mappingSummary(mapped.problems);
    io.out(formatSummary(summary));
    if (request.summaryPath !== undefined) {
      writeSummary(request.summaryPath, summary);
      io.out(`Summary: ${request.summaryPath}\n`);
    }
  }
  return { code: mapped.code };
}

/** Adds to each error of the push's report the source file, line and column of its field. */
export async function traceReport(mapped: ProfileBook, reportPath: string, io: ProfileIo): Promise<void> {
  const traced = await addSourcesToReport(reportPath, sourcesPathOf(mapped.book), mapped.plan);
  if (traced > 0)
    io.out(`ferry push: ${traced} error(s) in the report traced to their source rows (source)\n`);
}
