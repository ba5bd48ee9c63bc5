import { gql } from './api';
import { instant } from './format';
import type { AuditAction, AuditLogQuery, AuditLogQueryVariables } from './graphql.generated';
import { t } from './i18n';
import { Columns, Notice, Pager, TableWrap, useAction, usePagedList } from './ui';

const AUDIT_LOG = /* GraphQL */ `
  query AuditLog($after: String) {
    auditLog(first: 50, after: $after) {
      nodes {
        id
        at
        action
        actorEmail
        targetEmail
        details
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

/** The AuditAction enum's values, as the log says them in the language spoken. */
const actions = (): Record<AuditAction, string> => ({
  ACCOUNT_DISABLED: t('audit-log:actions.ACCOUNT_DISABLED'),
  ACCOUNT_ENABLED: t('audit-log:actions.ACCOUNT_ENABLED'),
  ACCOUNT_DELETED: t('audit-log:actions.ACCOUNT_DELETED'),
  ADMIN_GRANTED: t('audit-log:actions.ADMIN_GRANTED'),
  INVITATION_CREATED: t('audit-log:actions.INVITATION_CREATED'),
  INVITATION_REVOKED: t('audit-log:actions.INVITATION_REVOKED'),
  SIGN_UP_MODE_SET: t('audit-log:actions.SIGN_UP_MODE_SET'),
});

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** An entry's further facts as its JSON object holds them; a change of setting reads "OPEN → CLOSED". */
function factsOf(details: string): string {
  const { from, to, ...rest } = JSON.parse(details) as Record<string, unknown>;
  const change = from === undefined && to === undefined ? [] : [`${text(from)} → ${text(to)}`];
  return [...change, ...Object.entries(rest).map(([key, value]) => `${key}: ${text(value)}`)].join(', ');
}

/** What admins did, newest first; read again whenever `version` moves (an admin change on this screen). */
export function AuditLog({ version }: { version: number }) {
  const action = useAction();
  const { pages, page } = usePagedList(
    async (after) => (await gql<AuditLogQuery, AuditLogQueryVariables>(AUDIT_LOG, { after })).auditLog,
    action,
    [version],
  );
  return (
    <div class="card">
      <h2>{t('audit-log:title')}</h2>
      <TableWrap label={t('audit-log:title')}>
        <table aria-label={t('audit-log:title')}>
          <Columns
            names={[
              t('audit-log:when'),
              t('audit-log:by'),
              t('audit-log:action'),
              t('audit-log:to'),
              t('audit-log:details'),
            ]}
          />
          <tbody>
            {page?.nodes.map((entry) => (
              <tr key={entry.id}>
                <td>{instant(entry.at)}</td>
                <td>{entry.actorEmail ?? t('audit-log:commandLine')}</td>
                <th scope="row">{actions()[entry.action]}</th>
                <td>{entry.targetEmail ?? ''}</td>
                <td>{factsOf(entry.details)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {page && <Pager pages={pages} pageInfo={page.pageInfo} />}
      <Notice outcome={action.outcome} />
    </div>
  );
}
