import { isDeepStrictEqual } from 'node:util';

import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import {
  astFromValue,
  execute,
  type ExecutionResult,
  getVariableValues,
  GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  isInputObjectType,
  isListType,
  isNonNullType,
  typeFromAST,
  valueFromASTUntyped,
  type VariableDefinitionNode,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';

import type { GraphQLContext } from './context';
import type { WrittenAnswers } from './written-answers';

/**
 * How documents are executed: `jit` compiles each document that comes again (graphql-jit) and runs the
 * compiled code, a document's first run going to graphql-js; `jit-eager` compiles every document on its first
 * run (tests that run each mutation once, against graphql-js); `graphql-js` is the reference executor;
 * `compare` (tests) runs every query through both, compiled at once, and fails on any difference, so the whole
 * GraphQL test suite checks that the two agree.
 */
export type GraphQLExecution = 'jit' | 'jit-eager' | 'graphql-js' | 'compare';

/** Compiled documents kept, by Apollo's hash of the document text and the operation name. */
const COMPILED_DOCUMENTS = 200;

/**
 * Documents run once and not compiled, remembered so that their second run compiles them. A client that writes
 * its arguments into the text (`markPaid(input: {id: "…"})`) sends a new document each time: compiling each cost
 * a millisecond or more of the event loop and kept ~16 KB of generated code per document until pushed out.
 */
const SEEN_ONCE = 2000;

/** Runs of a compared query while concurrent writes keep changing its answer, before the check gives up. */
const COMPARE_ATTEMPTS = 10;

type Compiled = CompiledQuery | ExecutionResult;

/**
 * An Apollo Server gateway (its documented hook for a custom executor) serving one fixed schema. Apollo still
 * parses and validates every document (graphql-armor's rules included) before the executor runs.
 */
export function executorGateway(
  schema: GraphQLSchema,
  execution: GraphQLExecution,
  written?: WrittenAnswers,
): GatewayInterface {
  const compiled = new LRUCache<string, Compiled>({ max: COMPILED_DOCUMENTS });
  const seenOnce = new LRUCache<string, true>({ max: SEEN_ONCE });
  const reference: GatewayExecutor = async ({ document, request, operationName, context }) =>
    execute({ schema, document, variableValues: request.variables, operationName, contextValue: context });

  /** The compiled executor; `firstRunToo` compiles a document on its first run (compare: both executors run it). */
  const jitOf =
    (firstRunToo: boolean): GatewayExecutor =>
    async (requestContext) => {
      const { document, request, operationName, queryHash, operation } = requestContext;
      // On every run, not only when compiled: the two caches age apart, and an operation the written ones let go
      // while its compiled code stays would otherwise never be written by the database again.
      if (queryHash !== undefined) written?.learn(queryHash, request.operationName, document, operation);
      const key = `${queryHash}:${operationName ?? ''}`;
      let query = compiled.get(key);
      if (!query) {
        if (!firstRunToo && !seenOnce.has(key)) {
          seenOnce.set(key, true);
          return reference(requestContext);
        }
        seenOnce.delete(key);
        compiled.set(key, (query = compileQuery(schema, document, operationName ?? undefined)));
      }
      return runCompiled(query, requestContext);
    };

  const runCompiled = async (query: Compiled, requestContext: Parameters<GatewayExecutor>[0]) => {
    const { request, operation, context } = requestContext;
    const variables = withInputDefaults(schema, operation.variableDefinitions ?? [], request.variables ?? {});
    if (!isCompiledQuery(query)) return query;
    const result = await query.query(undefined, context, variables);
    if (result.data === undefined && result.errors) {
      // Variables graphql-jit refused: graphql-js's own errors carry the variable's node, which Apollo needs
      // to answer BAD_USER_INPUT, and its wording.
      const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {});
      if (coerced.errors) return { errors: coerced.errors };
    }
    return result.errors ? { ...result, errors: result.errors.map(asGraphQLError) } : result;
  };
  const jit = jitOf(false);
  const jitEager = jitOf(true);

  /** The data the database writes for the request, when its operation compiles (see WrittenAnswers). */
  const writtenData = (requestContext: Parameters<GatewayExecutor>[0]) =>
    requestContext.queryHash === undefined
      ? Promise.resolve(undefined)
      : (written?.dataOf(
          requestContext.queryHash,
          requestContext.request.operationName,
          (requestContext.context as GraphQLContext).caller,
          requestContext.request.variables,
        ) ?? Promise.resolve(undefined));

  const compare: GatewayExecutor = async (requestContext) => {
    if (requestContext.operation.operation !== 'query') return jitEager(requestContext);
    // An executor's difference shows every time; data changed by a concurrent write (a relay firing, or a
    // client's write racing the query) between the runs does not: a difference counts only when compiled code
    // gives the same answer before and after graphql-js and the database's own answer (when the operation
    // compiles), and the runs are made again while the data moves.
    let ours = await jitEager(requestContext);
    for (let attempt = 0; attempt < COMPARE_ATTEMPTS; attempt++) {
      const theirs = await reference(requestContext);
      const database = ours.errors ? undefined : await writtenData(requestContext);
      const same = isDeepStrictEqual(plain(ours), plain(theirs));
      const sameAsDatabase = database === undefined || isDeepStrictEqual(plain(ours).data, database);
      if (same && sameAsDatabase) return ours;
      const again = await jitEager(requestContext);
      if (isDeepStrictEqual(plain(ours), plain(again))) {
        const other = same ? JSON.stringify(database) : JSON.stringify(plain(theirs));
        throw new Error(
          `${same ? 'graphql-jit and the database' : 'graphql-jit and graphql-js'} differ:\n${JSON.stringify(plain(ours))}\n${other}`,
        );
      }
      ours = again;
    }
    return ours;
  };

  const executor = { jit, 'jit-eager': jitEager, 'graphql-js': reference, compare }[execution];
  return {
    load: async () => ({ schema, executor }),
    onSchemaLoadOrUpdate: (callback) => {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    stop: async () => undefined,
  };
}

/**
 * The variables with the default values filled in, as a client would have written them: graphql-jit refuses
 * a missing non-null variable or input field even when it has a default (graphql-js uses the default).
 */
function withInputDefaults(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const filled = { ...variables };
  for (const definition of definitions) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (filled[name] === undefined && definition.defaultValue)
      filled[name] = valueFromASTUntyped(definition.defaultValue);
    if (type && filled[name] !== undefined) filled[name] = withDefaults(type, filled[name]);
  }
  return filled;
}

