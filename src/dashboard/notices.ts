import { Type } from '@sinclair/typebox';
import { StringEnum } from '../http/schemas.ts';
import { query } from './html.ts';

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
