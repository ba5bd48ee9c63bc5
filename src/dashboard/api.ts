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

export async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (session.token) headers.authorization = `Bearer ${session.token}`;
  let answer: GraphQLAnswer<T>;
  try {
    const response = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    answer = (await response.json()) as GraphQLAnswer<T>;
  } catch {
    throw new ApiError('The server cannot be reached. Check your connection and try again.', 'NETWORK');
  }
  const [error] = answer.errors ?? [];
  if (error) {
    const code = error.extensions?.code ?? 'ERROR';
    if (code === 'UNAUTHENTICATED' && session.token) {
      session.token = null;
      window.dispatchEvent(new Event('subledger:signed-out'));
    }
    throw new ApiError(error.message, code, error.extensions?.errors ?? {});
  }
  return answer.data as T;
}
