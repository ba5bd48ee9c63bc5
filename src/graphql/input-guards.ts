import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, visit, type DocumentNode } from 'graphql';

/** The name of the first input field (a variable's path, or a literal's argument or field) holding a NUL. */
function nulIn(value: unknown, name: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? name : null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = nulIn(item, name);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = nulIn(item, key);
      if (found) return found;
    }
  }
  return null;
}

function nulInDocument(document: DocumentNode): string | null {
  let found: string | null = null;
  const names: string[] = [];
  visit(document, {
    Argument: { enter: (node) => void names.push(node.name.value), leave: () => void names.pop() },
    ObjectField: { enter: (node) => void names.push(node.name.value), leave: () => void names.pop() },
    StringValue(node) {
      if (node.value.includes('\u0000')) found ??= names[names.length - 1] ?? 'query';
    },
  });
  return found;
}

/**
 * PostgreSQL stores no NUL in text, and the driver's failure looked like a lost connection ("try again",
 * forever): a NUL in any string input is refused up front, naming the field, with HTTP 400.
 */
export const inputGuards: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ request, document }) {
        const field = nulIn(request.variables ?? {}, 'variables') ?? (document.definitions.some((node) => node.kind === Kind.OPERATION_DEFINITION) ? nulInDocument(document) : null);
        if (field) {
          throw new GraphQLError(`The ${field} must not contain NUL characters.`, {
            extensions: { code: 'BAD_USER_INPUT', errors: { [field]: [`The ${field} must not contain NUL characters.`] }, http: { status: 400 } },
          });
        }
      },
    };
  },
};
