/** Catalogues for the tests: products as NDJSON lines, one holding the example account's tariffs. */
import type { FastifyInstance } from 'fastify';
import { mpanCheckDigit } from '../../src/accounts/payload/meter-points/mpan.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { adminHeaders } from '../helpers/test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
export type Obj = Record<string, any>;

export function product(code: string, overrides: Obj = {}): Obj {
  return {
    code,
    display_name: `Product ${code}`,
    fuel: 'ELECTRICITY',
    is_variable: true,
    is_prepay: false,
    available_from: '2015-01-01',
    tariffs: [
      {
        code: `E-${code}-C`,
        region: 'C',
        payment_method: 'DIRECT_DEBIT',
        registers: 1,
        rate_bands: ['STANDARD'],
      },
    ],
    ...overrides,
  };
}

/**
 * Products holding the example account's tariffs: ELEC-1234-J (electricity, 2 registers, credit,
 * region C: the MPAN's distributor is 12) and GAS-1234-J (gas, prepayment: its meter is a prepay one).
 */
export function exampleProducts(): Obj[] {
  return [
    product('ELEC-1234', {
      is_variable: false,
      tariffs: [
        {
          code: 'ELEC-1234-J',
          region: 'C',
          payment_method: 'DIRECT_DEBIT',
          registers: 2,
          rate_bands: ['DAY', 'NIGHT'],
        },
      ],
    }),
    product('GAS-1234', {
      fuel: 'GAS',
      is_prepay: true,
      tariffs: [
        {
          code: 'GAS-1234-J',
          region: 'C',
          payment_method: 'PREPAYMENT',
          registers: 1,
          rate_bands: ['STANDARD'],
        },
      ],
    }),
  ];
}

export const ndjson = (lines: Array<Obj | string>) =>
  `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`;

export async function uploadCatalogue(app: FastifyInstance, lines: Array<Obj | string>, query = '') {
  const res = await app.inject({
    method: 'PUT',
    url: `/admin/v1/products/${query}`,
    headers: { ...adminHeaders, 'content-type': 'application/x-ndjson' },
    payload: ndjson(lines),
  });
  return { status: res.statusCode, body: res.json() as Obj };
}

export async function uploadList(app: FastifyInstance, name: string, values: string[], query = '') {
  const res = await app.inject({
    method: 'PUT',
    url: `/admin/v1/code-lists/${name}/${query}`,
    headers: { ...adminHeaders, 'content-type': 'text/plain' },
    payload: `${values.join('\n')}\n`,
  });
  return { status: res.statusCode, body: res.json() as Obj };
}

/**
 * accountFor's account with an MPAN of distributor 12 (GSP group C), as the reference's example
 * has: accountFor's MPANs start 10 (group A).
 */
export function regionCAccount(supplier: string, n: number): Obj {
  const a = accountFor(supplier, n);
  const first12 = `12${String(n).padStart(10, '0')}`;
  a.supply_addresses[0].meter_points[0].identifier = `${first12}${mpanCheckDigit(first12)}`;
  return a;
}
