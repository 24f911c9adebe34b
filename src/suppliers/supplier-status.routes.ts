/**
 * `GET /v2/data-import/suppliers/:import_supplier_code/`: a supplier's own view of its migration's
 * status (Ongoing, Paused, Complete), so a client (`ferry push`) can tell a pause from a slow
 * worker, and the service's identifier (service-identity.ts), which `ferry push` binds its report
 * to. Registered in the data-import scope: the token hook refuses a key scoped to other suppliers
 * (403, from the path parameter) before anything is looked up.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../errors/error-catalogue.ts';
import { authErrorResponses, BadRequest, ErrorRef, StringEnum, SupplierCodeParam } from '../http/schemas.ts';
import { SUPPLIER_STATUSES, type SupplierCache } from './suppliers.queries.ts';

const SupplierStatusView = Type.Object(
  {
    code: Type.String(),
    status: StringEnum(SUPPLIER_STATUSES, {
      description:
        'Ongoing: accounts are scheduled and created. Paused: creation requests are refused (import_supplier_paused) and scheduled accounts wait until it is Ongoing again. Complete: the migration is over.',
    }),
    service_id: Type.String({
      description:
        "The service's identifier: generated once and kept in its database, the same from every process of the service, another for another database. A client binds what it records (ferry push's report) to it.",
    }),
  },
  { description: "The supplier's migration status." },
);

export const supplierStatusRoutes: FastifyPluginAsyncTypebox<{
  suppliers: SupplierCache;
  serviceId: string;
}> = async (app, { suppliers, serviceId }) => {
  app.get(
    '/v2/data-import/suppliers/:import_supplier_code/',
    {
      schema: {
        tags: ['account import'],
        summary: "A supplier's migration status",
        params: Type.Object({ import_supplier_code: SupplierCodeParam }),
        response: { 200: SupplierStatusView, 400: BadRequest, 404: ErrorRef, ...authErrorResponses },
      },
    },
    async (request) => {
      // The cache hears of every change (NOTIFY), as scheduling does: a pause shows at once.
      const supplier = await suppliers.get(request.params.import_supplier_code);
      if (!supplier) throw notFound('No import supplier has that code.');
      return { code: supplier.code, status: supplier.status, service_id: serviceId };
    },
  );
};
