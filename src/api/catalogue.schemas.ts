/** The catalogue's shapes on the wire: a product with its tariffs, a version, an upload's answer. */
import { Type } from '@sinclair/typebox';
import { FUELS, PAYMENT_METHODS, REGIONS } from '../catalogue/product-lines.ts';
import { validationFailed } from '../errors/error-catalogue.ts';
import { item } from '../errors/error-items.ts';
import { AdminObject, StringEnum } from '../http/schemas.ts';

export const TariffView = Type.Object({
  code: Type.String(),
  region: StringEnum(REGIONS, { description: 'GSP group letter (A to P, no I or O).' }),
  payment_method: StringEnum(PAYMENT_METHODS),
  registers: Type.Integer({ description: '1 or 2 for electricity, 1 for gas.' }),
  rate_bands: Type.Array(Type.String(), {
    description: 'The band names a rate override or line item may use.',
  }),
});

export const ProductView = Type.Object({
  code: Type.String(),
  display_name: Type.Union([Type.String(), Type.Null()]),
  fuel: StringEnum(FUELS),
  is_variable: Type.Boolean(),
  is_tracker: Type.Boolean(),
  is_prepay: Type.Boolean(),
  available_from: Type.String({
    description: 'A date (the start of that day in the service time zone) or a datetime.',
  }),
  available_to: Type.Union([Type.String(), Type.Null()], { description: 'null: no end.' }),
  tariffs: Type.Array(TariffView),
});

export const VersionView = AdminObject(
  {
    version: Type.Integer(),
    uploaded_by: Type.String(),
    uploaded_at: Type.String({ format: 'date-time' }),
    counts: Type.Object(
      {
        products: Type.Optional(Type.Integer()),
        tariffs: Type.Optional(Type.Integer()),
        values: Type.Optional(Type.Integer()),
      },
      { description: 'A catalogue version: products and tariffs; a code list version: values.' },
    ),
  },
  'One upload: its number, who and when, what it holds.',
);

export const InUseView = Type.Object({
  accounts: Type.Integer({ description: 'Accounts whose data names a value the upload leaves out.' }),
  processes: Type.Integer({ description: 'Import processes (not CANCELLED) that do.' }),
});

export const CatalogueUploadView = Type.Object({
  version: Type.Union([VersionView, Type.Null()], { description: 'null for a dry run.' }),
  dry_run: Type.Boolean(),
  diff: AdminObject(
    {
      added: Type.Integer(),
      removed: Type.Integer(),
      changed: Type.Integer(),
      codes: AdminObject({
        added: Type.Array(Type.String()),
        removed: Type.Array(Type.String()),
        changed: Type.Array(Type.String()),
      }),
      in_use: InUseView,
      in_use_codes: Type.Optional(
        Type.Array(Type.String(), {
          description: 'The tariff and product codes the upload leaves out (up to 1,000).',
        }),
      ),
    },
    'Products added, removed and changed against the current version (up to 1,000 codes of each), and who uses what it removes.',
  ),
});

export const CodeListUploadView = Type.Object({
  version: Type.Union([VersionView, Type.Null()], { description: 'null for a dry run.' }),
  dry_run: Type.Boolean(),
  diff: AdminObject({
    added: Type.Integer(),
    removed: Type.Integer(),
    removed_values: Type.Array(Type.String()),
    in_use: InUseView,
  }),
});

export const PageQuery = {
  after: Type.Optional(
    Type.String({ maxLength: 255, description: 'The last product code of the previous page.' }),
  ),
  limit: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,4}$', description: 'Products a page, 1 to 1000 (default 100).' }),
  ),
};

/** `limit` of a page: 1 to 1000, default 100. */
export function pageLimit(text: string | undefined): number {
  const n = text === undefined ? 100 : Number(text);
  if (n < 1 || n > 1000)
    throw validationFailed('validation_error', [item('limit', 'invalid', 'Must be from 1 to 1000.')]);
  return n;
}

export const InUseError = AdminObject(
  {
    detail: Type.String(),
    code: Type.String(),
    accounts: Type.Integer({ description: 'Accounts whose data names a value the upload leaves out.' }),
    processes: Type.Integer({ description: 'Import processes (not CANCELLED) that do.' }),
    codes: Type.Array(Type.String(), { description: 'Up to 20 of the values the upload leaves out.' }),
  },
  'product_in_use or code_in_use: nothing was stored.',
);

export const DryRunQuery = Type.Object(
  { dry_run: Type.Optional(Type.Boolean({ description: 'Answer the diff and store nothing.' })) },
  { additionalProperties: false },
);

/** A version as the wire gives it. */
export function versionView(v: {
  version: number;
  uploaded_by: string;
  uploaded_at: Date;
  counts: Record<string, number>;
}) {
  return {
    version: v.version,
    uploaded_by: v.uploaded_by,
    uploaded_at: v.uploaded_at.toISOString(),
    counts: v.counts,
  };
}
