import { type TSchema, Type } from '@sinclair/typebox';
import type { FerryConfig } from '../config.ts';
import type { Db } from '../infra/db/db.ts';
import type { ObjectStore } from '../infra/storage/object-store.ts';
import type { PaymentVendors } from '../infra/vendors/vendor-registry.ts';

/** What the follow-up import routes (notes, transactions, statements, payment instructions) get. */
export interface FollowUpDeps {
  db: Db;
  config: FerryConfig;
  objectStore: ObjectStore;
  paymentVendors: PaymentVendors;
}

/** Documents checked in the store at once for one request. */
export const DOCUMENT_CHECKS_IN_FLIGHT = 16;

/** Most items one follow-up request may carry (notes, transactions, statements). */
export const MAX_ITEMS_PER_REQUEST = 1_000;

/** The body shape shared by the four follow-up imports: which account, then the items. */
export function followUpBody<K extends string, S extends TSchema>(itemsKey: K, item: S, description: string) {
  return Type.Object(
    {
      import_supplier: Type.String({ minLength: 1, maxLength: 64, description: 'Import supplier code.' }),
      external_account_number: Type.String({ minLength: 1, maxLength: 128 }),
      [itemsKey]: Type.Array(item, { minItems: 1, maxItems: MAX_ITEMS_PER_REQUEST, description }),
    } as { import_supplier: TSchema; external_account_number: TSchema } & Record<K, TSchema>,
    { additionalProperties: false },
  );
}
