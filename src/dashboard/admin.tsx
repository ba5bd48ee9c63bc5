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
import { t } from './i18n';
import { Invitations, SignUpModeSetting } from './invitations';
import { changeThen, Columns, Field, Notice, Pager, Section, TableWrap, useAction, usePagedList } from './ui';

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
    <Section title={t('common:screens.admin')}>
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
        t('admin:deleted', { email: account.email }),
      ),
    );
    if (done) setDeleting(null);
  }

  return (
    <div class="card">
      <h2>{page ? t('admin:accountsCounted', { total: page.totalCount }) : t('admin:accounts')}</h2>
      <TableWrap label={t('admin:accounts')}>
        <table aria-label={t('admin:accounts')}>
          <Columns
            names={[
              t('admin:email'),
              t('admin:name'),
              t('admin:made'),
              t('admin:lastSeen'),
              t('admin:records'),
              t('admin:twoFactor'),
              t('admin:state'),
              t('common:actions'),
            ]}
          />
          <tbody>
            {page?.nodes.map((account) => (
              <tr key={account.id}>
                <th scope="row">
                  {account.email} {account.admin && <span class="badge">{t('admin:admin')}</span>}
                </th>
                <td>{account.name}</td>
                <td>{instant(account.createdAt)}</td>
                <td>{account.lastSeenAt ? instant(account.lastSeenAt) : t('admin:never')}</td>
                <td>{account.recordCount}</td>
                <td>{account.twoFactorEnabled ? t('admin:on') : t('admin:off')}</td>
                <td>{account.disabled ? t('admin:disabled') : t('admin:active')}</td>
                <td class="actions">
                  {account.disabled ? (
                    <button
                      type="button"
                      aria-label={t('admin:enableLabel', { email: account.email })}
                      onClick={() =>
                        void action.run(
                          apply<EnableAccountMutation, EnableAccountMutationVariables>(
                            ENABLE_ACCOUNT,
                            { id: account.id },
                            t('admin:enabled', { email: account.email }),
                          ),
                        )
                      }
                    >
                      {t('admin:enable')}
                    </button>
                  ) : (
                    <button
                      type="button"
                      aria-label={t('admin:disableLabel', { email: account.email })}
                      onClick={() => {
                        if (!confirm(t('admin:confirmDisable', { email: account.email }))) return;
                        void action.run(
                          apply<DisableAccountMutation, DisableAccountMutationVariables>(
                            DISABLE_ACCOUNT,
                            { id: account.id },
                            t('admin:disabledDone', { email: account.email }),
                          ),
                        );
                      }}
                    >
                      {t('admin:disable')}
                    </button>
                  )}
                  <button
                    type="button"
                    class="danger"
                    aria-label={t('admin:deleteLabel', { email: account.email })}
                    onClick={() => setDeleting(account)}
                  >
                    {t('common:delete')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {page && <Pager pages={pages} pageInfo={page.pageInfo} />}
      {deleting && (
        <form class="confirm" aria-label={t('admin:deleteTitle')} onSubmit={(event) => void remove(event, deleting)}>
          <p>
            {t('admin:deleting')} <strong>{deleting.email}</strong> {t('admin:deletingWhat')}
          </p>
          <Field
            label={t('admin:confirmEmail')}
            name="confirmEmail"
            type="email"
            required
            autoComplete="off"
            errors={action.errors}
          />
          <button type="submit" class="danger" disabled={action.busy}>
            {t('admin:deleteButton')}
          </button>
          <button type="button" onClick={() => setDeleting(null)}>
            {t('common:cancel')}
          </button>
        </form>
      )}
      <Notice outcome={action.outcome} />
    </div>
  );
}
