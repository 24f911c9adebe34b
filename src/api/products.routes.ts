/**
 * `GET /v2/data-import/products/`: the current catalogue for a supplier's own tooling (check an
 * account locally before sending it), in keyset pages by product code.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PRODUCTS, productsPage } from '../catalogue/catalogue.queries.ts';
import { currentVersion } from '../catalogue/reference-versions.queries.ts';
import { authErrorResponses, BadRequest } from '../http/schemas.ts';
import type { Db } from '../infra/db/db.ts';
import { PageQuery, ProductView, pageLimit } from './catalogue.schemas.ts';

export const productRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/v2/data-import/products/',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'The product catalogue the account checks use, a page at a time',
        description:
          'Products by code, `limit` a page; pass `next_after` back as `after` for the next. `version` null and ' +
          'no products: no catalogue is loaded, and tariff codes are checked for their form only.',
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: {
          200: Type.Object({
            version: Type.Union([Type.Integer(), Type.Null()], { description: 'The catalogue version.' }),
            products: Type.Array(ProductView),
            next_after: Type.Union([Type.String(), Type.Null()]),
          }),
          400: BadRequest,
          ...authErrorResponses,
        },
      },
    },
    async (request) => {
      const { after = '' } = request.query;
      const limit = pageLimit(request.query.limit);
      const version = await currentVersion(db, PRODUCTS);
      const products = version ? await productsPage(db, { version: version.version, after, limit }) : [];
      return {
        version: version?.version ?? null,
        products,
        next_after: products.length === limit ? products[products.length - 1].code : null,
      };
    },
  );
};
