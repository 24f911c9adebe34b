/**
 * The operator's reference data (decision 0090): the product catalogue (`PUT /admin/v1/products/`,
 * NDJSON, one product a line) and the code lists (`PUT /admin/v1/code-lists/<name>/`, one value a
 * line), each upload streamed (up to 100 MB, past the 5 MiB body limit), all or nothing, a new
 * version; and their pages. The process answering an upload has the new version before it
 * answers; the others within a second (reference-cache.ts).
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PRODUCTS, productsPage, replaceCatalogue } from '../catalogue/catalogue.queries.ts';
import { listCodeLists, replaceCodeList } from '../catalogue/code-lists.queries.ts';
import { CODE_LIST_NAMES, codeListNamed } from '../catalogue/code-lists.ts';
import type { ReferenceCache } from '../catalogue/reference-cache.ts';
import {
  currentVersion,
  MAX_UPLOAD_BYTES,
  recentVersions,
  versionOf,
} from '../catalogue/reference-versions.queries.ts';
import { uploadLines } from '../catalogue/upload-lines.ts';
import { notFound, unsupportedMediaType, validationFailed } from '../errors/error-catalogue.ts';
import { item } from '../errors/error-items.ts';
import { documentedOnly } from '../http/json-body.ts';
import { AdminObject, BadRequest, ErrorRef, StringEnum } from '../http/schemas.ts';
import type { Db } from '../infra/db/db.ts';
import {
  CatalogueUploadView,
  CodeListUploadView,
  DryRunQuery,
  InUseError,
  PageQuery,
  ProductView,
  pageLimit,
  VersionView,
  versionView,
} from './catalogue.schemas.ts';

/** A catalogue of a hundred megabytes is read and stored in well under this. */
const UPLOAD_TIMEOUT_MS = 600_000;
/** Whoever holds the operator key; the admin API has no other name for them. */
const OPERATOR = 'operator';

