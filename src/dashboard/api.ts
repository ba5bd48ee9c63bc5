/**
 * The dashboard's one way to the server: GraphQL with the Bearer token, kept for this tab only, or on this
 * device (every tab, after a restart) when the user asked to stay signed in.
 */

const TOKEN_KEY = 'subledger.token';

export const session = {
  get token(): string | null {
    return sessionStorage.getItem(TOKEN_KEY) ?? localStorage.getItem(TOKEN_KEY);
  },
  keep(token: string, onThisDevice: boolean): void {
    this.forget();
    (onThisDevice ? localStorage : sessionStorage).setItem(TOKEN_KEY, token);
  },
  forget(): void {
    sessionStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(TOKEN_KEY);
  },
};

/** A refused request: its message, and the messages per field (named as the server names them). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly fields: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

interface GraphQLAnswer<T> {
  data?: T;
  errors?: Array<{ message: string; extensions?: { code?: string; errors?: Record<string, string[]> } }>;
}

/** An operation's variables, as GraphQL Code Generator types them (graphql.generated.ts). */
export type Variables = Record<string, unknown>;

/**
 * Runs one of the screens' operations, sent as written: its text is the one the build registered (a server
 * with GRAPHQL_PERSISTED_ONLY=true runs no other), so it must be the `/* GraphQL *\/` constant itself. Typed by
 * the generated types, `gql<UpcomingPaymentsQuery, UpcomingPaymentsQueryVariables>(UPCOMING, { days })` checks
 * the variables and the answer against the schema; they must be given (a call without them does not compile),
 * and the variables may be left out only when none is required.
 */
export function gql<T = never, V extends Variables = never>(
  query: string,
  ...[variables]: Record<string, never> extends V ? [variables?: NoInfer<V>] : [variables: NoInfer<V>]
): Promise<T> {
  return send<T>({ 'content-type': 'application/json' }, JSON.stringify({ query, variables: variables ?? {} }));
}

/** The value at a dotted path ("input.file") of the variables. */
function valueAt(variables: Variables, path: string[]): unknown {
  return path.reduce<unknown>((value, key) => (value as Variables | undefined)?.[key], variables);
}

/** The variables with null at a dotted path ("input.file"), the objects on the way copied. */
function withNullAt(variables: Variables, path: string[]): Variables {
  const [head, ...rest] = path as [string, ...string[]];
  const inner = (variables[head] ?? {}) as Variables;
  return { ...variables, [head]: rest.length === 0 ? null : withNullAt(inner, rest) };
}

/**
 * A request with one file (graphql-multipart-request-spec): the operation with the file at `path` (a dotted
 * path such as `input.file` for a file inside an input object) replaced by null, the map saying where the file
 * goes, then the file under "0". Typed as gql is: the file is in the variables, where the schema wants it.
 */
export function gqlUpload<T = never, V extends Variables = never>(
  query: string,
  variables: NoInfer<V>,
  path: string,
): Promise<T> {
  const file = valueAt(variables, path.split('.'));
  if (!(file instanceof File)) throw new ApiError(`No file at ${path}`, 'BAD_USER_INPUT');
  const body = new FormData();
  body.append('operations', JSON.stringify({ query, variables: withNullAt(variables, path.split('.')) }));
  body.append('map', JSON.stringify({ 0: [`variables.${path}`] }));
  body.append('0', file, file.name);
  // Apollo's CSRF guard lets a multipart request through only with a header a plain form cannot send.
  return send<T>({ 'apollo-require-preflight': 'true' }, body);
}

/** The events a request sends when the server could not be reached, and when it answered. */
export const UNREACHABLE = 'subledger:unreachable';
export const REACHABLE = 'subledger:reachable';

async function send<T>(headers: Record<string, string>, body: string | FormData): Promise<T> {
  if (session.token) headers.authorization = `Bearer ${session.token}`;
  let response: Response;
  try {
    response = await fetch('/graphql', { method: 'POST', headers, body });
  } catch {
    // The offline notice (offline.tsx) shows until a request goes through again.
    window.dispatchEvent(new Event(UNREACHABLE));
    throw new ApiError('The server cannot be reached. Check your connection and try again.', 'NETWORK');
  }
  window.dispatchEvent(new Event(REACHABLE));
  // A refusal before GraphQL (a file over the size limit) may answer without a JSON body.
  const answer = (await response.json().catch(() => ({}))) as GraphQLAnswer<T>;
  const [error] = answer.errors ?? [];
  if (error) {
    const code = error.extensions?.code ?? 'ERROR';
    if (code === 'UNAUTHENTICATED' && session.token) {
      session.forget();
      window.dispatchEvent(new Event('subledger:signed-out'));
    }
    throw new ApiError(error.message, code, error.extensions?.errors ?? {});
  }
  if (answer.data === undefined)
    throw new ApiError(
      response.status === 413 ? 'The file is too large.' : `The request failed (${response.status}).`,
      'HTTP',
    );
  return answer.data;
}

/** A page of a connection as the screens select it: its nodes and where the next page starts. */
export interface NodesPage<N> {
  nodes: N[];
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}

/**
 * Every node of a connection, page after page: a list to choose from or to look names up in is never cut
 * short at one page. `page(after)` reads the page after a cursor (null: the first).
 */
export async function allNodes<N>(page: (after: string | null) => Promise<NodesPage<N>>): Promise<N[]> {
  const nodes: N[] = [];
  let after: string | null = null;
  for (;;) {
    const answer: NodesPage<N> = await page(after);
    nodes.push(...answer.nodes);
    if (!answer.pageInfo.hasNextPage || !answer.pageInfo.endCursor) return nodes;
    after = answer.pageInfo.endCursor;
  }
}
