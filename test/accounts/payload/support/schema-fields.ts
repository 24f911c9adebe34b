/**
 * Walks the account payload schema alongside a payload in which every object type appears, and
 * lists every field with its concrete path in that payload. The field table test turns each
 * into invalid values. A schema object the payload lacks is an error: the table must never
 * silently skip part of the schema.
 */

type Schema = Record<string, unknown>;

export interface SchemaField {
  /** Where the field is in the payload: `supply_addresses.0.meter_points.1.identifier`. */
  path: string;
  /** The field in schema terms: `supply_addresses[].meter_points[supply_type=GAS].identifier`. */
  label: string;
  schema: Schema;
  required: boolean;
}

export interface SchemaObject {
  path: string;
  label: string;
}

const join = (parent: string, child: string | number) =>
  parent === '' ? String(child) : `${parent}.${child}`;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(schema: Schema): string[] {
  return ([] as string[]).concat((schema.type as string | string[] | undefined) ?? []);
}

export function walkSchema(
  schema: Schema,
  payload: unknown,
): { fields: SchemaField[]; objects: SchemaObject[] } {
  const fields: SchemaField[] = [];
  const objects: SchemaObject[] = [];

  const walkObject = (objectSchema: Schema, value: unknown, path: string, label: string) => {
    if (!isRecord(value)) throw new Error(`the payload has no object at ${path || '(root)'} (${label})`);
    objects.push({ path, label });
    const properties = objectSchema.properties as Record<string, Schema>;
    const required = (objectSchema.required as string[] | undefined) ?? [];
    for (const [name, fieldSchema] of Object.entries(properties)) {
      const field = {
        path: join(path, name),
        label: join(label, name),
        schema: fieldSchema,
        required: required.includes(name),
      };
      fields.push(field);
      descend(fieldSchema, value[name], field.path, field.label);
    }
  };

  const walkUnion = (union: Schema, value: unknown, path: string, label: string) => {
    const tag = (union.discriminator as { propertyName: string }).propertyName;
    const variant = (union.oneOf as Schema[]).find(
      (v) => isRecord(value) && (v.properties as Record<string, Schema>)[tag].const === value[tag],
    );
    if (variant === undefined) throw new Error(`no variant of ${label} matches the payload at ${path}`);
    walkObject(variant, value, path, `${label}[${tag}=${(value as Record<string, unknown>)[tag]}]`);
  };

  const descend = (fieldSchema: Schema, value: unknown, path: string, label: string) => {
    const types = typesOf(fieldSchema);
    if (types.includes('array') && isRecord(fieldSchema.items)) {
      const items = fieldSchema.items;
      if (Array.isArray(items.oneOf)) {
        const tag = (items.discriminator as { propertyName: string }).propertyName;
        for (const variant of items.oneOf as Schema[]) {
          const tagValue = (variant.properties as Record<string, Schema>)[tag].const;
          const index = Array.isArray(value)
            ? value.findIndex((item) => isRecord(item) && item[tag] === tagValue)
            : -1;
          if (index < 0) throw new Error(`the payload has no ${label} item with ${tag}=${tagValue}`);
          walkObject(variant, (value as unknown[])[index], join(path, index), `${label}[${tag}=${tagValue}]`);
        }
      } else if (isRecord(items.properties)) {
        walkObject(items, Array.isArray(value) ? value[0] : undefined, join(path, 0), `${label}[]`);
      }
    } else if (Array.isArray(fieldSchema.oneOf)) {
      walkUnion(fieldSchema, value, path, label);
    } else if (isRecord(fieldSchema.properties)) {
      walkObject(fieldSchema, value, path, label);
    }
  };

  walkObject(schema, payload, '', '');
  return { fields, objects };
}
