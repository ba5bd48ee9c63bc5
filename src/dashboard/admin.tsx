import { useState } from 'preact/hooks';

import { gql } from './api';
import { AuditLog } from './audit-log';
import { instant } from './format';
import type {
  AccountsQuery,
  AccountsQueryVariables,
  DeleteAccountMutation,
  DeleteAccountMutationVariables,
  DisableAccountMutation,
  DisableAccountMutationVariables,
  EnableAccountMutation,
  EnableAccountMutationVariables,
} from './graphql.generated';
import { Invitations, SignUpModeSetting } from './invitations';
import { changeThen, Columns, Field, Notice, Pager, Section, useAction, usePagedList } from './ui';

type Account = AccountsQuery['accounts']['nodes'][number];

const ACCOUNTS = /* GraphQL */ `
  query Accounts($after: String) {
    accounts(first: 50, after: $after) {
      nodes {
        id
        email
        name
        createdAt
        lastSeenAt
        recordCount
        twoFactorEnabled
        disabled
        admin
      }
      pageInfo {
        hasNextPage
        endCursor
      }
      totalCount
    }
  }
`;
const DISABLE_ACCOUNT = /* GraphQL */ `
  mutation DisableAccount($id: ID!) {
    disableAccount(input: { id: $id }) {
      account {
        id
      }
    }
  }
`;
const ENABLE_ACCOUNT = /* GraphQL */ `
  mutation EnableAccount($id: ID!) {
    enableAccount(input: { id: $id }) {
      account {
        id
      }
    }
  }
`;
const DELETE_ACCOUNT = /* GraphQL */ `
  mutation DeleteAccount($input: DeleteAccountInput!) {
    deleteAccount(input: $input) {
      deletedAccountId
    }
  }
`;

/** The instance, as its admins run it: who has an account, who may sign up, and what admins did. */
export function Admin() {
  // Each change reloads the audit log too: it is where the change shows as done.
  const [auditVersion, setAuditVersion] = useState(0);
  const audited = () => setAuditVersion((version) => version + 1);
  return (
    <Section title="Admin">
      <Accounts onChange={audited} />
      <SignUpModeSetting onChange={audited} />
      <Invitations onChange={audited} />
      <AuditLog version={auditVersion} />
    </Section>
  );
}

/** Every account: disable, enable, or delete with its data once its e-mail address is typed again. */
function Accounts({ onChange }: { onChange: () => void }) {
  const [deleting, setDeleting] = useState<Account | null>(null);
  const action = useAction();
  const { pages, page, load } = usePagedList(
    async (after) => (await gql<AccountsQuery, AccountsQueryVariables>(ACCOUNTS, { after })).accounts,
    action,
  );
  const apply = changeThen(async () => {
    await load();
    onChange();
  });

  async function remove(event: Event, account: Account) {
    event.preventDefault();
    const confirmEmail = String(new FormData(event.currentTarget as HTMLFormElement).get('confirmEmail'));
    const done = await action.run(
      apply<DeleteAccountMutation, DeleteAccountMutationVariables>(
        DELETE_ACCOUNT,
        { input: { id: account.id, confirmEmail } },
        `Account deleted: ${account.email}`,
      ),
    );
    if (done) setDeleting(null);
  }

  return (
    <div class="card">
      <h2>Accounts{page && ` (${page.totalCount})`}</h2>
      <div class="table-wrap">
        <table aria-label="Accounts">
          <Columns names={['E-mail', 'Name', 'Made', 'Last seen', 'Records', 'Two-factor', 'State', 'Actions']} />
          <tbody>
            {page?.nodes.map((account) => (
              <tr key={account.id}>
                <th scope="row">
                  {account.email} {account.admin && <span class="badge">Admin</span>}
                </th>
                <td>{account.name}</td>
                <td>{instant(account.createdAt)}</td>
                <td>{account.lastSeenAt ? instant(account.lastSeenAt) : 'Never'}</td>
                <td>{account.recordCount}</td>
                <td>{account.twoFactorEnabled ? 'On' : 'Off'}</td>
                <td>{account.disabled ? 'Disabled' : 'Active'}</td>
                <td class="actions">
                  {account.disabled ? (
                    <button
                      type="button"
                      aria-label={`Enable ${account.email}`}
                      onClick={() =>
                        void action.run(
                          apply<EnableAccountMutation, EnableAccountMutationVariables>(
                            ENABLE_ACCOUNT,
                            { id: account.id },
                            `Account enabled: ${account.email}`,
                          ),
                        )
                      }
                    >
                      Enable
                    </button>
                  ) : (
                    <button
                      type="button"
                      aria-label={`Disable ${account.email}`}
                      onClick={() => {
                        if (!confirm(`Disable ${account.email}? It is signed out everywhere and cannot sign in.`))
                          return;
                        void action.run(
                          apply<DisableAccountMutation, DisableAccountMutationVariables>(
                            DISABLE_ACCOUNT,
                            { id: account.id },
                            `Account disabled: ${account.email}`,
                          ),
                        );
                      }}
                    >
                      Disable
                    </button>
                  )}
                  <button
                    type="button"
                    class="danger"
                    aria-label={`Delete ${account.email}`}
                    onClick={() => setDeleting(account)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page && <Pager pages={pages} pageInfo={page.pageInfo} />}
      {deleting && (
        <form class="confirm" aria-label="Delete account" onSubmit={(event) => void remove(event, deleting)}>
          <p>
            Deleting <strong>{deleting.email}</strong> removes the account and all its records, at once and for good.
          </p>
          <Field
            label="Type its e-mail address to confirm"
            name="confirmEmail"
            type="email"
            required
            autoComplete="off"
            errors={action.errors}
          />
          <button type="submit" class="danger" disabled={action.busy}>
            Delete the account and its data
          </button>
          <button type="button" onClick={() => setDeleting(null)}>
            Cancel
          </button>
        </form>
      )}
      <Notice outcome={action.outcome} />
    </div>
  );
}
