import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FollowUpDeps } from '../../follow-ups/follow-up.ts';
import { NoteResultSchema, NotesBodySchema } from '../../follow-ups/notes/notes.schema.ts';
import { createNotes } from '../../follow-ups/notes/notes.service.ts';
import { authErrorResponses, BadRequest, bodyErrorResponses, ErrorRef } from '../../http/schemas.ts';

const EXAMPLE = {
  import_supplier: 'TENTACLE_ENERGY',
  external_account_number: 'EXTERNAL-1234',
  notes: [
    { body: 'Some important pinned note.', is_pinned: true, unpin_at: '2030-06-01T12:00:00Z' },
    {
      created_at: '2020-02-01T12:00:00Z',
      body: 'Some important note with an attachment.',
      document_paths: [{ document_path: 'some/path/to/a/document.pdf' }],
    },
  ],
};

export const notesRoutes: FastifyPluginAsyncTypebox<FollowUpDeps> = async (app, deps) => {
  app.post(
    '/v1/data-import/notes/create/',
    {
      schema: {
        tags: ['post account import'],
        summary: 'Import notes on an imported account',
        description:
          'A note is created only if the account has no note with the same body (and the same created_at ' +
          'when one is given); otherwise its status is NOTE_ALREADY_EXISTS. Every error is reported at once.',
        body: { ...NotesBodySchema, examples: [EXAMPLE] },
        response: {
          201: Type.Array(NoteResultSchema),
          400: BadRequest,
          404: ErrorRef,
          ...bodyErrorResponses,
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const results = await createNotes(deps, request.body);
      return reply.code(201).send(results);
    },
  );
};
