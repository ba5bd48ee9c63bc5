import { useEffect, useState } from 'preact/hooks';

import { gql, gqlUpload, session } from './api';
import type {
  CreateCalendarFeedMutation,
  CreateCalendarFeedMutationVariables,
  CreateInboundWebhookTokenMutation,
  CreateInboundWebhookTokenMutationVariables,
  ImportFormat,
  ImportOutcome,
  ImportSubscriptionsMutation,
  ImportSubscriptionsMutationVariables,
  InboundTokenKind,
  IntegrationsQuery,
  IntegrationsQueryVariables,
  RevokeCalendarFeedMutation,
  RevokeCalendarFeedMutationVariables,
  RevokeInboundWebhookTokenMutation,
  RevokeInboundWebhookTokenMutationVariables,
} from './graphql.generated';
import { changeThen, Columns, Field, Notice, Section, Select, useAction } from './ui';

type ImportReport = NonNullable<ImportSubscriptionsMutation['importSubscriptions']['report']>;

const LISTS = /* GraphQL */ `
  query Integrations {
    calendarFeeds {
      id
      name
      includeReminders
      revokedAt
    }
    inboundWebhookTokens {
      id
      legacyId
      kind
      createdAt
      revokedAt
    }
    exportLinks {
      subscriptionsCsv
      accountJson
    }
  }
`;
const IMPORT = /* GraphQL */ `
  mutation ImportSubscriptions($input: ImportSubscriptionsInput!) {
    importSubscriptions(input: $input) {
      report {
        dryRun
        total
        created
        refused
        rows {
          line
          name
          outcome
          problems {
            field
            messages
          }
        }
      }
    }
  }
`;
const CREATE_FEED = /* GraphQL */ `
  mutation CreateCalendarFeed($input: CreateCalendarFeedInput!) {
    createCalendarFeed(input: $input) {
      url
    }
  }
`;
const REVOKE_FEED = /* GraphQL */ `
  mutation RevokeCalendarFeed($input: RevokeCalendarFeedInput!) {
    revokeCalendarFeed(input: $input) {
      calendarFeed {
        id
      }
    }
  }
`;
const CREATE_TOKEN = /* GraphQL */ `
  mutation CreateInboundWebhookToken($kind: InboundTokenKind!) {
    createInboundWebhookToken(input: { kind: $kind }) {
      token
    }
  }
`;
const REVOKE_TOKEN = /* GraphQL */ `
  mutation RevokeInboundWebhookToken($id: ID!) {
    revokeInboundWebhookToken(input: { id: $id }) {
      inboundWebhookToken {
        id
      }
    }
  }
`;
const FORMATS: Record<ImportFormat, string> = {
  CSV: 'CSV with a header row',
  WALLOS: 'Wallos export (JSON or CSV)',
  SUBLEDGER: 'Subledger account export',
};

const OUTCOMES: Record<ImportOutcome, string> = {
  CREATED: 'Created',
  WOULD_CREATE: 'Would be created',
  REFUSED: 'Refused',
};
const TOKEN_KINDS: Record<InboundTokenKind, string> = { CREATE: 'create', MANAGE: 'manage' };

