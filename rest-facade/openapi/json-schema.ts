/** Small builders for the JSON Schema (2020-12, as OpenAPI 3.1 uses it) of the REST document. */

export type JsonSchema = Record<string, unknown>;

export const integer: JsonSchema = { type: 'integer' };
export const string: JsonSchema = { type: 'string' };
export const boolean: JsonSchema = { type: 'boolean' };
export const date: JsonSchema = { type: 'string', format: 'date' };
/** Two-decimal money as the original writes base_value and ltdval_price. */
export const moneyString: JsonSchema = { type: 'string', pattern: '^-?\\d+\\.\\d{2}$' };
/** `YYYY-MM-DD HH:MM:SS`, the original's SQL form. */
export const sqlTimestamp: JsonSchema = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' };
/** ISO 8601 with microseconds and Z, the original's other form. */
export const isoMicros: JsonSchema = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z$',
};

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The same value, or null. */
export function nullable(schema: JsonSchema): JsonSchema {
  if ('$ref' in schema || 'const' in schema) return { anyOf: [schema, { type: 'null' }] };
  const enumerated = Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {};
  return { ...schema, type: [schema.type, 'null'], ...enumerated };
}

export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/** A closed object: every listed property present (but `optional` ones), nothing else. */
export function object(
  properties: Record<string, JsonSchema>,
  options: { optional?: string[]; description?: string } = {},
): JsonSchema {
  return {
    type: 'object',
    ...(options.description ? { description: options.description } : {}),
    properties,
    required: Object.keys(properties).filter((name) => !options.optional?.includes(name)),
    additionalProperties: false,
  };
}

/** An integer code with its labels, as the description of its values. */
export function code(labels: Record<number, string>): JsonSchema {
  const codes = Object.keys(labels).map(Number);
  return { type: 'integer', enum: codes, description: codes.map((value) => `${value} ${labels[value]}`).join(', ') };
}

/** The labels of a code (the `*_value` fields). */
export const labelOf = (labels: Record<number, string>): JsonSchema => ({
  type: 'string',
  enum: Object.values(labels),
});
