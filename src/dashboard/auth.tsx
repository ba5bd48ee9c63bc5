import { useState } from 'preact/hooks';

import { ApiError, gql, session } from './api';
import type {
  LogInMutation,
  LogInMutationVariables,
  SignUpMutation,
  SignUpMutationVariables,
} from './graphql.generated';
import { ForgotPassword } from './reset-password';
import { Field, Notice, useAction } from './ui';

const SIGN_UP = /* GraphQL */ `
  mutation SignUp($input: SignUpInput!) {
    signUp(input: $input) {
      token
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

/** Sign-up and login; the token lives in this tab's sessionStorage, or in localStorage if asked, never in a cookie. */
export function SignIn({ onSignedIn, notice }: { onSignedIn: () => void; notice?: string }) {
  const [mode, setMode] = useState<'login' | 'signup' | 'forgot'>('login');
  // With two-factor on, the login's second step: the same form again, with the code.
  const [needsCode, setNeedsCode] = useState(false);
  const action = useAction();
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
                input: { email, password, name: String(form.get('name')) },
              })
            ).signUp
          : await logIn({ email, password, code: needsCode ? String(form.get('code')) : undefined });
      if (!data) {
        setNeedsCode(true);
        return 'Enter the code from your authenticator app, or a recovery code.';
      }
      // A refusal comes as an error too (gql throws on it), so a payload here carries the token.
      if (data.token) session.keep(data.token, form.get('keep') === 'on');
      return undefined;
    });
    if (ok && session.token) onSignedIn();
  }
  if (mode === 'forgot') return <ForgotPassword onBack={() => setMode('login')} />;
  return (
    <main class="sign-in">
      <h1>Subledger</h1>
      <form onSubmit={submit} aria-label={mode === 'signup' ? 'Create an account' : 'Log in'}>
        <h2>{mode === 'signup' ? 'Create an account' : 'Log in'}</h2>
        {mode === 'signup' && <Field label="Name" name="name" required autoComplete="name" errors={action.errors} />}
        <Field label="E-mail" name="email" type="email" required autoComplete="email" errors={action.errors} />
        <Field
          label="Password"
          name="password"
          type="password"
          required
          autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
          errors={action.errors}
        />
        {needsCode && mode === 'login' && (
          <Field
            label="Two-factor code"
            name="code"
            required
            autoComplete="one-time-code"
            autoFocus
            hint="Or one of your recovery codes"
            errors={action.errors}
          />
        )}
        <label>
          <input type="checkbox" name="keep" /> Keep me signed in on this device
        </label>
        {notice && !action.outcome && (
          <p class="notice done" role="status">
            {notice}
          </p>
        )}
        <Notice outcome={action.outcome} />
        <button type="submit" disabled={action.busy}>
          {mode === 'signup' ? 'Create account' : 'Log in'}
        </button>
        <button type="button" class="link" onClick={() => setMode(mode === 'signup' ? 'login' : 'signup')}>
          {mode === 'signup' ? 'I have an account' : 'Create an account'}
        </button>
        {mode === 'login' && (
          <button type="button" class="link" onClick={() => setMode('forgot')}>
            Forgot your password?
          </button>
        )}
      </form>
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
