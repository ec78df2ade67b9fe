import { z } from 'zod';

/**
 * The named schemas of the public API. Each one validates requests or describes responses and is
 * emitted under `components.schemas` of the OpenAPI document, so the document cannot drift from
 * the validation.
 */
export const apiSchemaRegistry = z.registry<{ id: string; description?: string; closed?: boolean }>();

/**
 * Registers `schema` under `id` (its OpenAPI component name) and returns it. `closed`: documented with no other
 * properties, though it validates with them (a loose object), so that the service refuses an unknown one itself,
 * naming those that apply.
 */
export function apiSchema<T extends z.ZodType>(id: string, schema: T, description?: string, closed?: boolean): T {
  apiSchemaRegistry.add(schema, { id, ...(description ? { description } : {}), ...(closed ? { closed } : {}) });
  return schema;
}

/** A `$ref` to a registered schema, for OpenAPI decorators. */
export function schemaRef(schema: z.ZodType): { $ref: string } {
  const meta = apiSchemaRegistry.get(schema);
  if (!meta) throw new Error('schemaRef: schema is not registered with apiSchema()');
  return { $ref: `#/components/schemas/${meta.id}` };
}

/** Every registered schema as JSON Schema 2020-12, keyed by component name. */
export function apiComponentSchemas(): Record<string, Record<string, unknown>> {
  const { schemas } = z.toJSONSchema(apiSchemaRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
    io: 'output',
    override: ({ zodSchema, jsonSchema }) => {
      if (apiSchemaRegistry.get(zodSchema)?.closed) jsonSchema.additionalProperties = false;
    },
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _schema, $id: _id, id: _legacyId, ...rest } = schema as Record<string, unknown>;
      return [id, rest];
    }),
  );
}
