import { gql } from './api';
import { instant } from './format';
import type { AuditAction, AuditLogQuery, AuditLogQueryVariables } from './graphql.generated';
import { Columns, Notice, Pager, useAction, usePagedList } from './ui';

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

const ACTIONS: Record<AuditAction, string> = {
  ACCOUNT_DISABLED: 'Disabled an account',
  ACCOUNT_ENABLED: 'Enabled an account',
  ACCOUNT_DELETED: 'Deleted an account',
  ADMIN_GRANTED: 'Made an admin',
  INVITATION_CREATED: 'Invited',
  INVITATION_REVOKED: 'Revoked an invitation',
  SIGN_UP_MODE_SET: 'Set sign-up',
};

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
      <h2>Audit log</h2>
      <div class="table-wrap">
        <table aria-label="Audit log">
          <Columns names={['When', 'By', 'Action', 'To', 'Details']} />
          <tbody>
            {page?.nodes.map((entry) => (
              <tr key={entry.id}>
                <td>{instant(entry.at)}</td>
                <td>{entry.actorEmail ?? 'Command line'}</td>
                <th scope="row">{ACTIONS[entry.action]}</th>
                <td>{entry.targetEmail ?? ''}</td>
                <td>{factsOf(entry.details)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page && <Pager pages={pages} pageInfo={page.pageInfo} />}
      <Notice outcome={action.outcome} />
    </div>
  );
}
