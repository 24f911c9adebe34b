import { findImportedAccount, lockImportedAccount } from '../../accounts/imported-account.ts';
import { type ErrorItem, item } from '../../errors/error-items.ts';
import { recordAccountEvent } from '../../events/event-feed.ts';
import { forEachConcurrently } from '../../infra/concurrency.ts';
import { resolveDocumentKey } from '../../infra/storage/document-path.ts';
import { findSupplier } from '../../suppliers/suppliers.queries.ts';
import { utcInstantText } from '../../vocabulary/calendar-date.ts';
import { FOLLOW_UP_EVENTS } from '../../vocabulary/event-types.ts';
import { wireDatetime } from '../../vocabulary/wire-datetime.ts';
import { DOCUMENT_CHECKS_IN_FLIGHT, type FollowUpDeps, followUpValidationFailed } from '../follow-up.ts';
import { insertNoteRows, type NewNote, sameNoteCandidates } from './notes.queries.ts';
import type { NoteInput, NoteStatus, NotesRequest } from './notes.schema.ts';

export interface NoteResult {
  created_at: string;
  body: string;
  status: NoteStatus;
}

/** A note after the checks: its instant fixed, its body normalised to "" when absent. */
interface PreparedNote {
  body: string;
  paths: string[];
  /** The instant, as canonical UTC text to the microsecond (timestamptz keeps every digit sent). */
  createdAt: string;
  /** The supplier gave created_at: only a note at the same instant is the same note. */
  explicitCreatedAt: boolean;
  externalId: string | null;
  is_archived: boolean;
  is_pinned: boolean;
  unpinAt: string | null;
}

const hasText = (s: string | undefined): s is string => typeof s === 'string' && s.trim() !== '';

interface KnownNote {
  body: string;
  paths: string[];
  createdAt: string;
  externalId: string | null;
}

/**
 * The same external_id (the reference's de-duplication key); or the same body, for a note with
 * documents only (no body) the same documents too, and the same instant when given.
 */
function sameNote(candidate: PreparedNote, existing: KnownNote) {
  if (candidate.externalId !== null && candidate.externalId === existing.externalId) return true;
  if (candidate.body !== existing.body) return false;
  if (candidate.body === '' && candidate.paths.join('\n') !== existing.paths.join('\n')) return false;
  return !candidate.explicitCreatedAt || candidate.createdAt === existing.createdAt;
}

/** Checks that need no database: body or documents, pinning, path safety. */
function checkNote(note: NoteInput, i: number, now: string, documentRoot: string, errors: ErrorItem[]) {
  const at = `notes.${i}`;
  const paths = note.document_paths ?? [];
  if (!hasText(note.body) && paths.length === 0) {
    errors.push(
      item(at, 'note_body_or_document_path_not_found', 'A note needs a body or at least one document path.'),
    );
  }
  const createdAt = note.created_at === undefined ? now : utcInstantText(note.created_at);
  let unpinAt: string | null = null;
  if (note.unpin_at !== undefined) {
    unpinAt = utcInstantText(note.unpin_at);
    if (note.is_pinned !== true) {
      errors.push(
        item(
          `${at}.unpin_at`,
          'note_unpin_at_requires_pinned',
          'unpin_at is allowed only with is_pinned true.',
        ),
      );
    } else if (unpinAt < createdAt) {
      errors.push(
        item(
          `${at}.unpin_at`,
          'note_unpin_at_earlier_than_creation_date',
          'unpin_at may not be earlier than the note’s created_at.',
        ),
      );
    }
  }
  const keys: (string | null)[] = paths.map((p, j) => {
    const resolved = resolveDocumentKey(documentRoot, p.document_path);
    if (resolved.ok) return resolved.key;
    errors.push(item(`${at}.document_paths.${j}.document_path`, resolved.code, resolved.detail));
    return null;
  });
  const prepared: PreparedNote = {
    body: note.body ?? '',
    paths: paths.map((p) => p.document_path),
    createdAt,
    explicitCreatedAt: note.created_at !== undefined,
    externalId: note.external_id ?? null,
    is_archived: note.is_archived === true,
    is_pinned: note.is_pinned === true,
    unpinAt,
  };
  return { prepared, keys };
}

/**
 * POST /v1/data-import/notes/create/: checks every note (all errors at once), then, with the
 * account row locked, creates the notes that do not exist yet.
 */
export async function createNotes(deps: FollowUpDeps, request: NotesRequest): Promise<NoteResult[]> {
  const { db, objectStore } = deps;
  await findImportedAccount(db, request.import_supplier, request.external_account_number);
  const supplier = await findSupplier(db, request.import_supplier);
  const documentRoot = supplier?.document_root ?? '';
  const now = utcInstantText(new Date().toISOString());
  const errors: ErrorItem[] = [];
  const checked = request.notes.map((n, i) => checkNote(n, i, now, documentRoot, errors));

  // Existence of every safe path, a few at a time (each is one small request on S3).
  const paths = checked.flatMap(({ keys }, i) =>
    keys.map((key, j) => ({ key, attr: `notes.${i}.document_paths.${j}.document_path` })),
  );
  await forEachConcurrently(paths, DOCUMENT_CHECKS_IN_FLIGHT, async ({ key, attr }) => {
    if (key !== null && (await objectStore.head(key, { within: documentRoot })) === null) {
      errors.push(item(attr, 'path_does_not_exist_in_file_store', 'No document exists at that path.'));
    }
  });
  if (errors.length > 0) throw followUpValidationFailed(errors);

  return db.transaction(async (tx) => {
    const locked = await lockImportedAccount(tx, request.import_supplier, request.external_account_number);
    const notes = checked.map((c) => c.prepared);
    const bodies = [...new Set(notes.map((n) => n.body))];
    const externalIds = [...new Set(notes.flatMap((n) => (n.externalId === null ? [] : [n.externalId])))];
    const known: KnownNote[] = (await sameNoteCandidates(tx, locked.id, bodies, externalIds)).map((row) => ({
      body: row.body,
      paths: row.document_paths,
      createdAt: row.created_at,
      externalId: row.external_id,
    }));
    const toInsert: NewNote[] = [];
    const results: NoteResult[] = notes.map((note) => {
      const existing = known.find((k) => sameNote(note, k));
      if (existing) {
        return {
          created_at: wireDatetime(new Date(Date.parse(existing.createdAt))) as string,
          body: note.body,
          status: 'NOTE_ALREADY_EXISTS',
        };
      }
      // Later notes of this request are compared with this one too.
      known.push({
        body: note.body,
        paths: note.paths,
        createdAt: note.createdAt,
        externalId: note.externalId,
      });
      toInsert.push({
        body: note.body,
        paths: note.paths,
        created_at: note.createdAt,
        external_id: note.externalId,
        is_archived: note.is_archived,
        is_pinned: note.is_pinned,
        unpin_at: note.unpinAt,
      });
      return {
        created_at: wireDatetime(new Date(Date.parse(note.createdAt))) as string,
        body: note.body,
        status: 'NOTE_CREATION_SUCCESS',
      };
    });
    await insertNoteRows(tx, locked.id, toInsert);
    if (toInsert.length > 0) {
      await recordAccountEvent(tx, {
        supplier: locked.import_supplier,
        externalAccountNumber: locked.external_account_number,
        type: FOLLOW_UP_EVENTS.NOTE_ADDED,
        data: { notes: toInsert.length },
      });
    }
    return results;
  });
}