function withDefaults(type: GraphQLInputType, value: unknown): unknown {
  if (isNonNullType(type)) return withDefaults(type.ofType, value);
  if (value === null || typeof value !== 'object') return value;
  if (isListType(type))
    return Array.isArray(value)
      ? value.map((item) => withDefaults(type.ofType, item))
      : withDefaults(type.ofType, value);
  if (!isInputObjectType(type) || Array.isArray(value)) return value;
  const object: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of Object.values(type.getFields())) {
    if (object[field.name] !== undefined) object[field.name] = withDefaults(field.type, object[field.name]);
    else if (!(field.name in object) && field.defaultValue !== undefined) {
      const literal = astFromValue(field.defaultValue, field.type);
      if (literal) object[field.name] = valueFromASTUntyped(literal);
    }
  }
  return object;
}

/**
 * graphql-jit's errors as graphql-js errors (Apollo's error formatting recognises only those), the original
 * error kept so the one error taxonomy maps it.
 */
function asGraphQLError(error: GraphQLError): GraphQLError {
  const rebuilt = new GraphQLError(error.message, {
    path: error.path,
    originalError: error.originalError,
    extensions: {},
  });
  // graphql-js errors carry their locations too; the rebuilt one has no AST nodes to compute them from.
  return Object.assign(rebuilt, { locations: error.locations });
}

/** An answer as it goes on the wire (data and error messages, paths and codes), for comparison. */
function plain(result: ExecutionResult): { data?: unknown; errors?: unknown } {
  return JSON.parse(
    JSON.stringify({
      data: result.data,
      errors: result.errors?.map((error) => ({ message: error.message, path: error.path })),
    }),
  );
}