/** Calendar feeds, inbound webhook tokens, export and import: each secret URL or token is shown once. */
export function Integrations() {
  const [lists, setLists] = useState<IntegrationsQuery | null>(null);
  const [shownOnce, setShownOnce] = useState<string | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const action = useAction();
  const load = async () => setLists(await gql<IntegrationsQuery, IntegrationsQueryVariables>(LISTS));
  const apply = changeThen(load);
  useEffect(() => {
    void action.run(load);
  }, []);

  const once = (label: string, secret: string) => setShownOnce(`${label} (shown once): ${secret}`);

  async function addFeed(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    await action.run(async () => {
      const input = { name: String(form.get('feed_name')), includeReminders: form.get('include_reminders') === 'on' };
      const made = await gql<CreateCalendarFeedMutation, CreateCalendarFeedMutationVariables>(CREATE_FEED, {
        input,
      });
      once('Feed URL', made.createCalendarFeed.url ?? '');
      await load();
      return 'Calendar feed added';
    });
  }

  /** Downloads carry the token in a header, so they are fetched and saved rather than linked. */
  async function download(url: string, file: string) {
    await action.run(async () => {
      // The links name BASE_URL; the dashboard asks the server it was loaded from.
      const response = await fetch(new URL(url).pathname, { headers: { authorization: `Bearer ${session.token}` } });
      if (!response.ok) throw new Error(`The download failed (${response.status})`);
      const link = Object.assign(document.createElement('a'), {
        href: URL.createObjectURL(await response.blob()),
        download: file,
      });
      link.click();
      URL.revokeObjectURL(link.href);
      return `${file} downloaded`;
    });
  }

  async function upload(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const file = form.get('file') as File;
    await action.run(async () => {
      const input = { file, format: String(form.get('format')) as ImportFormat, dryRun: form.get('dry_run') === 'on' };
      const answer = await gqlUpload<ImportSubscriptionsMutation, ImportSubscriptionsMutationVariables>(
        IMPORT,
        { input },
        'input.file',
      );
      // A refusal comes as an error (gqlUpload throws on it), so the payload here carries the report.
      const made = answer.importSubscriptions.report!;
      setReport(made);
      return made.dryRun
        ? `Dry run: ${made.total - made.refused} of ${made.total} rows would be imported`
        : `${made.created} records imported`;
    });
  }

  return (
    <Section title="Integrations">
      <Notice outcome={action.outcome} />
      {shownOnce && (
        <p class="secret" role="status">
          <code>{shownOnce}</code>
        </p>
      )}
      <h2>Calendar feeds</h2>
      <form class="card" onSubmit={addFeed} aria-label="Add a calendar feed">
        <Field label="Feed name" name="feed_name" required errors={action.errors} />
        <label>
          <input type="checkbox" name="include_reminders" /> Include reminders as alarms
        </label>
        <button type="submit">Add feed</button>
      </form>
      <ul>
        {lists?.calendarFeeds.map((feed) => (
          <li key={feed.id}>
            {feed.name} {feed.revokedAt ? '(revoked)' : ''}
            {!feed.revokedAt && (
              <button
                type="button"
                class="danger"
                onClick={() => {
                  if (!confirm(`Revoke the feed “${feed.name}”? Calendars subscribed to it stop updating.`)) return;
                  void action.run(
                    apply<RevokeCalendarFeedMutation, RevokeCalendarFeedMutationVariables>(
                      REVOKE_FEED,
                      { input: { id: feed.id } },
                      'Feed revoked',
                    ),
                  );
                }}
              >
                Revoke {feed.name}
              </button>
            )}
          </li>
        ))}
      </ul>
      <h2>Inbound webhook tokens</h2>
      <p>A create token only creates records; a manage token updates, deletes, refunds and cancels them.</p>
      {(Object.keys(TOKEN_KINDS) as InboundTokenKind[]).map((kind) => (
        <button
          key={kind}
          type="button"
          onClick={() =>
            void action.run(async () => {
              const made = await gql<CreateInboundWebhookTokenMutation, CreateInboundWebhookTokenMutationVariables>(
                CREATE_TOKEN,
                { kind },
              );
              once('Webhook URL', `${location.origin}/webhook/user/data/${made.createInboundWebhookToken.token ?? ''}`);
              await load();
              return `${TOKEN_KINDS[kind]} token made`;
            })
          }
        >
          New {TOKEN_KINDS[kind]} token
        </button>
      ))}
      <ul>
        {lists?.inboundWebhookTokens.map((token) => (
          <li key={token.id}>
            {TOKEN_KINDS[token.kind]} token #{token.legacyId} {token.revokedAt ? '(revoked)' : ''}
            {!token.revokedAt && (
              <button
                type="button"
                class="danger"
                onClick={() => {
                  if (
                    !confirm(
                      `Revoke ${TOKEN_KINDS[token.kind]} token #${token.legacyId}? Whatever posts to its URL is refused from now on.`,
                    )
                  )
                    return;
                  void action.run(
                    apply<RevokeInboundWebhookTokenMutation, RevokeInboundWebhookTokenMutationVariables>(
                      REVOKE_TOKEN,
                      { id: token.id },
                      'Token revoked',
                    ),
                  );
                }}
              >
                Revoke token #{token.legacyId}
              </button>
            )}
          </li>
        ))}
      </ul>
      <h2>Export</h2>
      {lists && (
        <p>
          <button type="button" onClick={() => void download(lists.exportLinks.subscriptionsCsv, 'subscriptions.csv')}>
            Download CSV
          </button>{' '}
          <button type="button" onClick={() => void download(lists.exportLinks.accountJson, 'account.json')}>
            Download account (JSON)
          </button>
        </p>
      )}
      <h2>Import</h2>
      <form class="card" onSubmit={upload} aria-label="Import records">
        <div class="field">
          <label for="import-file">File (at most 10 MB)</label>
          <input id="import-file" name="file" type="file" accept=".csv,.json,text/csv,application/json" required />
        </div>
        <Select label="Format" name="format" options={FORMATS} />
        <label>
          <input type="checkbox" name="dry_run" defaultChecked /> Dry run (show what would happen, change nothing)
        </label>
        <button type="submit" disabled={action.busy}>
          Import
        </button>
      </form>
      {report && (
        <table aria-label="Import report">
          <Columns names={['Line', 'Name', 'Outcome', 'Problems']} />
          <tbody>
            {report.rows.map((row) => (
              <tr key={row.line}>
                <td>{row.line}</td>
                <td>{row.name}</td>
                <td>{OUTCOMES[row.outcome]}</td>
                <td>{row.problems.map((problem) => `${problem.field}: ${problem.messages.join(' ')}`).join('; ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
