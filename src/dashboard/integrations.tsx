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
import { t } from './i18n';
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
// The ImportFormat, ImportOutcome and InboundTokenKind enums' values, as the screen says them in the language
// spoken.
const formats = (): Record<ImportFormat, string> => ({
  CSV: t('integrations:formats.CSV'),
  WALLOS: t('integrations:formats.WALLOS'),
  SUBLEDGER: t('integrations:formats.SUBLEDGER'),
});
const outcomes = (): Record<ImportOutcome, string> => ({
  CREATED: t('integrations:outcomes.CREATED'),
  WOULD_CREATE: t('integrations:outcomes.WOULD_CREATE'),
  REFUSED: t('integrations:outcomes.REFUSED'),
});
const TOKEN_KINDS: InboundTokenKind[] = ['CREATE', 'MANAGE'];
const tokenKinds = (): Record<InboundTokenKind, string> => ({
  CREATE: t('integrations:tokenKinds.CREATE'),
  MANAGE: t('integrations:tokenKinds.MANAGE'),
});

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

  const once = (label: string, secret: string) => setShownOnce(t('integrations:shownOnce', { label, secret }));

  async function addFeed(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    await action.run(async () => {
      const input = { name: String(form.get('feed_name')), includeReminders: form.get('include_reminders') === 'on' };
      const made = await gql<CreateCalendarFeedMutation, CreateCalendarFeedMutationVariables>(CREATE_FEED, {
        input,
      });
      once(t('integrations:feedUrl'), made.createCalendarFeed.url ?? '');
      await load();
      return t('integrations:feedAdded');
    });
  }

  /** Downloads carry the token in a header, so they are fetched and saved rather than linked. */
  async function download(url: string, file: string) {
    await action.run(async () => {
      // The links name BASE_URL; the dashboard asks the server it was loaded from.
      const response = await fetch(new URL(url).pathname, { headers: { authorization: `Bearer ${session.token}` } });
      if (!response.ok) throw new Error(t('integrations:downloadFailed', { status: response.status }));
      const link = Object.assign(document.createElement('a'), {
        href: URL.createObjectURL(await response.blob()),
        download: file,
      });
      link.click();
      URL.revokeObjectURL(link.href);
      return t('integrations:downloaded', { file });
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
        ? t('integrations:dryRunDone', { valid: made.total - made.refused, count: made.total })
        : t('integrations:imported', { count: made.created });
    });
  }

  return (
    <Section title={t('common:screens.integrations')}>
      <Notice outcome={action.outcome} />
      {shownOnce && (
        <p class="secret" role="status">
          <code>{shownOnce}</code>
        </p>
      )}
      <h2>{t('integrations:feeds')}</h2>
      <form class="card" onSubmit={addFeed} aria-label={t('integrations:addFeedTitle')}>
        <Field label={t('integrations:feedName')} name="feed_name" required errors={action.errors} />
        <label>
          <input type="checkbox" name="include_reminders" /> {t('integrations:includeReminders')}
        </label>
        <button type="submit">{t('integrations:addFeed')}</button>
      </form>
      <ul>
        {lists?.calendarFeeds.map((feed) => (
          <li key={feed.id}>
            {feed.name} {feed.revokedAt ? t('integrations:revoked') : ''}
            {!feed.revokedAt && (
              <button
                type="button"
                class="danger"
                onClick={() => {
                  if (!confirm(t('integrations:confirmRevokeFeed', { name: feed.name }))) return;
                  void action.run(
                    apply<RevokeCalendarFeedMutation, RevokeCalendarFeedMutationVariables>(
                      REVOKE_FEED,
                      { input: { id: feed.id } },
                      t('integrations:feedRevoked'),
                    ),
                  );
                }}
              >
                {t('integrations:revokeFeed', { name: feed.name })}
              </button>
            )}
          </li>
        ))}
      </ul>
      <h2>{t('integrations:tokens')}</h2>
      <p>{t('integrations:tokensIntro')}</p>
      {TOKEN_KINDS.map((kind) => (
        <button
          key={kind}
          type="button"
          onClick={() =>
            void action.run(async () => {
              const made = await gql<CreateInboundWebhookTokenMutation, CreateInboundWebhookTokenMutationVariables>(
                CREATE_TOKEN,
                { kind },
              );
              once(
                t('integrations:webhookUrl'),
                `${location.origin}/webhook/user/data/${made.createInboundWebhookToken.token ?? ''}`,
              );
              await load();
              return t('integrations:tokenMade', { token: tokenKinds()[kind] });
            })
          }
        >
          {t('integrations:newToken', { token: tokenKinds()[kind] })}
        </button>
      ))}
      <ul>
        {lists?.inboundWebhookTokens.map((token) => (
          <li key={token.id}>
            {t('integrations:tokenName', { token: tokenKinds()[token.kind], id: token.legacyId })}{' '}
            {token.revokedAt ? t('integrations:revoked') : ''}
            {!token.revokedAt && (
              <button
                type="button"
                class="danger"
                onClick={() => {
                  const name = t('integrations:tokenName', { token: tokenKinds()[token.kind], id: token.legacyId });
                  if (!confirm(t('integrations:confirmRevokeToken', { name }))) return;
                  void action.run(
                    apply<RevokeInboundWebhookTokenMutation, RevokeInboundWebhookTokenMutationVariables>(
                      REVOKE_TOKEN,
                      { id: token.id },
                      t('integrations:tokenRevoked'),
                    ),
                  );
                }}
              >
                {t('integrations:revokeToken', { id: token.legacyId })}
              </button>
            )}
          </li>
        ))}
      </ul>
      <h2>{t('integrations:export')}</h2>
      {lists && (
        <p>
          <button type="button" onClick={() => void download(lists.exportLinks.subscriptionsCsv, 'subscriptions.csv')}>
            {t('integrations:downloadCsv')}
          </button>{' '}
          <button type="button" onClick={() => void download(lists.exportLinks.accountJson, 'account.json')}>
            {t('integrations:downloadAccount')}
          </button>
        </p>
      )}
      <h2>{t('integrations:import')}</h2>
      <form class="card" onSubmit={upload} aria-label={t('integrations:importTitle')}>
        <div class="field">
          <label for="import-file">{t('integrations:file')}</label>
          <input id="import-file" name="file" type="file" accept=".csv,.json,text/csv,application/json" required />
        </div>
        <Select label={t('integrations:format')} name="format" options={formats()} />
        <label>
          <input type="checkbox" name="dry_run" defaultChecked /> {t('integrations:dryRun')}
        </label>
        <button type="submit" disabled={action.busy}>
          {t('integrations:importButton')}
        </button>
      </form>
      {report && (
        <table aria-label={t('integrations:report')}>
          <Columns
            names={[
              t('integrations:line'),
              t('integrations:name'),
              t('integrations:outcome'),
              t('integrations:problems'),
            ]}
          />
          <tbody>
            {report.rows.map((row) => (
              <tr key={row.line}>
                <td>{row.line}</td>
                <td>{row.name}</td>
                <td>{outcomes()[row.outcome]}</td>
                <td>{row.problems.map((problem) => `${problem.field}: ${problem.messages.join(' ')}`).join('; ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
