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
import { changeThen, Columns, Field, Notice, Select, useAction } from './ui';

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

const SCOPES: Record<TokenScope, string> = { READ_ONLY: 'Read-only', READ_WRITE: 'Read and write' };
const deviceOf = (session: Session) => session.device ?? 'Unknown device';
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
      <h2>Sessions</h2>
      <div class="table-wrap">
        <table aria-label="Sessions">
          <Columns names={['Device', 'Signed in', 'Last used', 'Actions']} />
          <tbody>
            {sessions.map((session) => (
              <tr key={session.id}>
                <th scope="row" class="device" title={session.userAgent ?? undefined}>
                  {deviceOf(session)}
                </th>
                <td>{instant(session.createdAt)}</td>
                <td>{when(session.lastUsedAt, 'Not yet')}</td>
                <td>
                  {session.current ? (
                    <span class="badge">This device</span>
                  ) : (
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Sign out ${deviceOf(session)}`}
                      onClick={() => {
                        if (!confirm(`Sign out the session on “${deviceOf(session)}”?`)) return;
                        void action.run(
                          apply<RevokeSessionMutation, RevokeSessionMutationVariables>(
                            REVOKE_SESSION,
                            { id: session.id },
                            'Session signed out',
                          ),
                        );
                      }}
                    >
                      Sign out
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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
      return `Token made: ${input.name}`;
    });
  }

  return (
    <div class="card">
      <h2>Access tokens</h2>
      <form onSubmit={create} aria-label="Make an access token">
        <div class="grid">
          <Field label="Name" name="name" required maxLength={100} errors={action.errors} hint="What uses it" />
          <Select label="Access" name="scope" options={SCOPES} initial="READ_ONLY" errors={action.errors} />
          <Field
            label="Expires in (days)"
            name="expiresInDays"
            type="number"
            min={1}
            max={3650}
            errors={action.errors}
            hint="Empty: never"
          />
        </div>
        <button type="submit" disabled={action.busy}>
          Make token
        </button>
      </form>
      <Notice outcome={action.outcome} />
      {made && (
        <p class="secret" role="status">
          Copy it now, it is shown only this once: <code aria-label="New access token">{made}</code>
        </p>
      )}
      <div class="table-wrap">
        <table aria-label="Access tokens">
          <Columns names={['Name', 'Access', 'Made', 'Last used', 'Expires', 'Actions']} />
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id}>
                <th scope="row">{token.name}</th>
                <td>{SCOPES[token.scope]}</td>
                <td>{instant(token.createdAt)}</td>
                <td>{when(token.lastUsedAt, 'Never')}</td>
                <td>{when(token.expiresAt, 'Never')}</td>
                <td>
                  <button
                    type="button"
                    class="danger"
                    aria-label={`Revoke ${token.name}`}
                    onClick={() => {
                      if (!confirm(`Revoke the token “${token.name}”? Whatever uses it stops working.`)) return;
                      setMade(null);
                      void action.run(
                        apply<RevokePersonalAccessTokenMutation, RevokePersonalAccessTokenMutationVariables>(
                          REVOKE_TOKEN,
                          { id: token.id },
                          `Token revoked: ${token.name}`,
                        ),
                      );
                    }}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
