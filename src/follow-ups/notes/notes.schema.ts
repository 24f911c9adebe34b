import { type Static, Type } from '@sinclair/typebox';
import { followUpBody } from '../follow-up.ts';

const DateTime = (description: string) =>
  Type.String({
    format: 'date-time',
    description: `${description} ISO 8601: YYYY-MM-DDTHH:MM:SSZ, or with an offset or a fraction.`,
  });

export const NoteItemSchema = Type.Object(
  {
    body: Type.Optional(
      Type.String({ maxLength: 100_000, description: 'A note needs a body, documents, or both.' }),
    ),
    document_paths: Type.Optional(
      Type.Array(
        Type.Object(
          {
            document_path: Type.String({
              description: "Relative to the supplier's document root; the document must exist.",
            }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 100, description: 'Attachments; the documents must already be in the store.' },
      ),
    ),
    created_at: Type.Optional(DateTime('Default: now.')),
    external_id: Type.Optional(
      Type.String({
        // Indexed with the account (decision 0048).
        maxLength: 128,
        description:
          "The note's id in the supplier's system: a note with an external_id already on the account is NOTE_ALREADY_EXISTS.",
      }),
    ),
    is_archived: Type.Optional(
      Type.Boolean({ description: 'Archived on the account page. Default: false.' }),
    ),
    is_pinned: Type.Optional(Type.Boolean({ description: 'Pinned at the top of the account page.' })),
    unpin_at: Type.Optional(
      DateTime('Only with is_pinned true; the note is no longer pinned from this instant on.'),
    ),
  },
  { additionalProperties: false },
);

export const NotesBodySchema = followUpBody('notes', NoteItemSchema, 'The notes, 1 to 1,000.');

export const NOTE_STATUSES = ['NOTE_CREATION_SUCCESS', 'NOTE_ALREADY_EXISTS'] as const;
export type NoteStatus = (typeof NOTE_STATUSES)[number];

export const NoteResultSchema = Type.Object({
  created_at: Type.String({ format: 'date-time' }),
  body: Type.String({ description: 'The body; "" for a note with documents only.' }),
  status: Type.String({ description: 'NOTE_CREATION_SUCCESS or NOTE_ALREADY_EXISTS.' }),
});

export type NoteInput = Static<typeof NoteItemSchema>;
export type NotesRequest = Static<typeof NotesBodySchema>;
