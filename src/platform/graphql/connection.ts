import { ArgsType, type ClassType, Field, Int, ObjectType } from 'type-graphql';

import { AppError } from '../errors';
import { decodeCursor, encodeCursor } from './cursors';

@ObjectType('PageInfo', { description: 'Where a page lies in its list (Relay cursor connections).' })
export class PageInfo {
  @Field({ description: 'Whether items follow this page.' }) hasNextPage!: boolean;
  @Field({ description: 'Whether items come before this page.' }) hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true, description: "The first edge's cursor; null for an empty page." })
  startCursor!: string | null;
  @Field(() => String, { nullable: true, description: "The last edge's cursor; null for an empty page." })
  endCursor!: string | null;
}

export interface Edge<TNode> {
  cursor: string;
  node: TNode;
}

export interface Page<TNode> {
  edges: Array<Edge<TNode>>;
  nodes: TNode[];
  pageInfo: PageInfo;
  totalCount: number;
}

/** The Relay connection of a node type: `<name>Connection` with `<name>Edge`s (type-graphql's generic types). */
export function Connection<TNode extends object>(name: string, nodeClass: ClassType<TNode>) {
  @ObjectType(`${name}Edge`, { description: `A ${name} in a page, with its cursor.` })
  class EdgeType {
    @Field({ description: 'Where this item is: give it as `after` or `before` for the next or previous page.' })
    cursor!: string;
    @Field(() => nodeClass, { description: 'The item.' }) node!: TNode;
  }

  @ObjectType()
  abstract class ConnectionType {
    @Field(() => [EdgeType], { description: 'The items of this page with their cursors.' })
    edges!: Array<Edge<TNode>>;
    @Field(() => [nodeClass], { description: 'The items of this page (the edges without their cursors).' })
    nodes!: TNode[];
    @Field(() => PageInfo, { description: 'Where this page lies in the list.' }) pageInfo!: PageInfo;
    @Field(() => Int, { description: 'How many items the whole list holds.' }) totalCount!: number;
  }
  return ConnectionType;
}

/** The arguments of every connection: `first`/`after` pages forward, `last`/`before` back. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: 'The page size, from the start (or from after `after`).' })
  first?: number | null;
  @Field(() => String, { nullable: true, description: 'A cursor: the page starts after it.' })
  after?: string | null;
  @Field(() => Int, { nullable: true, description: 'The page size, from the end (or from before `before`).' })
  last?: number | null;
  @Field(() => String, { nullable: true, description: 'A cursor: the page ends before it.' })
  before?: string | null;
}

/** A list's page sizes: the size when neither first nor last is given, and the largest. */
export interface PageLimits {
  defaultSize: number;
  maxSize: number;
}

/** Rows `[offset, offset + limit)` of a list, with how many the whole list holds. */
export type PageRead<TRow> = (offset: number, limit: number) => Promise<{ rows: TRow[]; total: number }>;

function checkedSize(size: number | null | undefined, field: string, limits: PageLimits): number | undefined {
  if (size === null || size === undefined) return undefined;
  if (!Number.isInteger(size) || size < 1 || size > limits.maxSize)
    throw AppError.field(field, `The ${field} must be from 1 to ${limits.maxSize}.`);
  return size;
}

/**
 * Where the page `args` ask for lies in a list of `total` items: `limit` items from `offset`. Forward from
 * `after` (or the start), or back from `before` (or the end: without `before`, `last` needs the total, and
 * the window is undefined until it is given). Offset cursors: the edges' cursors are their offsets.
 */
export function pageWindow(
  args: PageArgs,
  limits: PageLimits,
  total?: number,
): { offset: number; limit: number } | undefined {
  const first = checkedSize(args.first, 'first', limits);
  const last = checkedSize(args.last, 'last', limits);
  if (first !== undefined && last !== undefined) throw AppError.field('last', 'Give first or last, not both.');
  const start = args.after ? decodeCursor(args.after, 'after') + 1 : 0;
  const before = args.before ? decodeCursor(args.before, 'before') : undefined;
  if (last === undefined) {
    const limit = first ?? limits.defaultSize;
    return { offset: start, limit: before === undefined ? limit : Math.max(0, Math.min(limit, before - start)) };
  }
  const end = before ?? total;
  if (end === undefined) return undefined;
  const offset = Math.max(start, end - last);
  return { offset, limit: Math.max(0, end - offset) };
}

/** The page `args` ask for (see pageWindow), read with `read`. */
export async function readPage<TRow, TNode>(
  args: PageArgs,
  limits: PageLimits,
  read: PageRead<TRow>,
  toNode: (row: TRow) => TNode,
): Promise<Page<TNode>> {
  const { offset, limit } = pageWindow(args, limits) ?? pageWindow(args, limits, (await read(0, 0)).total)!;
  const { rows, total } = await read(offset, limit);
  return pageOf(rows.slice(0, limit), offset, total, toNode);
}

/** A page of a list held whole in memory. */
export function pageOfList<TItem, TNode>(
  items: readonly TItem[],
  args: PageArgs,
  limits: PageLimits,
  toNode: (item: TItem) => TNode,
): Promise<Page<TNode>> {
  return readPage(
    args,
    limits,
    (offset, limit) => Promise.resolve({ rows: items.slice(offset, offset + limit), total: items.length }),
    toNode,
  );
}

/** The page of `rows` read at `offset` from a list of `total` items. */
export function pageOf<TRow, TNode>(
  rows: readonly TRow[],
  offset: number,
  total: number,
  toNode: (row: TRow) => TNode,
): Page<TNode> {
  const nodes = rows.map(toNode);
  const edges = nodes.map((node, index) => ({ cursor: encodeCursor(offset + index), node }));
  return {
    edges,
    nodes,
    totalCount: total,
    pageInfo: {
      hasNextPage: offset + rows.length < total,
      hasPreviousPage: offset > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
