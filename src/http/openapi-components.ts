/**
 * Names the parts of a large component schema in the OpenAPI document: every object type nested
 * in it (customers, meter points, readings, transactions ...) becomes a component of its own,
 * referred to by `$ref`, so a code generator emits one named type per part instead of one
 * anonymous tree. Names come from the property that holds the part (`customers[]` → `Customer`,
 * a tagged variant adds its tag: `Electricity` + `MeterPoint`); identical parts share one
 * component. Only the document changes: the validators keep their own schemas.
 */

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const pascal = (words: string) =>
  words
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase())
    .join('');

function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('sses') || name.endsWith('xes')) return name.slice(0, -2);
  if (name.endsWith('s') && !name.endsWith('ss')) return name.slice(0, -1);
  return name;
}

/** The tag value that selects a variant of a discriminated union, if the variant pins one. */
function tagOf(variant: Schema, tag: string | undefined): string | undefined {
  if (!tag || !isObject(variant.properties)) return undefined;
  const property = (variant.properties as Record<string, Schema>)[tag];
  if (!property) return undefined;
  if (typeof property.const === 'string') return property.const;
  if (Array.isArray(property.enum) && property.enum.length === 1) return String(property.enum[0]);
  return undefined;
}

const isNamedPart = (schema: Schema) => schema.type === 'object' && isObject(schema.properties);

/** Hoists the object parts of `components.schemas[root]` into named components. */
export function nameSchemaParts(document: Schema, root: string): void {
  const components = ((document.components as Schema | undefined)?.schemas ?? {}) as Record<string, Schema>;
  const start = components[root];
  if (!start) return;
  const byShape = new Map<string, string>();

  const taken = (name: string) => Boolean(components[name]) || name === root;
  const register = (schema: Schema, name: string, parent: string): Schema => {
    const shape = JSON.stringify(schema);
    let componentName = byShape.get(shape);
    if (!componentName) {
      // Two different parts of one name: the second takes its parent's name too (GasMeterPointMeter).
      const base = taken(name) && parent !== root ? `${parent}${name}` : name;
      componentName = base;
      for (let i = 2; taken(componentName); i++) componentName = `${base}${i}`;
      components[componentName] = schema;
      byShape.set(shape, componentName);
    }
    return { $ref: `#/components/schemas/${componentName}` };
  };

  /** Rewrites `schema`'s children, hoisting named parts; `name` is what the schema itself is called. */
  const visit = (schema: Schema, name: string): Schema => {
    const out: Schema = { ...schema };
    if (isObject(schema.properties)) {
      out.properties = Object.fromEntries(
        Object.entries(schema.properties as Record<string, Schema>).map(([key, child]) => [
          key,
          part(child, pascal(key), name),
        ]),
      );
    }
    if (isObject(schema.items)) out.items = part(schema.items, singular(name), parentOf(name));
    if (Array.isArray(schema.oneOf)) {
      const tag = isObject(schema.discriminator) ? (schema.discriminator.propertyName as string) : undefined;
      out.oneOf = (schema.oneOf as Schema[]).map((variant, i) => {
        const value = tagOf(variant, tag);
        const variantName = value ? `${pascal(value)}${singular(name)}` : `${singular(name)}${i + 1}`;
        return part(variant, variantName, parentOf(name));
      });
    }
    return out;
  };

  /** A child schema: named parts become components, the rest is rewritten in place. */
  const part = (schema: Schema, name: string, parent: string): Schema => {
    if (!isObject(schema)) return schema;
    parents.set(name, parent);
    const rewritten = visit(schema, name);
    return isNamedPart(rewritten) ? register(rewritten, name, parent) : rewritten;
  };
  // Arrays and unions are not parts themselves: their items take the name of the part above them.
  const parents = new Map<string, string>();
  const parentOf = (name: string) => parents.get(name) ?? root;

  components[root] = visit(start, root);
}
