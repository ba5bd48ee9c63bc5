import { ApiError, gql, session } from './api';
import type { CompleteSingleSignOnMutation, CompleteSingleSignOnMutationVariables } from './graphql.generated';
import { t } from './i18n';

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
const refusals = (): Record<string, string> => ({
  expired: t('single-sign-on:refusals.expired'),
  refused: t('single-sign-on:refusals.refused'),
  unverified: t('single-sign-on:refusals.unverified'),
  'no-account': t('single-sign-on:refusals.noAccount'),
  'other-identity': t('single-sign-on:refusals.otherIdentity'),
  disabled: t('single-sign-on:refusals.disabled'),
  unavailable: t('single-sign-on:refusals.unavailable'),
  'not-set-up': t('single-sign-on:refusals.notSetUp'),
});

export function refusalMessage(reason: string): string {
  return t('single-sign-on:failed', { why: refusals()[reason] ?? t('single-sign-on:startAgain') });
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
      {t('single-sign-on:signIn')}
    </a>
  );
}
