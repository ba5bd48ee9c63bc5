import { gql, session } from './api';
import type {
  RequestPasswordResetMutation,
  RequestPasswordResetMutationVariables,
  ResetPasswordMutation,
  ResetPasswordMutationVariables,
} from './graphql.generated';
import { t } from './i18n';
import { Field, Notice, useAction } from './ui';

const REQUEST_RESET = /* GraphQL */ `
  mutation RequestPasswordReset($input: RequestPasswordResetInput!) {
    requestPasswordReset(input: $input) {
      linkValidMinutes
    }
  }
`;
const RESET = /* GraphQL */ `
  mutation ResetPassword($input: ResetPasswordInput!) {
    resetPassword(input: $input) {
      user {
        id
      }
    }
  }
`;

/** The token of a mailed reset link (`/reset-password?token=…`), when the dashboard was opened by one. */
export function resetTokenOf(where: Location): string | null {
  return where.pathname === '/reset-password' ? new URLSearchParams(where.search).get('token') : null;
}

/** Asks for a reset link. The server answers the same whether or not the address has an account, and so does this. */
export function ForgotPassword({ onBack }: { onBack: () => void }) {
  const action = useAction();
  async function submit(event: Event) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget as HTMLFormElement).get('email'));
    await action.run(async () => {
      await gql<RequestPasswordResetMutation, RequestPasswordResetMutationVariables>(REQUEST_RESET, {
        input: { email },
      });
      return t('reset-password:linkSent');
    });
  }
  return (
    <main class="sign-in">
      <h1>Subledger</h1>
      <form onSubmit={submit} aria-label={t('reset-password:forgotTitle')}>
        <h2>{t('reset-password:forgotTitle')}</h2>
        <Field label={t('auth:email')} name="email" type="email" required autoComplete="email" errors={action.errors} />
        <Notice outcome={action.outcome} />
        <button type="submit" disabled={action.busy}>
          {t('reset-password:sendLink')}
        </button>
        <button type="button" class="link" onClick={onBack}>
          {t('reset-password:backToLogIn')}
        </button>
      </form>
    </main>
  );
}

/**
 * The page a reset link opens: a new password for the link's token. The server signs everyone out, so this
 * device forgets its token too, and the address bar loses the used link.
 */
export function ResetPassword({ token, onDone }: { token: string; onDone: () => void }) {
  const action = useAction();
  async function submit(event: Event) {
    event.preventDefault();
    const newPassword = String(new FormData(event.currentTarget as HTMLFormElement).get('newPassword'));
    const ok = await action.run(async () => {
      await gql<ResetPasswordMutation, ResetPasswordMutationVariables>(RESET, { input: { token, newPassword } });
    });
    if (!ok) return;
    session.forget();
    history.replaceState(null, '', '/');
    onDone();
  }
  return (
    <main class="sign-in">
      <h1>Subledger</h1>
      <form onSubmit={submit} aria-label={t('reset-password:resetTitle')}>
        <h2>{t('reset-password:resetTitle')}</h2>
        <Field
          label={t('reset-password:newPassword')}
          name="newPassword"
          type="password"
          required
          minLength={8}
          autoComplete="new-password"
          errors={action.errors}
        />
        <Notice outcome={action.outcome} />
        <button type="submit" disabled={action.busy}>
          {t('reset-password:setPassword')}
        </button>
        <a href="/">{t('reset-password:backToLogIn')}</a>
      </form>
    </main>
  );
}
