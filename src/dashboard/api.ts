/** The dashboard's one way to the server: GraphQL with the Bearer token kept for this tab only. */

const TOKEN_KEY = 'subledger.token';

export const session = {
  get token(): string | null {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  set token(value: string | null) {
    if (value === null) sessionStorage.removeItem(TOKEN_KEY);
    else sessionStorage.setItem(TOKEN_KEY, value);
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
type Variables = Record<string, unknown>;

/**
 * Runs one of the screens' operations, sent as written: its text is the one the build registered (a server
 * with GRAPHQL_PERSISTED_ONLY=true runs no other), so it must be the `/* GraphQL *\/` constant itself. Typed by
 * the generated types, `gql<UpcomingPaymentsQuery, UpcomingPaymentsQueryVariables>(UPCOMING, { days })` checks
 * the variables too; they may be left out only when none is required.
 */
export function gql<T, V extends Variables = Variables>(
  query: string,
  ...[variables]: Record<string, never> extends V ? [variables?: V] : [variables: V]
): Promise<T> {
  return send<T>({ 'content-type': 'application/json' }, JSON.stringify({ query, variables: variables ?? {} }));
}

/** The variables with null at a dotted path ("input.file"), the objects on the way copied. */
function withNullAt(variables: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  const inner = (variables[head] ?? {}) as Record<string, unknown>;
  return { ...variables, [head]: rest.length === 0 ? null : withNullAt(inner, rest) };
}

/**
 * A request with one file (graphql-multipart-request-spec): the operation with the variable at `name` null (a
 * dotted path such as `input.file` for a file inside an input object), the map saying where the file goes, then
 * the file under "0".
 */
export function gqlUpload<T>(query: string, variables: Record<string, unknown>, name: string, file: File): Promise<T> {
  const body = new FormData();
  body.append('operations', JSON.stringify({ query, variables: withNullAt(variables, name.split('.')) }));
  body.append('map', JSON.stringify({ 0: [`variables.${name}`] }));
  body.append('0', file, file.name);
  // Apollo's CSRF guard lets a multipart request through only with a header a plain form cannot send.
  return send<T>({ 'apollo-require-preflight': 'true' }, body);
}

async function send<T>(headers: Record<string, string>, body: string | FormData): Promise<T> {
  if (session.token) headers.authorization = `Bearer ${session.token}`;
  let response: Response;
  try {
    response = await fetch('/graphql', { method: 'POST', headers, body });
  } catch {
    throw new ApiError('The server cannot be reached. Check your connection and try again.', 'NETWORK');
  }
  // A refusal before GraphQL (a file over the size limit) may answer without a JSON body.
  const answer = (await response.json().catch(() => ({}))) as GraphQLAnswer<T>;
  const [error] = answer.errors ?? [];
  if (error) {
    const code = error.extensions?.code ?? 'ERROR';
    if (code === 'UNAUTHENTICATED' && session.token) {
      session.token = null;
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