/** `?dry_run=`, read by hand: these routes validate nothing before their handler. */
function dryRunOf(query: unknown): boolean {
  const { dry_run: flag, ...others } = (query ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(others)[0];
  if (unknown !== undefined)
    throw validationFailed('validation_error', [
      item(unknown, 'unknown_field', 'Not a parameter of this route.'),
    ]);
  if (flag === undefined || flag === false || flag === 'false') return false;
  if (flag === true || flag === 'true') return true;
  throw validationFailed('validation_error', [item('dry_run', 'invalid', 'Give true or false.')]);
}

const streamed = (body: unknown, what: string): Readable => {
  if (!(body instanceof Readable)) throw unsupportedMediaType(`Send the ${what}.`);
  return body;
};

export const catalogueAdminRoutes: FastifyPluginAsyncTypebox<{ db: Db; reference: ReferenceCache }> = async (
  app,
  { db, reference },
) => {
  // Uploads are streamed, never held whole: this scope reads NDJSON and plain text as a stream.
  app.removeContentTypeParser('application/x-ndjson');
  app.addContentTypeParser('application/x-ndjson', (_request, payload, done) => done(null, payload));
  app.addContentTypeParser('text/plain', (_request, payload, done) => done(null, payload));
  const tags = ['catalogue'];

  app.put(
    '/products/',
    {
      config: { requestTimeoutMs: UPLOAD_TIMEOUT_MS },
      // The body is a stream, read line by line in the handler (which checks the rest itself):
      // Fastify would otherwise validate it against the documented text.
      validatorCompiler: () => () => true,
      schema: {
        tags,
        summary: 'Replace the product catalogue (a new version), or see what an upload would change',
        description:
          'NDJSON, one product a line: {code, display_name?, fuel, is_variable, is_tracker?, is_prepay, ' +
          'available_from, available_to?, tariffs: [{code, region, payment_method, registers, rate_bands}]}. ' +
          'Streamed, up to 100 MB. All or nothing: a bad line answers 400 with every error (up to 100) at ' +
          '`<line>.<field>`, lines counted from 1, and stores nothing. 409 product_in_use when the upload ' +
          'leaves out a product or tariff that accounts or processes (not CANCELLED) use (the first upload ' +
          'is exempt): end-date it instead. `?dry_run=true` answers the diff and stores nothing.',
        querystring: DryRunQuery,
        body: documentedOnly(Type.Unsafe({ content: { 'application/x-ndjson': { schema: Type.String() } } })),
        response: {
          200: CatalogueUploadView,
          400: BadRequest,
          409: InUseError,
          413: ErrorRef,
          415: ErrorRef,
        },
      },
    },
    async (request) => {
      const body = streamed(request.body, 'catalogue as application/x-ndjson');
      const dryRun = dryRunOf(request.query);
      const upload = await replaceCatalogue(db, {
        lines: uploadLines(body, MAX_UPLOAD_BYTES),
        dryRun,
        by: OPERATOR,
      });
      // This process answers with the new version in force.
      if (!dryRun) await reference.refresh();
      return { ...upload, version: upload.version && versionView(upload.version) };
    },
  );

  app.get(
    '/products/',
    {
      schema: {
        tags,
        summary: 'A page of the catalogue (the current version, or `?version=`), with the latest versions',
        querystring: Type.Object(
          { ...PageQuery, version: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$' })) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            version: Type.Union([VersionView, Type.Null()], {
              description: 'null: no catalogue was ever uploaded.',
            }),
            versions: Type.Array(VersionView, { description: 'The 20 latest versions, newest first.' }),
            products: Type.Array(ProductView),
            next_after: Type.Union([Type.String(), Type.Null()], {
              description: 'Pass as `after` for the next page.',
            }),
          }),
          400: BadRequest,
          404: ErrorRef,
        },
      },
    },
    async (request) => {
      const { after = '', version: text } = request.query;
      const limit = pageLimit(request.query.limit);
      const asked = text === undefined ? undefined : Number(text);
      const version =
        asked === undefined ? await currentVersion(db, PRODUCTS) : await versionOf(db, PRODUCTS, asked);
      if (asked !== undefined && !version) throw notFound(`The catalogue has no version ${asked}.`);
      const products = version ? await productsPage(db, { version: version.version, after, limit }) : [];
      return {
        version: version && versionView(version),
        versions: (await recentVersions(db, PRODUCTS)).map(versionView),
        products,
        next_after: products.length === limit ? products[products.length - 1].code : null,
      };
    },
  );

  app.put(
    '/code-lists/:name/',
    {
      config: { requestTimeoutMs: UPLOAD_TIMEOUT_MS },
      // The body is a stream, read line by line in the handler (which checks the rest itself):
      // Fastify would otherwise validate it against the documented text.
      validatorCompiler: () => () => true,
      schema: {
        tags,
        summary: 'Replace a code list (a new version of it)',
        description:
          'Plain text, one value a line (blank lines skipped, repeats kept once), streamed, up to 100 MB; all ' +
          'or nothing. Once a list is uploaded, the account checks refuse values it lacks with the ' +
          "reference's code; before, its form check holds. 409 code_in_use when the upload leaves out " +
          'values that accounts or processes use (the first upload is exempt). `?dry_run=true` answers the ' +
          'diff and stores nothing.',
        params: Type.Object({ name: StringEnum(CODE_LIST_NAMES, { description: 'The registry.' }) }),
        querystring: DryRunQuery,
        body: documentedOnly(Type.Unsafe({ content: { 'text/plain': { schema: Type.String() } } })),
        response: {
          200: CodeListUploadView,
          400: BadRequest,
          404: ErrorRef,
          409: InUseError,
          413: ErrorRef,
          415: ErrorRef,
        },
      },
    },
    async (request) => {
      const list = codeListNamed(request.params.name);
      if (!list) throw notFound(`There is no code list ${request.params.name}.`);
      const body = streamed(request.body, 'list as text/plain, one value a line');
      const dryRun = dryRunOf(request.query);
      const upload = await replaceCodeList(db, list, {
        lines: uploadLines(body, MAX_UPLOAD_BYTES),
        dryRun,
        by: OPERATOR,
      });
      if (!dryRun) await reference.refresh();
      return { ...upload, version: upload.version && versionView(upload.version) };
    },
  );

  app.get(
    '/code-lists/',
    {
      schema: {
        tags,
        summary: 'The code lists, with their current versions (null: never uploaded, the form check holds)',
        response: {
          200: Type.Array(
            AdminObject({
              name: Type.String(),
              code: Type.String({ description: 'The item code a value the list lacks is refused with.' }),
              version: Type.Union([VersionView, Type.Null()]),
            }),
          ),
        },
      },
    },
    async () =>
      (await listCodeLists(db)).map((list) => ({
        ...list,
        version: list.version && versionView(list.version),
      })),
  );
};
