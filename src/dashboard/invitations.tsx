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
import { changeThen, Columns, Field, Notice, Pager, Select, useAction, usePagedList } from './ui';

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

const MODES: Record<SignUpMode, string> = {
  OPEN: 'Open: anyone may sign up',
  INVITE_ONLY: 'Invite-only: with an invitation link',
  CLOSED: 'Closed: nobody may sign up',
};
const STATUSES: Record<InvitationStatus, string> = {
  PENDING: 'Not used yet',
  USED: 'Used',
  REVOKED: 'Revoked',
  EXPIRED: 'Expired',
};

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
      return `Sign-up is now ${MODES[chosen].split(':')[0].toLowerCase()}`;
    });
  }
  return (
    <form class="card" aria-label="Sign-up" onSubmit={(event) => void save(event)}>
      <h2>Sign-up</h2>
      {mode && <Select key={mode} label="Who may sign up" name="mode" options={MODES} initial={mode} />}
      <Notice outcome={action.outcome} />
      <button type="submit" disabled={action.busy || !mode}>
        Save
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
      return answer.createInvitation.emailed ? `Invitation e-mailed to ${email}` : 'Invitation made';
    });
  }

  return (
    <div class="card">
      <h2>Invitations</h2>
      <form aria-label="Invite" onSubmit={(event) => void invite(event)}>
        <Field
          label="E-mail address"
          name="email"
          type="email"
          autoComplete="off"
          errors={action.errors}
          hint="Empty: whoever has the link may sign up with it, once, within 7 days"
        />
        <button type="submit" disabled={action.busy}>
          Invite
        </button>
      </form>
      <Notice outcome={action.outcome} />
      {link && (
        <p class="secret" role="status">
          Pass this link on, it is shown only this once: <code aria-label="Invitation link">{link}</code>
        </p>
      )}
      <div class="table-wrap">
        <table aria-label="Invitations">
          <Columns names={['For', 'Made', 'Expires', 'State', 'Actions']} />
          <tbody>
            {page?.nodes.map((invitation) => (
              <tr key={invitation.id}>
                <th scope="row">{invitation.email ?? 'Anyone with the link'}</th>
                <td>{instant(invitation.createdAt)}</td>
                <td>{instant(invitation.expiresAt)}</td>
                <td>{STATUSES[invitation.status]}</td>
                <td>
                  {invitation.status === 'PENDING' && (
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Revoke the invitation for ${invitation.email ?? 'anyone with the link'}`}
                      onClick={() => {
                        if (!confirm('Revoke this invitation? Its link stops working.')) return;
                        setLink(null);
                        void action.run(
                          apply<RevokeInvitationMutation, RevokeInvitationMutationVariables>(
                            REVOKE_INVITATION,
                            { id: invitation.id },
                            'Invitation revoked',
                          ),
                        );
                      }}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page && <Pager pages={pages} pageInfo={page.pageInfo} />}
    </div>
  );
}
