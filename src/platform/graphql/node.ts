import { type GraphQLSchema, isInterfaceType, isObjectType } from 'graphql';
import { Arg, Ctx, Field, ID, Int, InterfaceType, Query, Resolver } from 'type-graphql';

import type { Caller } from '../caller';
import { AppError } from '../errors';
import { type GraphQLContext, requireCaller } from './context';
import { fromGlobalId, toGlobalId } from './global-ids';

/** The type name of each object a lookup found: how `Node` knows what it is (the objects are plain rows). */
const typeOfNode = new WeakMap<object, string>();

/**
 * Anything with an id. Object types implement it with `implements: Node` and keep their row id in an
 * undecorated `id` property: `withNodeIds` makes `id` the global id and `legacyId` the row id.
 */
@InterfaceType('Node', { description: 'An object with a global id: `node(id:)` finds it again.' })
export abstract class Node {
  @Field(() => ID, { description: 'The global id: opaque, and unique across every type.' })
  id!: string;

  @Field(() => Int, { description: 'The numeric id the REST API uses for this object.' })
  legacyId!: number;
}

/** Finds one object of a type by its row id as the caller sees it; "not found" (or null) when they cannot. */
export type NodeLookup = (caller: Caller, id: number) => Promise<object | null>;

/** The most ids one `nodes` call takes. */
const MAX_NODES = 100;

@Resolver()
export class NodeResolver {
  constructor(private readonly lookups: Readonly<Record<string, NodeLookup>>) {}

  @Query(() => Node, { nullable: true, description: 'The object with this global id, if you may see it.' })
  async node(
    @Arg('id', () => ID, { description: 'A global id from any `id` field.' }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<object | null> {
    return this.find(requireCaller(context), id);
  }

  @Query(() => [Node], {
    nullable: 'items',
    description: 'The objects with these global ids, in their order; null for each you may not see.',
  })
  async nodes(
    @Arg('ids', () => [ID], { description: `At most ${MAX_NODES} global ids.` }) ids: string[],
    @Ctx() context: GraphQLContext,
  ): Promise<Array<object | null>> {
    if (ids.length > MAX_NODES) throw AppError.field('ids', `Give at most ${MAX_NODES} ids.`);
    const caller = requireCaller(context);
    return Promise.all(ids.map((id) => this.find(caller, id)));
  }

  private async find(caller: Caller, globalId: string): Promise<object | null> {
    const decoded = fromGlobalId(globalId);
    const lookup = decoded && Object.hasOwn(this.lookups, decoded.typeName) ? this.lookups[decoded.typeName] : null;
    if (!decoded || !lookup) return null;
    try {
      const found = await lookup(caller, decoded.id);
      if (found) typeOfNode.set(found, decoded.typeName);
      return found;
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  }
}

/**
 * Gives every `Node` object type its `id` (the global id, from the row id) and `legacyId` (the row id): one
 * resolver each, on the built schema, so no type repeats them. Throws for a Node type with no lookup, so that
 * `node(id:)` can find every type that has an id.
 */
export function withNodeIds(schema: GraphQLSchema, lookups: Readonly<Record<string, NodeLookup>>): GraphQLSchema {
  const node = schema.getType('Node');
  // Synchronous, unlike type-graphql's wrapper (graphql-jit takes no promise for a type).
  if (isInterfaceType(node)) node.resolveType = (value: object) => typeOfNode.get(value);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || !type.getInterfaces().some((implemented) => implemented === node)) continue;
    if (!Object.hasOwn(lookups, type.name)) throw new Error(`The Node type ${type.name} has no lookup for node(id:)`);
    const typeName = type.name;
    const fields = type.getFields();
    fields.id!.resolve = (source: { id: number }) => toGlobalId(typeName, source.id);
    fields.legacyId!.resolve = (source: { id: number }) => source.id;
  }
  return schema;
}
