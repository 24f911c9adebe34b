import { type Queryable, sql } from '../../infra/db/db.ts';

export interface StoredNote {
  body: string;
  document_paths: string[];
  /** Canonical UTC text to the microsecond (utcInstantText). */
  created_at: string;
  external_id: string | null;
}

export interface NewNote {
  body: string;
  paths: string[];
  /** ISO 8601 instant. */
  created_at: string;
  external_id: string | null;
  is_archived: boolean;
  is_pinned: boolean;
  unpin_at: string | null;
}

const selectSameNoteCandidates = sql(
  'selectSameNoteCandidates',
  `SELECT body, document_paths, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
          external_id FROM notes
    WHERE account_id = $1 AND (body = ANY($2::text[]) OR external_id = ANY($3::text[]))`,
);

const insertNotes = sql(
  'insertNotes',
  `INSERT INTO notes (account_id, body, document_paths, created_at, external_id, is_archived, is_pinned, unpin_at)
   SELECT $1, n.body, ARRAY(SELECT jsonb_array_elements_text(n.paths)), n.created_at, n.external_id,
          n.is_archived, n.is_pinned, n.unpin_at
     FROM jsonb_to_recordset($2::jsonb)
       AS n(body text, paths jsonb, created_at timestamptz, external_id text, is_archived boolean,
            is_pinned boolean, unpin_at timestamptz)`,
);

const selectPinnedNotes = sql(
  'selectPinnedNotes',
  `SELECT id::text AS id, body, created_at, unpin_at FROM notes
    WHERE account_id = $1 AND is_pinned AND (unpin_at IS NULL OR unpin_at > $2)
    ORDER BY created_at DESC, id DESC`,
);

/**
 * The account's notes whose body is one of `bodies` or whose external_id is one of
 * `externalIds`: the candidates for NOTE_ALREADY_EXISTS.
 */
export async function sameNoteCandidates(
  q: Queryable,
  accountId: string,
  bodies: string[],
  externalIds: string[],
) {
  return (await q.query<StoredNote>(selectSameNoteCandidates, [accountId, bodies, externalIds])).rows;
}

export async function insertNoteRows(q: Queryable, accountId: string, notes: NewNote[]) {
  if (notes.length === 0) return;
  await q.query(insertNotes, [accountId, JSON.stringify(notes)]);
}

/** Notes pinned at instant `at`: is_pinned and not yet past unpin_at. */
export async function pinnedNotes(q: Queryable, accountId: string, at: Date) {
  return (
    await q.query<{ id: string; body: string; created_at: Date | string; unpin_at: Date | string | null }>(
      selectPinnedNotes,
      [accountId, at.toISOString()],
    )
  ).rows;
}
