import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  getVariableValues,
  type GraphQLField,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { LRUCache } from 'lru-cache';

import type { Caller } from '../caller';

/** A field of a selection: its key in the answer (alias, else name), its name and its node. */
export interface SelectedField {
  key: string;
  name: string;
  node: FieldNode;
}

/**
 * The fields of selection sets, flattened through fragments, in the order graphql-js answers them. A
 * selection that is not one plain JSON object in that order is not read (null): a directive anywhere, a
 * fragment on another type than the one asked (an interface's included), or a key selected twice (which
 * graphql-js merges).
 */
export class SelectionReader {
  constructor(private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>) {}

  /** The fields `set` selects on an object of `typeName`. */
  fieldsOf(set: SelectionSetNode | undefined, typeName: string): SelectedField[] | null {
    if (!set) return null;
    const fields: SelectedField[] = [];
    return this.collect(set, typeName, fields, new Set()) &&
      new Set(fields.map((field) => field.key)).size === fields.length
      ? fields
      : null;
  }

  private collect(set: SelectionSetNode, typeName: string, into: SelectedField[], seen: Set<string>): boolean {
    for (const selection of set.selections) {
      if (selection.directives?.length) return false;
      if (selection.kind === Kind.FIELD) {
        into.push({ key: selection.alias?.value ?? selection.name.value, name: selection.name.value, node: selection });
        continue;
      }
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : this.fragments.get(selection.name.value);
      if (!fragment || (fragment.typeCondition && fragment.typeCondition.name.value !== typeName)) return false;
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        if (seen.has(selection.name.value) || fragment.directives?.length) return false;
        seen.add(selection.name.value);
      }
      if (!this.collect(fragment.selectionSet, typeName, into, seen)) return false;
    }
    return true;
  }
}

/** How Apollo ends an answer of data: the objects closed, and a newline. */
const ANSWER_END = Buffer.from('}}\n');

/** What a root field written by the database answered: its value's JSON, as bytes in parts, or why it did not answer. */
export type WrittenField = { json: readonly Buffer[] } | 'token not live' | 'not here';

/**
 * A root field's selection compiled: its value for a caller and the field's arguments, written by the database;
 * 'not here' for arguments the executor refuses in words. A failure of the read itself rejects.
 */
export type WrittenFieldAnswer = (caller: Caller, args: Record<string, unknown>) => Promise<WrittenField>;

/**
 * Root fields whose answers the database can write whole, each by the compiler of its selections: null for a
 * selection it does not compile (which the executor answers as ever).
 */
export type WrittenRootFields = Record<
  string,
  (field: SelectedField, reader: SelectionReader) => WrittenFieldAnswer | null
>;

/** An operation of one root field that compiled. */
interface WrittenOperation {
  key: string;
  field: FieldNode;
  definition: GraphQLField<unknown, unknown>;
  operation: OperationDefinitionNode;
  answer: WrittenFieldAnswer;
}

/** Operations learnt, by document hash and operation name (as the executor keeps compiled documents). */
const LEARNT_OPERATIONS = 500;

/** An operation whose selection does not compile, remembered as such. */
const NOT_WRITTEN = Symbol('not written');

/**
 * Answers of queries that PostgreSQL writes whole, as JSON text sent as it comes: a query of one root field of
 * `roots` whose whole selection compiles (see WrittenRootFields) skips resolvers, the executor and
 * JSON.stringify alike. An operation is learnt when the executor runs it, so only after Apollo has parsed,
 * validated and limited its document (and persisted-only mode has let it through); from then on its requests
 * are answered here (see keptQueryAnswers). In the executors' comparison (tests), every answer of an operation
 * that compiles is also written by the database and must be the same.
 */
export class WrittenAnswers {
  private readonly operations = new LRUCache<string, WrittenOperation | typeof NOT_WRITTEN>({ max: LEARNT_OPERATIONS });

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly roots: WrittenRootFields,
  ) {}

  /** Learns an operation Apollo has validated: how to write its answer, or that it cannot. */
  learn(
    queryHash: string,
    operationName: string | null | undefined,
    document: DocumentNode,
    operation: OperationDefinitionNode,
  ): void {
    const key = keyOf(queryHash, operationName);
    if (!this.operations.has(key)) this.operations.set(key, this.compile(document, operation) ?? NOT_WRITTEN);
  }

  /** Whether the database writes the answers of this operation (learnt already). */
  writes(queryHash: string, operationName: string | null | undefined): boolean {
    const learnt = this.operations.get(keyOf(queryHash, operationName));
    return learnt !== undefined && learnt !== NOT_WRITTEN;
  }

  /**
   * The answer (`{"data":…}` and a newline, as Apollo writes it) of a learnt operation for `caller` and the
   * request's variables; 'not here' when it was not learnt or does not compile, or for variables or arguments
   * the executor is to refuse (with the errors GraphQL gives); 'token not live' when the caller's token proved
   * revoked or expired in the statement that checked it.
   */
  async answer(
    queryHash: string,
    operationName: string | null | undefined,
    caller: Caller,
    variables: Record<string, unknown> | null | undefined,
  ): Promise<WrittenField> {
    const operation = this.operations.get(keyOf(queryHash, operationName));
    if (!operation || operation === NOT_WRITTEN) return 'not here';
    let args: Record<string, unknown>;
    try {
      const coerced = getVariableValues(this.schema, operation.operation.variableDefinitions ?? [], variables ?? {});
      if (coerced.errors) return 'not here';
      args = getArgumentValues(operation.definition, operation.field, coerced.coerced);
    } catch {
      return 'not here';
    }
    const written = await operation.answer(caller, args);
    return typeof written === 'string'
      ? written
      : { json: [Buffer.from(`{"data":{"${operation.key}":`), ...written.json, ANSWER_END] };
  }

  /**
   * The data the database writes for an operation that compiles, for the executors' comparison (tests): as a
   * client reads it; undefined when it does not compile or is not written for these variables.
   */
  async dataOf(
    queryHash: string,
    operationName: string | null | undefined,
    caller: Caller | null,
    variables: Record<string, unknown> | undefined,
  ): Promise<unknown> {
    if (!caller) return undefined;
    const written = await this.answer(queryHash, operationName, caller, variables);
    return typeof written === 'string'
      ? undefined
      : (JSON.parse(Buffer.concat(written.json).toString('utf8')) as { data: unknown }).data;
  }

  private compile(document: DocumentNode, operation: OperationDefinitionNode): WrittenOperation | null {
    if (operation.operation !== 'query' || operation.directives?.length) return null;
    const reader = new SelectionReader(
      new Map(
        document.definitions
          .filter((node) => node.kind === Kind.FRAGMENT_DEFINITION)
          .map((node) => [node.name.value, node]),
      ),
    );
    const queryType = this.schema.getQueryType();
    const fields = queryType && reader.fieldsOf(operation.selectionSet, queryType.name);
    if (!queryType || fields?.length !== 1) return null;
    const [field] = fields;
    const compiler = Object.hasOwn(this.roots, field.name) ? this.roots[field.name] : undefined;
    const definition = queryType.getFields()[field.name];
    const answer = compiler?.(field, reader);
    return answer && definition ? { key: field.key, field: field.node, definition, operation, answer } : null;
  }
}

function keyOf(queryHash: string, operationName: string | null | undefined): string {
  return `${queryHash}:${operationName ?? ''}`;
}
