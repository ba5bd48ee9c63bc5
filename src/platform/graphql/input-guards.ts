import type { ApolloServerPlugin } from '@apollo/server';
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type SelectionSetNode,
  visit,
} from 'graphql';

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

/** Mutations that hash a password with argon2 (tens of milliseconds of CPU each): at most one per request. */
const PASSWORD_HASHING = new Set(['signUp', 'login', 'changePassword', 'resetPassword']);

/** The root fields a selection set of `document` asks for, through its fragments, aliases included. */
export function rootFieldNames(selectionSet: SelectionSetNode, document: DocumentNode): string[] {
  const fragments = new Map(
    document.definitions
      .filter((node) => node.kind === Kind.FRAGMENT_DEFINITION)
      .map((node) => [node.name.value, node]),
  );
  return fieldNamesThrough(selectionSet, fragments, new Set());
}

function fieldNamesThrough(
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  seen: Set<string>,
): string[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) return fieldNamesThrough(selection.selectionSet, fragments, seen);
    const fragment = fragments.get(selection.name.value);
    if (!fragment || seen.has(fragment.name.value)) return [];
    seen.add(fragment.name.value);
    return fieldNamesThrough(fragment.selectionSet, fragments, seen);
  });
}

/**
 * PostgreSQL stores no NUL in text, and the driver's failure looked like a lost connection ("try again",
 * forever): a NUL in any string input is refused up front, naming the field, with HTTP 400. A request
 * may run one signUp, login, changePassword or resetPassword: aliases made fifteen argon2 hashes fit in one
 * request under one rate-limit point.
 */
export const inputGuards: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ request, document, operation }) {
        if (operation?.operation === 'mutation') {
          const hashing = rootFieldNames(operation.selectionSet, document).filter((name) =>
            PASSWORD_HASHING.has(name),
          ).length;
          if (hashing > 1) {
            throw new GraphQLError('A request may run one signUp, login, changePassword or resetPassword.', {
              extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
            });
          }
        }
        const field =
          nulIn(request.variables ?? {}, 'variables') ??
          (document.definitions.some((node) => node.kind === Kind.OPERATION_DEFINITION)
            ? nulInDocument(document)
            : null);
        if (field) {
          throw new GraphQLError(`The ${field} must not contain NUL characters.`, {
            extensions: {
              code: 'BAD_USER_INPUT',
              errors: { [field]: [`The ${field} must not contain NUL characters.`] },
              http: { status: 400 },
            },
          });
        }
      },
    };
  },
};
