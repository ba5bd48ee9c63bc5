import { gql } from './api';
import type { ChangePasswordMutation, ChangePasswordMutationVariables } from './graphql.generated';
import { t } from './i18n';
import { PersonalAccessTokens, Sessions } from './sessions';
import { TwoFactor } from './two-factor';
import { Field, Notice, Section, useAction } from './ui';

const CHANGE_PASSWORD = /* GraphQL */ `
  mutation ChangePassword($input: ChangePasswordInput!) {
    changePassword(input: $input) {
      user {
        id
      }
    }
  }
`;

/** The account's security: its password, two-factor, where it is signed in, and its access tokens. */
export function Security() {
  return (
    <Section title={t('common:screens.security')}>
      <PasswordChange />
      <TwoFactor />
      <Sessions />
      <PersonalAccessTokens />
    </Section>
  );
}

/** A new password; the other sessions and tokens are signed out unless the user unticks it. */
function PasswordChange() {
  const action = useAction();
  async function submit(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const values = new FormData(form);
    const keepOtherSessions = values.get('signOutOthers') !== 'on';
    await action.run(async () => {
      await gql<ChangePasswordMutation, ChangePasswordMutationVariables>(CHANGE_PASSWORD, {
        input: {
          currentPassword: String(values.get('currentPassword')),
          newPassword: String(values.get('newPassword')),
          keepOtherSessions,
        },
      });
      form.reset();
      return keepOtherSessions ? t('security:changed') : t('security:changedSignedOut');
    });
  }
  return (
    <form class="card" onSubmit={submit} aria-label={t('security:change')}>
      <h2>{t('security:password')}</h2>
      <Field
        label={t('security:currentPassword')}
        name="currentPassword"
        type="password"
        required
        autoComplete="current-password"
        errors={action.errors}
      />
      <Field
        label={t('security:newPassword')}
        name="newPassword"
        type="password"
        required
        minLength={8}
        autoComplete="new-password"
        errors={action.errors}
        hint={t('security:newPasswordHint')}
      />
      <label>
        <input type="checkbox" name="signOutOthers" defaultChecked /> {t('security:signOutOthers')}
      </label>
      <Notice outcome={action.outcome} />
      <button type="submit" disabled={action.busy}>
        {t('security:change')}
      </button>
    </form>
  );
}
