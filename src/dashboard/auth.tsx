import { useEffect, useState } from 'preact/hooks';

import { gql, session } from './api';
import type {
  LogInMutation,
  LogInMutationVariables,
  SignUpMode,
  SignUpModeQuery,
  SignUpModeQueryVariables,
  SignUpMutation,
  SignUpMutationVariables,
} from './graphql.generated';
import { Field, Notice, useAction } from './ui';

const SIGN_UP = /* GraphQL */ `
  mutation SignUp($input: SignUpInput!) {
    signUp(input: $input) {
      token
    }
  }
`;
const SIGN_UP_MODE = /* GraphQL */ `
  query SignUpMode {
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
 * Sign-up and login; the token lives in this tab's sessionStorage, or in
 * localStorage if asked, never in a cookie. Sign-up is offered while
 * it is open, or with an invitation link's code.
 */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [invitation] = useState(invitationCode);
  const [mode, setMode] = useState<'login' | 'signup'>(invitation ? 'signup' : 'login');
  const [signUpMode, setSignUpMode] = useState<SignUpMode | null>(null);
  useEffect(() => {
    gql<SignUpModeQuery, SignUpModeQueryVariables>(SIGN_UP_MODE).then(
      (data) => setSignUpMode(data.instance.signUpMode),
      () => undefined,
    );
  }, []);
  const canSignUp = invitation !== null || signUpMode === null || signUpMode === 'OPEN';
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
                input: { email, password, name: String(form.get('name')), invitationCode: invitation },
              })
            ).signUp
          : (await gql<LogInMutation, LogInMutationVariables>(LOGIN, { input: { email, password } })).login;
      // A refusal comes as an error too (gql throws on it), so a payload here carries the token.
      if (data.token) session.keep(data.token, form.get('keep') === 'on');
    });
    if (ok) onSignedIn();
  }
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
        <label>
          <input type="checkbox" name="keep" /> Keep me signed in on this device
        </label>
        <Notice outcome={action.outcome} />
        <button type="submit" disabled={action.busy}>
          {mode === 'signup' ? 'Create account' : 'Log in'}
        </button>
        {canSignUp && (
          <button type="button" class="link" onClick={() => setMode(mode === 'signup' ? 'login' : 'signup')}>
            {mode === 'signup' ? 'I have an account' : 'Create an account'}
          </button>
        )}
      </form>
    </main>
  );
}
