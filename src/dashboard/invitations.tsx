import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import { instant } from './format';
import type {
  CreateInvitationMutation,
  CreateInvitationMutationVariables,
  InvitationsQuery,
  InvitationsQueryVariables,
  InvitationStatus,
  RevokeInvitationMutation,
  RevokeInvitationMutationVariables,
  SetSignUpModeMutation,
  SetSignUpModeMutationVariables,
  SignUpMode,
  SignUpModeQuery,
  SignUpModeQueryVariables,
} from './graphql.generated';
import { t } from './i18n';
import { changeThen, Columns, Field, Notice, Pager, Select, TableWrap, useAction, usePagedList } from './ui';

const SIGN_UP_MODE = /* GraphQL */ `
  query SignUpMode {
    instance {
      signUpMode
    }
  }
`;
const SET_SIGN_UP_MODE = /* GraphQL */ `
  mutation SetSignUpMode($mode: SignUpMode!) {
    setSignUpMode(input: { mode: $mode }) {
      instance {
        signUpMode
      }
    }
  }
`;
const INVITATIONS = /* GraphQL */ `
  query Invitations($after: String) {
    invitations(first: 50, after: $after) {
      nodes {
        id
        email
        createdAt
        expiresAt
        status
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;
const CREATE_INVITATION = /* GraphQL */ `
  mutation CreateInvitation($input: CreateInvitationInput!) {
    createInvitation(input: $input) {
      link
      emailed
    }
  }
`;
const REVOKE_INVITATION = /* GraphQL */ `
  mutation RevokeInvitation($id: ID!) {
    revokeInvitation(input: { id: $id }) {
      invitation {
        id
      }
    }
  }
`;

// The SignUpMode and InvitationStatus enums' values, as the screen says them in the language spoken.
const modes = (): Record<SignUpMode, string> => ({
  OPEN: t('invitations:modes.OPEN'),
  INVITE_ONLY: t('invitations:modes.INVITE_ONLY'),
  CLOSED: t('invitations:modes.CLOSED'),
});
const modeSet = (): Record<SignUpMode, string> => ({
  OPEN: t('invitations:modeSet.OPEN'),
  INVITE_ONLY: t('invitations:modeSet.INVITE_ONLY'),
  CLOSED: t('invitations:modeSet.CLOSED'),
});
const statuses = (): Record<InvitationStatus, string> => ({
  PENDING: t('invitations:statuses.PENDING'),
  USED: t('invitations:statuses.USED'),
  REVOKED: t('invitations:statuses.REVOKED'),
  EXPIRED: t('invitations:statuses.EXPIRED'),
});

/** Who may sign up, switched at once for every process (the environment's setting is only the default). */
export function SignUpModeSetting({ onChange }: { onChange: () => void }) {
  const [mode, setMode] = useState<SignUpMode | null>(null);
  const action = useAction();
  useEffect(() => {
    void action.run(async () =>
      setMode((await gql<SignUpModeQuery, SignUpModeQueryVariables>(SIGN_UP_MODE)).instance.signUpMode),
    );
  }, []);
  async function save(event: Event) {
    event.preventDefault();
    const chosen = String(new FormData(event.currentTarget as HTMLFormElement).get('mode')) as SignUpMode;
    await action.run(async () => {
      const answer = await gql<SetSignUpModeMutation, SetSignUpModeMutationVariables>(SET_SIGN_UP_MODE, {
        mode: chosen,
      });
      setMode(answer.setSignUpMode.instance?.signUpMode ?? chosen);
      onChange();
      return modeSet()[chosen];
    });
  }
  return (
    <form class="card" aria-label={t('invitations:signUp')} onSubmit={(event) => void save(event)}>
      <h2>{t('invitations:signUp')}</h2>
      {mode && <Select key={mode} label={t('invitations:whoMay')} name="mode" options={modes()} initial={mode} />}
      <Notice outcome={action.outcome} />
      <button type="submit" disabled={action.busy || !mode}>
        {t('common:save')}
      </button>
    </form>
  );
}

/** Invitations to sign up: made for an address (mailed when SMTP is set up) or for whoever has the link. */
export function Invitations({ onChange }: { onChange: () => void }) {
  const [link, setLink] = useState<string | null>(null);
  const action = useAction();
  const { pages, page, load } = usePagedList(
    async (after) => (await gql<InvitationsQuery, InvitationsQueryVariables>(INVITATIONS, { after })).invitations,
    action,
  );
  const apply = changeThen(async () => {
    await load();
    onChange();
  });

  async function invite(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const email = String(new FormData(form).get('email')).trim();
    await action.run(async () => {
      const answer = await gql<CreateInvitationMutation, CreateInvitationMutationVariables>(CREATE_INVITATION, {
        input: { email: email === '' ? null : email },
      });
      setLink(answer.createInvitation.link ?? null);
      form.reset();
      pages.restart();
      await load();
      onChange();
      return answer.createInvitation.emailed ? t('invitations:emailed', { email }) : t('invitations:made');
    });
  }

  return (
    <div class="card">
      <h2>{t('invitations:invitations')}</h2>
      <form aria-label={t('invitations:invite')} onSubmit={(event) => void invite(event)}>
        <Field
          label={t('invitations:email')}
          name="email"
          type="email"
          autoComplete="off"
          errors={action.errors}
          hint={t('invitations:emailHint')}
        />
        <button type="submit" disabled={action.busy}>
          {t('invitations:invite')}
        </button>
      </form>
      <Notice outcome={action.outcome} />
      {link && (
        <p class="secret" role="status">
          {t('invitations:passOn')} <code aria-label={t('invitations:link')}>{link}</code>
        </p>
      )}
      <TableWrap label={t('invitations:invitations')}>
        <table aria-label={t('invitations:invitations')}>
          <Columns
            names={[
              t('invitations:for'),
              t('invitations:madeAt'),
              t('invitations:expires'),
              t('invitations:state'),
              t('common:actions'),
            ]}
          />
          <tbody>
            {page?.nodes.map((invitation) => (
              <tr key={invitation.id}>
                <th scope="row">{invitation.email ?? t('invitations:anyone')}</th>
                <td>{instant(invitation.createdAt)}</td>
                <td>{instant(invitation.expiresAt)}</td>
                <td>{statuses()[invitation.status]}</td>
                <td>
                  {invitation.status === 'PENDING' && (
                    <button
                      type="button"
                      class="danger"
                      aria-label={
                        invitation.email
                          ? t('invitations:revokeLabel', { email: invitation.email })
                          : t('invitations:revokeAnyoneLabel')
                      }
                      onClick={() => {
                        if (!confirm(t('invitations:confirmRevoke'))) return;
                        setLink(null);
                        void action.run(
                          apply<RevokeInvitationMutation, RevokeInvitationMutationVariables>(
                            REVOKE_INVITATION,
                            { id: invitation.id },
                            t('invitations:revoked'),
                          ),
                        );
                      }}
                    >
                      {t('invitations:revoke')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {page && <Pager pages={pages} pageInfo={page.pageInfo} />}
    </div>
  );
}
