import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import { instant } from './format';
import type {
  CreatePersonalAccessTokenMutation,
  CreatePersonalAccessTokenMutationVariables,
  PersonalAccessTokensQuery,
  PersonalAccessTokensQueryVariables,
  RevokePersonalAccessTokenMutation,
  RevokePersonalAccessTokenMutationVariables,
  RevokeSessionMutation,
  RevokeSessionMutationVariables,
  SessionsQuery,
  SessionsQueryVariables,
  TokenScope,
} from './graphql.generated';
import { t } from './i18n';
import { changeThen, Columns, Field, Notice, Select, TableWrap, useAction } from './ui';

type Session = SessionsQuery['sessions'][number];
type Token = PersonalAccessTokensQuery['personalAccessTokens'][number];

const SESSIONS = /* GraphQL */ `
  query Sessions {
    sessions {
      id
      device
      userAgent
      createdAt
      lastUsedAt
      current
    }
  }
`;
const REVOKE_SESSION = /* GraphQL */ `
  mutation RevokeSession($id: ID!) {
    revokeSession(input: { id: $id }) {
      session {
        id
      }
    }
  }
`;
const TOKENS = /* GraphQL */ `
  query PersonalAccessTokens {
    personalAccessTokens {
      id
      name
      scope
      createdAt
      lastUsedAt
      expiresAt
    }
  }
`;
const CREATE_TOKEN = /* GraphQL */ `
  mutation CreatePersonalAccessToken($input: CreatePersonalAccessTokenInput!) {
    createPersonalAccessToken(input: $input) {
      token
    }
  }
`;
const REVOKE_TOKEN = /* GraphQL */ `
  mutation RevokePersonalAccessToken($id: ID!) {
    revokePersonalAccessToken(input: { id: $id }) {
      personalAccessToken {
        id
      }
    }
  }
`;

const scopes = (): Record<TokenScope, string> => ({
  READ_ONLY: t('sessions:scopes.READ_ONLY'),
  READ_WRITE: t('sessions:scopes.READ_WRITE'),
});
const deviceOf = (session: Session) => session.device ?? t('sessions:unknownDevice');
const when = (iso: string | null | undefined, otherwise: string) => (iso ? instant(iso) : otherwise);

/** Where the account is signed in (the browser's User-Agent at sign-in); each but this one can be signed out. */
export function Sessions() {
  const [sessions, setSessions] = useState<Session[]>([]);
  const action = useAction();
  const load = async () => setSessions((await gql<SessionsQuery, SessionsQueryVariables>(SESSIONS)).sessions);
  const apply = changeThen(load);
  useEffect(() => {
    void action.run(load);
  }, []);
  return (
    <div class="card">
      <h2>{t('sessions:sessions')}</h2>
      <TableWrap label={t('sessions:sessions')}>
        <table aria-label={t('sessions:sessions')}>
          <Columns
            names={[t('sessions:device'), t('sessions:signedIn'), t('sessions:lastUsed'), t('common:actions')]}
          />
          <tbody>
            {sessions.map((session) => (
              <tr key={session.id}>
                <th scope="row" class="device" title={session.userAgent ?? undefined}>
                  {deviceOf(session)}
                </th>
                <td>{instant(session.createdAt)}</td>
                <td>{when(session.lastUsedAt, t('sessions:notYet'))}</td>
                <td>
                  {session.current ? (
                    <span class="badge">{t('sessions:thisDevice')}</span>
                  ) : (
                    <button
                      type="button"
                      class="danger"
                      aria-label={t('sessions:signOutLabel', { device: deviceOf(session) })}
                      onClick={() => {
                        if (!confirm(t('sessions:confirmSignOut', { device: deviceOf(session) }))) return;
                        void action.run(
                          apply<RevokeSessionMutation, RevokeSessionMutationVariables>(
                            REVOKE_SESSION,
                            { id: session.id },
                            t('sessions:signedOut'),
                          ),
                        );
                      }}
                    >
                      {t('sessions:signOut')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <Notice outcome={action.outcome} />
    </div>
  );
}

/** Named tokens for scripts and clients: made here (shown once), listed, revoked. */
export function PersonalAccessTokens() {
  const [tokens, setTokens] = useState<Token[]>([]);
  const [made, setMade] = useState<string | null>(null);
  const action = useAction();
  const load = async () =>
    setTokens((await gql<PersonalAccessTokensQuery, PersonalAccessTokensQueryVariables>(TOKENS)).personalAccessTokens);
  const apply = changeThen(load);
  useEffect(() => {
    void action.run(load);
  }, []);

  async function create(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const values = new FormData(form);
    const days = String(values.get('expiresInDays'));
    const input = {
      name: String(values.get('name')),
      scope: String(values.get('scope')) as TokenScope,
      expiresInDays: days === '' ? undefined : Number(days),
    };
    await action.run(async () => {
      const answer = await gql<CreatePersonalAccessTokenMutation, CreatePersonalAccessTokenMutationVariables>(
        CREATE_TOKEN,
        { input },
      );
      setMade(answer.createPersonalAccessToken.token ?? null);
      form.reset();
      await load();
      return t('sessions:tokenMade', { name: input.name });
    });
  }

  return (
    <div class="card">
      <h2>{t('sessions:tokens')}</h2>
      <form onSubmit={create} aria-label={t('sessions:makeTokenTitle')}>
        <div class="grid">
          <Field
            label={t('sessions:name')}
            name="name"
            required
            maxLength={100}
            errors={action.errors}
            hint={t('sessions:nameHint')}
          />
          <Select
            label={t('sessions:access')}
            name="scope"
            options={scopes()}
            initial="READ_ONLY"
            errors={action.errors}
          />
          <Field
            label={t('sessions:expiresInDays')}
            name="expiresInDays"
            type="number"
            min={1}
            max={3650}
            errors={action.errors}
            hint={t('sessions:expiresHint')}
          />
        </div>
        <button type="submit" disabled={action.busy}>
          {t('sessions:makeToken')}
        </button>
      </form>
      <Notice outcome={action.outcome} />
      {made && (
        <p class="secret" role="status">
          {t('sessions:copyNow')} <code aria-label={t('sessions:newToken')}>{made}</code>
        </p>
      )}
      <TableWrap label={t('sessions:tokens')}>
        <table aria-label={t('sessions:tokens')}>
          <Columns
            names={[
              t('sessions:name'),
              t('sessions:access'),
              t('sessions:made'),
              t('sessions:lastUsed'),
              t('sessions:expires'),
              t('common:actions'),
            ]}
          />
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id}>
                <th scope="row">{token.name}</th>
                <td>{scopes()[token.scope]}</td>
                <td>{instant(token.createdAt)}</td>
                <td>{when(token.lastUsedAt, t('sessions:never'))}</td>
                <td>{when(token.expiresAt, t('sessions:never'))}</td>
                <td>
                  <button
                    type="button"
                    class="danger"
                    aria-label={t('sessions:revokeLabel', { name: token.name })}
                    onClick={() => {
                      if (!confirm(t('sessions:confirmRevoke', { name: token.name }))) return;
                      setMade(null);
                      void action.run(
                        apply<RevokePersonalAccessTokenMutation, RevokePersonalAccessTokenMutationVariables>(
                          REVOKE_TOKEN,
                          { id: token.id },
                          t('sessions:revoked', { name: token.name }),
                        ),
                      );
                    }}
                  >
                    {t('sessions:revoke')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </div>
  );
}
