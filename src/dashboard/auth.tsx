import { useEffect, useState } from 'preact/hooks';

import { ApiError, gql, session } from './api';
import type {
  LogInMutation,
  LogInMutationVariables,
  SignInOptionsQuery,
  SignInOptionsQueryVariables,
  SignUpMutation,
  SignUpMutationVariables,
} from './graphql.generated';
import { t } from './i18n';
import { ForgotPassword } from './reset-password';
import { completeSignOn, refusalMessage, type SignOnArrival, SingleSignOnLink } from './single-sign-on';
import { Field, Notice, useAction } from './ui';

const SIGN_UP = /* GraphQL */ `
  mutation SignUp($input: SignUpInput!) {
    signUp(input: $input) {
      token
    }
  }
`;
const SIGN_IN_OPTIONS = /* GraphQL */ `
  query SignInOptions {
    signInMethods {
      singleSignOn
      singleSignOnUrl
      passwordLogin
    }
    instance {
      signUpMode
    }
  }
`;
const LOGIN = /* GraphQL */ `
  mutation LogIn($input: LoginInput!) {
    login(input: $input) {
      token
    }
  }
`;

/** An invitation link's code: in the fragment (`#invitation=…`), which the browser never sends to the server. */
const invitationCode = () => new URLSearchParams(location.hash.slice(1)).get('invitation');

/**
 * Sign-up and login; the token lives in this tab's sessionStorage, or in localStorage if asked, never in a
 * cookie. Sign-up is offered while it is open, or with an invitation link's code.
 */
export function SignIn({
  onSignedIn,
  arrival,
  notice,
}: {
  onSignedIn: () => void;
  arrival: SignOnArrival | null;
  notice?: string;
}) {
  const [invitation] = useState(invitationCode);
  const [mode, setMode] = useState<'login' | 'signup' | 'forgot'>(invitation ? 'signup' : 'login');
  // With two-factor on, the login's second step: the same form again, with the code.
  const [needsCode, setNeedsCode] = useState(false);
  const [options, setOptions] = useState<SignInOptionsQuery | null>(null);
  const [keep, setKeep] = useState(false);
  const action = useAction();
  useEffect(() => {
    if (arrival && 'code' in arrival) void action.run(() => completeSignOn(arrival)).then((ok) => ok && onSignedIn());
    else if (arrival) action.setOutcome({ kind: 'failed', message: refusalMessage(arrival.refusal) });
    // Without the server's answer, the password form stays (it says what refused it).
    gql<SignInOptionsQuery, SignInOptionsQueryVariables>(SIGN_IN_OPTIONS)
      .then(setOptions)
      .catch(() =>
        setOptions({
          signInMethods: { singleSignOn: false, singleSignOnUrl: null, passwordLogin: true },
          instance: { signUpMode: 'OPEN' },
        }),
      );
  }, []);
  const methods = options?.signInMethods ?? null;
  const canSignUp = invitation !== null || options?.instance.signUpMode === 'OPEN';
  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const email = String(form.get('email'));
    const password = String(form.get('password'));
    const ok = await action.run(async () => {
      const data =
        mode === 'signup'
          ? (
              await gql<SignUpMutation, SignUpMutationVariables>(SIGN_UP, {
                input: { email, password, name: String(form.get('name')), invitationCode: invitation },
              })
            ).signUp
          : await logIn({ email, password, code: needsCode ? String(form.get('code')) : undefined });
      if (!data) {
        setNeedsCode(true);
        return t('auth:enterCode');
      }
      // A refusal comes as an error too (gql throws on it), so a payload here carries the token.
      if (data.token) session.keep(data.token, keep);
      return undefined;
    });
    if (ok && session.token) onSignedIn();
  }
  if (mode === 'forgot') return <ForgotPassword onBack={() => setMode('login')} />;
  const title = mode === 'signup' ? t('auth:signUp') : t('auth:logIn');
  const keepChoice = (
    <label>
      <input type="checkbox" checked={keep} onChange={(event) => setKeep(event.currentTarget.checked)} />{' '}
      {t('auth:keepSignedIn')}
    </label>
  );
  return (
    <main class="sign-in">
      <h1>Subledger</h1>
      {!methods || (action.busy && arrival) ? (
        <p role="status">{arrival ? t('auth:signingIn') : t('common:loading')}</p>
      ) : (
        <>
          {methods.passwordLogin && (
            <form onSubmit={submit} aria-label={title}>
              <h2>{title}</h2>
              {mode === 'signup' && (
                <Field label={t('auth:name')} name="name" required autoComplete="name" errors={action.errors} />
              )}
              <Field
                label={t('auth:email')}
                name="email"
                type="email"
                required
                autoComplete="email"
                errors={action.errors}
              />
              <Field
                label={t('auth:password')}
                name="password"
                type="password"
                required
                autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
                errors={action.errors}
              />
              {needsCode && mode === 'login' && (
                <Field
                  label={t('auth:code')}
                  name="code"
                  required
                  autoComplete="one-time-code"
                  autoFocus
                  hint={t('auth:codeHint')}
                  errors={action.errors}
                />
              )}
              {keepChoice}
              {notice && !action.outcome && (
                <p class="notice done" role="status">
                  {notice}
                </p>
              )}
              <Notice outcome={action.outcome} />
              <button type="submit" disabled={action.busy}>
                {mode === 'signup' ? t('auth:createAccount') : t('auth:logIn')}
              </button>
              {canSignUp && (
                <button type="button" class="link" onClick={() => setMode(mode === 'signup' ? 'login' : 'signup')}>
                  {mode === 'signup' ? t('auth:haveAccount') : t('auth:signUp')}
                </button>
              )}
              {mode === 'login' && (
                <button type="button" class="link" onClick={() => setMode('forgot')}>
                  {t('auth:forgotPassword')}
                </button>
              )}
            </form>
          )}
          {methods.singleSignOnUrl && (
            <section class="single-sign-on" aria-label={t('auth:singleSignOn')}>
              {!methods.passwordLogin && (
                <>
                  <h2>{t('auth:logIn')}</h2>
                  {keepChoice}
                  <Notice outcome={action.outcome} />
                </>
              )}
              <SingleSignOnLink url={methods.singleSignOnUrl} keep={keep} />
            </section>
          )}
        </>
      )}
    </main>
  );
}

/** Logs in; null when the account has two-factor on and the code is still to be asked. */
async function logIn(input: LogInMutationVariables['input']): Promise<LogInMutation['login'] | null> {
  try {
    return (await gql<LogInMutation, LogInMutationVariables>(LOGIN, { input })).login;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'TWO_FACTOR_REQUIRED') return null;
    throw error;
  }
}
