/**
 * Payload paths as a profile writes them (`supply_addresses[].meter_points[].identifier`), resolved
 * against the account payload's schema, or a follow-up request body's (decision 0094): what the field is (so a cell is converted to the right
 * JSON type) and which fields an object requires. A tagged union (electricity or gas meter point)
 * offers the fields of every variant and requires those every variant requires.
 */
import { AccountPayloadSchema } from '../accounts/payload/account-payload.schema.ts';
import { NotesBodySchema } from '../follow-ups/notes/notes.schema.ts';
import { PaymentInstructionBody } from '../follow-ups/payment-instructions/payment-instructions.schema.ts';
import { StatementsBodySchema } from '../follow-ups/statements/statements.schema.ts';
import { TransactionsBodySchema } from '../follow-ups/transactions/transactions.schema.ts';
import { DECIMAL_KEYWORD } from '../vocabulary/field-types.ts';
import type { BookKind } from './profile.ts';

/** What a payload field holds, as far as converting a cell goes. */
export type FieldKind = 'string' | 'date' | 'decimal' | 'integer' | 'boolean' | 'object' | 'array';

type Schema = Record<string, unknown>;

/** What each kind of book's lines are: the schema a profile's paths are checked against. */
export const BOOK_SCHEMAS: Record<BookKind, { schema: Schema; name: string }> = {
  accounts: { schema: AccountPayloadSchema as unknown as Schema, name: 'the account payload' },
  transactions: { schema: TransactionsBodySchema as unknown as Schema, name: 'the transactions body' },
  notes: { schema: NotesBodySchema as unknown as Schema, name: 'the notes body' },
  statements: { schema: StatementsBodySchema as unknown as Schema, name: 'the statements body' },
  'payment-instructions': {
    schema: PaymentInstructionBody as unknown as Schema,
    name: 'the payment instruction body',
  },
};

export interface ResolvedNode {
  kind: FieldKind;
  /** For an object (or an array's item object): its fields, each with its schema in every variant. */
  properties: Map<string, Schema[]>;
  required: string[];
  /** The schemas the node is (several where variants of a union define the field differently). */
  schemas: Schema[];
}

/** The variants of a tagged union, or the schema alone. */
const variantsOf = (schema: Schema): Schema[] =>
  Array.isArray(schema.oneOf) ? (schema.oneOf as Schema[]) : [schema];

function kindOf(schema: Schema): FieldKind {
  if (Array.isArray(schema.oneOf)) return 'object';
  if (DECIMAL_KEYWORD in schema) return 'decimal';
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'string') return schema.format === 'date' ? 'date' : 'string';
  if (type === 'integer' || type === 'number') return 'integer';
  if (type === 'boolean') return 'boolean';
  if (type === 'array') return 'array';
  return 'object';
}

function describe(schemas: Schema[]): ResolvedNode {
  const kind = kindOf(schemas[0]);
  const properties = new Map<string, Schema[]>();
  let required: string[] | null = null;
  if (kind === 'object') {
    for (const variant of schemas.flatMap(variantsOf)) {
      for (const [name, sub] of Object.entries((variant.properties ?? {}) as Record<string, Schema>)) {
        properties.set(name, [...(properties.get(name) ?? []), sub]);
      }
      const own = (variant.required ?? []) as string[];
      required = required === null ? [...own] : required.filter((name) => own.includes(name));
    }
  }
  return { kind, properties, required: required ?? [], schemas };
}

/** One step of a path: a field name, and whether it is followed by `[]` (an array's items). */
export interface PathStep {
  name: string;
  items: boolean;
}

const STEP = /^([a-z_][a-z0-9_]*)(\[\])?$/;

/** The steps of a profile path, or null when it is not written as `a.b[].c`. */
export function pathSteps(path: string): PathStep[] | null {
  if (path === '') return [];
  const steps: PathStep[] = [];
  for (const part of path.split('.')) {
    const m = STEP.exec(part);
    if (!m) return null;
    steps.push({ name: m[1], items: m[2] !== undefined });
  }
  return steps;
}

/**
 * What `path` names in the payload, or null when no such field exists. A path ending in `[]`
 * names the array's item; without it, an array names the array itself.
 */
export function resolvePath(path: string, root: Schema = AccountPayloadSchema as unknown as Schema) {
  const steps = pathSteps(path);
  if (steps === null) return null;
  let node = describe([root]);
  for (const step of steps) {
    const sub = node.properties.get(step.name);
    if (!sub) return null;
    node = describe(sub);
    if (step.items) {
      if (node.kind !== 'array') return null;
      node = describe(node.schemas.map((s) => s.items as Schema));
    }
  }
  return node;
}
