import type { ApolloServerPlugin } from '@apollo/server';
import { getNamedType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { type ClassType, Field, ObjectType, registerEnumType } from 'type-graphql';

import { AppError, asAppError, type ErrorCode, toGraphQLExtensions } from '../errors';

/** The codes of the taxonomy a client can act on by changing its input: these are user errors in a payload. */
export const UserErrorCode = {
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  IN_USE: 'IN_USE',
  FORBIDDEN: 'FORBIDDEN',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
} as const satisfies Partial<Record<ErrorCode, ErrorCode>>;
export type UserErrorCode = keyof typeof UserErrorCode;

registerEnumType(UserErrorCode, {
  name: 'UserErrorCode',
  description: "Why a mutation refused its input (the error taxonomy's codes a client can act on).",
  valuesConfig: {
    BAD_USER_INPUT: { description: 'A value is missing, malformed or out of range.' },
    NOT_FOUND: { description: 'An id names nothing you may see.' },
    CONFLICT: { description: 'It clashes with what exists (a name taken, a state that does not allow it).' },
    IN_USE: { description: 'Something else still uses it.' },
    FORBIDDEN: { description: 'You may see it but not change it this way.' },
    PAYLOAD_TOO_LARGE: { description: 'A file is larger than allowed.' },
    UNSUPPORTED_MEDIA_TYPE: { description: 'A file is of a kind that cannot be read.' },
  },
});

@ObjectType('UserError', { description: 'A reason a mutation refused its input.' })
export class UserError {
  @Field(() => [String], {
    description: 'The path to the input field at fault (`["input", "price"]`); empty when no one field is.',
  })
  field!: string[];
  @Field(() => UserErrorCode, { description: 'What kind of refusal.' }) code!: UserErrorCode;
  @Field({ description: 'What is wrong, in words for the user.' }) message!: string;
}

/** The result fields of each payload type (null when refused), by type name. */
const resultFields = new Map<string, string[]>();

/** A further result field of a payload (nullable, null when refused), for a mutation with several results. */
export interface PayloadField {
  type: () => ClassType | object;
  description: string;
}

/**
 * A mutation's payload type: its result (null when refused) under `resultField`, and `userErrors`. A refusal
 * of the caller's input comes back in `userErrors` and also as an error with its code and field errors in
 * `extensions` (the error contract of existing clients); anything else stays a plain GraphQL error.
 * `extraFields` adds further results beside it (each nullable, null when refused): signUp's `user` and `token`.
 */
export function MutationPayload(
  name: string,
  resultField: string,
  resultType: () => ClassType | object,
  description: string,
  extraFields: Readonly<Record<string, PayloadField>> = {},
): ClassType {
  @ObjectType(name, { description })
  class PayloadType {
    @Field(() => [UserError], { description: 'Why the input was refused; empty when it was not.' })
    userErrors!: UserError[];
  }
  Field(resultType, { nullable: true, description: 'The result; null when the input was refused.' })(
    PayloadType.prototype,
    resultField,
  );
  for (const [field, { type, description: fieldDescription }] of Object.entries(extraFields))
    Field(type, { nullable: true, description: fieldDescription })(PayloadType.prototype, field);
  resultFields.set(name, [resultField, ...Object.keys(extraFields)]);
  return PayloadType;
}

/** A GraphQL name for a field key of the domain's field errors (REST names such as `payment_date`). */
function inputPath(key: string, renames: Readonly<Record<string, string>>): string[] {
  const named = renames[key] ?? key;
  return [
    'input',
    ...named.split('.').map((part) => part.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())),
  ];
}

export function toUserErrors(error: AppError, renames: Readonly<Record<string, string>> = {}): UserError[] {
  const code = error.code as UserErrorCode;
  const fields = Object.entries(error.fieldErrors ?? {});
  if (fields.length === 0) return [{ field: [], code, message: error.message }];
  return fields.flatMap(([key, messages]) =>
    messages.map((message) => ({ field: inputPath(key, renames), code, message })),
  );
}

/** The refusals a request's payloads carried, to be added to its `errors` too (see userErrorsAsErrors). */
const refusalsOf = new WeakMap<object, Array<{ error: AppError; path: string }>>();

/** Domain field names that GraphQL inputs name otherwise, for userErrors' paths. */
const fieldRenames: Record<string, string> = {};

/** Declares that the domain's field `domainName` is `graphqlName` in mutation inputs. */
export function renameUserErrorFields(renames: Readonly<Record<string, string>>): void {
  Object.assign(fieldRenames, renames);
}

/**
 * Wraps every mutation that answers a payload: its resolver answers the result field's value (and may leave
 * userErrors out); a refusal of the input becomes the payload's userErrors.
 */
export function withUserErrorPayloads(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType();
  for (const field of Object.values(mutation?.getFields() ?? {})) {
    const results = resultFields.get(getNamedType(field.type).name);
    if (!results || !field.resolve) continue;
    const resolve: GraphQLFieldResolver<unknown, object> = field.resolve;
    field.resolve = async (source, args, context: object, info) => {
      try {
        const result = (await resolve(source, args, context, info)) as Record<string, unknown>;
        return { userErrors: [], ...result };
      } catch (thrown) {
        const error = asAppError(thrown);
        if (!Object.hasOwn(UserErrorCode, error.code)) throw thrown;
        const refusals = refusalsOf.get(context) ?? [];
        refusalsOf.set(context, [...refusals, { error, path: String(info.path.key) }]);
        const nulls = Object.fromEntries(results.map((result) => [result, null]));
        return { ...nulls, userErrors: toUserErrors(error, fieldRenames) };
      }
    };
  }
  return schema;
}

/** Adds each refusal a payload carried to the answer's `errors`, with its code and field errors. */
export const userErrorsAsErrors: ApolloServerPlugin<object> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, contextValue }) {
        const refusals = refusalsOf.get(contextValue);
        if (!refusals || response.body.kind !== 'single') return;
        const result = response.body.singleResult;
        result.errors = [
          ...(result.errors ?? []),
          ...refusals.map(({ error, path }) => ({
            message: error.message,
            path: [path],
            extensions: toGraphQLExtensions(error),
          })),
        ];
      },
    };
  },
};
