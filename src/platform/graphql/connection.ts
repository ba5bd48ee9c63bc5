import { type ClassType, Field, ObjectType } from 'type-graphql';

import { encodeCursor } from './cursors';

@ObjectType('PageInfo')
export class PageInfo {
  @Field() hasNextPage!: boolean;
  @Field(() => String, { nullable: true }) endCursor!: string | null;
}

export interface Edge<TNode> {
  cursor: string;
  node: TNode;
}

export interface Page<TNode> {
  edges: Array<Edge<TNode>>;
  pageInfo: PageInfo;
}

/** The Relay connection of a node type: `<name>Connection` with `<name>Edge`s (type-graphql's generic types). */
export function Connection<TNode extends object>(name: string, nodeClass: ClassType<TNode>) {
  @ObjectType(`${name}Edge`)
  class EdgeType {
    @Field() cursor!: string;
    @Field(() => nodeClass) node!: TNode;
  }

  @ObjectType()
  abstract class ConnectionType {
    @Field(() => [EdgeType]) edges!: Array<Edge<TNode>>;
    @Field(() => PageInfo) pageInfo!: PageInfo;
  }
  return ConnectionType;
}

/**
 * A page from the rows read for it: the caller reads one row more than `first` at `offset`, and that extra
 * row is the one rule for whether a next page exists.
 */
export function pageOf<TRow, TNode>(
  rows: TRow[],
  first: number,
  offset: number,
  toNode: (row: TRow) => TNode,
): Page<TNode> {
  const edges = rows.slice(0, first).map((row, index) => ({ cursor: encodeCursor(offset + index), node: toNode(row) }));
  return { edges, pageInfo: { hasNextPage: rows.length > first, endCursor: edges.at(-1)?.cursor ?? null } };
}
