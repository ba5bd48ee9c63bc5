import { ApiError, gql, session } from './api';
import type { CompleteSingleSignOnMutation, CompleteSingleSignOnMutationVariables } from './graphql.generated';

const COMPLETE_SINGLE_SIGN_ON = /* GraphQL */ `
  mutation CompleteSingleSignOn($input: CompleteSingleSignOnInput!) {
    completeSingleSignOn(input: $input) {
      token
    }
  }
`;

/** Where "Keep me signed in on this device" waits, in this tab, while the browser is at the provider. */
const KEEP_KEY = 'subledger.sso-keep';

/**
 * What the server's return from a single sign-on put in the address: its one-time code (with the choice to
 * stay signed in made before leaving), or the name of why it was refused.
 */
export type SignOnArrival = { code: string; keep: boolean } | { refusal: string };

/**
 * The arrival, taken out of the address at once (replaceState: no history entry keeps the code), or null.
 * Read before the first render, so that no screen sees it as its address.
 */
export function takeSignOnArrival(): SignOnArrival | null {
  const found = /^#sso-(code|error)=([\w-]+)$/.exec(location.hash);
  if (!found) return null;
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  const keep = sessionStorage.getItem(KEEP_KEY) === 'true';
  sessionStorage.removeItem(KEEP_KEY);
  return found[1] === 'code' ? { code: found[2], keep } : { refusal: found[2] };
}

/**
 * Why the server refused a sign-on, in the dashboard's own words: the address names a reason, never a text,
 * since anyone may send a link with any fragment. The reasons are the server's (src/auth/sign-on-refusal.ts).
 */
const REFUSALS: Record<string, string> = {
  expired: 'That sign-in took too long or was already used. Start it again.',
  refused: 'Your identity provider did not sign you in (cancelled, or its answer was refused). Start it again.',
  unverified: 'Your identity provider has not verified your e-mail address, so it cannot sign you in here.',
  'no-account': 'You have no account here yet, and single sign-on does not create accounts on this server.',
  'other-identity': 'The account of your e-mail address signs in as another identity of your provider.',
  disabled: 'This account cannot sign in.',
  unavailable: 'The identity provider cannot be reached. Try again later.',
  'not-set-up': 'Single sign-on is not set up on this server.',
};

export function refusalMessage(reason: string): string {
  return `Single sign-on failed: ${REFUSALS[reason] ?? 'start it again.'}`;
}

/** Exchanges the arrival's one-time code for a session, kept as the user chose before leaving. */
export async function completeSignOn({ code, keep }: { code: string; keep: boolean }): Promise<void> {
  try {
    const { completeSingleSignOn } = await gql<CompleteSingleSignOnMutation, CompleteSingleSignOnMutationVariables>(
      COMPLETE_SINGLE_SIGN_ON,
      { input: { code } },
    );
    if (completeSingleSignOn.token) session.keep(completeSingleSignOn.token, keep);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'UNAUTHENTICATED')
      throw new ApiError(refusalMessage('expired'), error.code);
    throw error;
  }
}

/** The way to the provider; the choice to stay signed in is kept in this tab until the browser is back. */
export function SingleSignOnLink({ url, keep }: { url: string; keep: boolean }) {
  return (
    <a class="button" href={url} onClick={() => sessionStorage.setItem(KEEP_KEY, String(keep))}>
      Sign in with single sign-on
    </a>
  );
}
