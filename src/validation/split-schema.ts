/**
 * Ajv compiles an inline schema into one function; for the account payload that is about a
 * megabyte of code, which V8 refuses to optimise, and validation runs interpreted (~10× slower).
 * Before compiling, every nested object schema is therefore moved into its own schema reached by
 * `$ref`, so Ajv emits one small, optimisable function per object type. The exported TypeBox
 * schema stays inline for the OpenAPI document; only the copy given to Ajv is split.
 */

type SchemaNode = Record<string, unknown>;

export interface SplitSchema {
  root: SchemaNode;
  /** Schemas to `addSchema` before compiling `root`; each has an `$id` that `root` refers to. */
  parts: SchemaNode[];
}

/** Annotation on a split tagged union listing its tag values, for error details (Ajv ignores it). */
export const TAG_VALUES = 'x-tag-values';

let splitCount = 0;

function tagValues(union: SchemaNode): unknown[] {
  const tag = (union.discriminator as SchemaNode).propertyName as string;
  return (union.oneOf as SchemaNode[]).map(
    (variant) => ((variant.properties as SchemaNode)[tag] as SchemaNode).const,
  );
}

function isPlainObject(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Splits `schema` (not modified) into a root and referenced parts, with ids unique to this call. */
export function splitSchema(schema: object): SplitSchema {
  const idPrefix = `ferry-split-${++splitCount}-`;
  const parts: SchemaNode[] = [];

  const copy = (node: unknown, isRoot: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => copy(item, false));
    if (!isPlainObject(node)) return node;
    // Object.keys skips TypeBox's symbol keys, which Ajv does not need.
    const clone: SchemaNode = {};
    if (isPlainObject(node.discriminator)) clone[TAG_VALUES] = tagValues(node);
    for (const key of Object.keys(node)) clone[key] = copy(node[key], false);
    const isObjectSchema = isPlainObject(clone.properties) || Array.isArray(clone.oneOf);
    if (isRoot || !isObjectSchema) return clone;
    const $id = `${idPrefix}${parts.length}`;
    parts.push({ ...clone, $id });
    return { $ref: $id };
  };

  return { root: copy(schema, true) as SchemaNode, parts };
}
