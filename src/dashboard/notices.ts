import { Type } from '@sinclair/typebox';
import type { ErrorCode } from '../errors/error-catalogue.ts';
import { StringEnum } from '../http/schemas.ts';
import { query } from './html.ts';

/**
 * Notices that say an action was refused: shown as an alert, not as a done deed. In the
 * operator's words (what did not happen, why, what to do here), not the API's codes.
 */
const REFUSALS = {
  'refused-reconciliation-differences': () =>
    'Not approved: this wave does not reconcile yet. Some of its accounts are missing, unexpected or differ from the source system’s figures, or no figures were uploaded. Read the differences below and have them put right; approve anyway only once they are understood.',
  'refused-wave-approved': () =>
    'Nothing changed: this wave is already approved, and an approval is final. Correct its accounts with follow-up imports.',
  'refused-welcome-emails-sent': (sent: number) =>
    `Not rolled back: ${sent} of this wave’s customers have already been sent their welcome e-mail, so the wave can no longer be undone. Correct its accounts with follow-up imports instead.`,
  'wave-name-mismatch': () => 'The name typed is not the wave’s name: nothing was rolled back.',
} as const;

/** The refusal notice of each wave act's 409 code. */
export const WAVE_REFUSALS: Partial<Record<ErrorCode, keyof typeof REFUSALS>> = {
  reconciliation_differences: 'refused-reconciliation-differences',
  wave_approved: 'refused-wave-approved',
  welcome_emails_sent: 'refused-welcome-emails-sent',
};

/**
 * What the page after an action says about it. The action redirects (303) with the notice's
 * name and counts in the query; the text is Ferry's own, never taken from the URL.
 */
const NOTICES = {
  paused: () => 'The supplier is paused: workers take none of its processes until it is resumed.',
  resumed: () => 'The supplier is resumed: workers take its processes again.',
  retried: () => 'The process is PENDING again; a worker will take it.',
  cancelled: () => 'The process is cancelled.',
  'bulk-retry': (changed: number, skipped: number) =>
    `${changed} process(es) sent back to PENDING; ${skipped} skipped (their state allows no retry).`,
  'bulk-cancel': (changed: number, skipped: number) =>
    `${changed} process(es) cancelled; ${skipped} skipped (their state allows no cancel).`,
  revoked: () => 'The API key is revoked; its tokens stop working at once.',
  'wave-approved': (released: number) =>
    `The wave is approved (final): ${released} held welcome e-mail(s) released.`,
  'wave-rolled-back': (processes: number) =>
    `The wave is rolled back: ${processes} process(es) CANCELLED, their accounts and every row of them deleted.`,
  ...REFUSALS,
} as const;
export type NoticeName = keyof typeof NOTICES;

const Count = Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$' }));
/** Query parameters every page that shows notices accepts. */
export const NoticeQuery = {
  notice: Type.Optional(StringEnum(Object.keys(NOTICES) as NoticeName[])),
  changed: Count,
  skipped: Count,
};

export function noticeText(q: { notice?: NoticeName; changed?: string; skipped?: string }): string | null {
  if (!q.notice) return null;
  return NOTICES[q.notice](Number(q.changed ?? 0), Number(q.skipped ?? 0));
}

/** The notice of a page and whether it tells of a refusal (for the page's context). */
export function noticeOf(q: { notice?: NoticeName; changed?: string; skipped?: string }) {
  return { notice: noticeText(q), refused: q.notice !== undefined && q.notice in REFUSALS };
}

/** The URL to go back to after an action, carrying its notice. */
export function withNotice(
  path: string,
  notice: NoticeName,
  counts: { changed?: number; skipped?: number } = {},
) {
  return (
    path +
    query({
      notice,
      changed: counts.changed === undefined ? undefined : String(counts.changed),
      skipped: counts.skipped === undefined ? undefined : String(counts.skipped),
    })
  );
}
