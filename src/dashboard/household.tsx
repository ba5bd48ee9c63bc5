import { useEffect, useRef, useState } from 'preact/hooks';

import { allNodes, gql } from './api';
import { moneyOf } from './format';
import type {
  AddHouseholdMemberMutation,
  AddHouseholdMemberMutationVariables,
  CreateHouseholdMutation,
  CreateHouseholdMutationVariables,
  HouseholdMemberStatus,
  HouseholdRecordsQuery,
  HouseholdRecordsQueryVariables,
  HouseholdRole,
  HouseholdsQuery,
  HouseholdsQueryVariables,
  JoinHouseholdMutation,
  JoinHouseholdMutationVariables,
  LeaveHouseholdMutation,
  LeaveHouseholdMutationVariables,
  RemoveHouseholdMemberMutation,
  RemoveHouseholdMemberMutationVariables,
  SetHouseholdMemberCanEditMutation,
  SetHouseholdMemberCanEditMutationVariables,
  ShareableRecordsQuery,
  ShareableRecordsQueryVariables,
  ShareSubscriptionInput,
  ShareSubscriptionMutation,
  ShareSubscriptionMutationVariables,
  SplitMode,
  UnshareSubscriptionMutation,
  UnshareSubscriptionMutationVariables,
} from './graphql.generated';
import { t } from './i18n';
import { changeThen, Columns, Field, Notice, Section, Select, useAction } from './ui';

type Household = HouseholdsQuery['households'][number];
type Member = Household['members'][number];
/** A record with its split: the households' shared records and the caller's own have the same selection. */
type SharedRecord = ShareableRecordsQuery['subscriptions']['nodes'][number];
type Sharing = NonNullable<SharedRecord['sharing']>;

// The record selection is written out twice (households' and the caller's own) so each operation stays static;
// the records are read apart from the households, page after page (50 a page of a household's: the node(id:)
// around them puts 100 over the server's cost limit), as one operation would be over it.
const LOAD = /* GraphQL */ `
  query Households {
    households {
      id
      name
      ownerName
      viewerRole
      members {
        id
        name
        email
        role
        status
      }
    }
  }
`;
const OWN_RECORDS = /* GraphQL */ `
  query ShareableRecords($after: String) {
    subscriptions(first: 100, after: $after) {
      nodes {
        id
        productName
        price {
          amount
          currency
        }
        sharing {
          payerMemberId
          payerName
          mode
          shares {
            memberId
            memberName
            value
            amount {
              amount
              currency
            }
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;
const HOUSEHOLD_RECORDS = /* GraphQL */ `
  query HouseholdRecords($id: ID!, $after: String) {
    node(id: $id) {
      ... on Household {
        subscriptions(first: 50, after: $after) {
          nodes {
            id
            productName
            price {
              amount
              currency
            }
            sharing {
              payerMemberId
              payerName
              mode
              shares {
                memberId
                memberName
                value
                amount {
                  amount
                  currency
                }
              }
            }
          }
          pageInfo {
            hasNextPage
            endCursor
          }
        }
      }
    }
  }
`;
const CREATE = /* GraphQL */ `
  mutation CreateHousehold($name: String!) {
    createHousehold(input: { name: $name }) {
      household {
        id
      }
    }
  }
`;
const ADD_MEMBER = /* GraphQL */ `
  mutation AddHouseholdMember($input: AddHouseholdMemberInput!) {
    addHouseholdMember(input: $input) {
      householdMember {
        name
      }
      invitationCode
    }
  }
`;
const JOIN = /* GraphQL */ `
  mutation JoinHousehold($code: String!) {
    joinHousehold(input: { code: $code }) {
      household {
        id
      }
    }
  }
`;
const SHARE = /* GraphQL */ `
  mutation ShareSubscription($input: ShareSubscriptionInput!) {
    shareSubscription(input: $input) {
      subscription {
        id
      }
    }
  }
`;
const SET_CAN_EDIT = /* GraphQL */ `
  mutation SetHouseholdMemberCanEdit($id: ID!, $canEdit: Boolean) {
    updateHouseholdMember(input: { memberId: $id, canEdit: $canEdit }) {
      householdMember {
        id
      }
    }
  }
`;
const REMOVE_MEMBER = /* GraphQL */ `
  mutation RemoveHouseholdMember($id: ID!) {
    removeHouseholdMember(input: { memberId: $id }) {
      deletedHouseholdMemberId
    }
  }
`;
const UNSHARE = /* GraphQL */ `
  mutation UnshareSubscription($id: ID!) {
    unshareSubscription(input: { id: $id }) {
      subscription {
        id
      }
    }
  }
`;
const LEAVE = /* GraphQL */ `
  mutation LeaveHousehold($id: ID!) {
    leaveHousehold(input: { householdId: $id }) {
      leftHouseholdId
    }
  }
`;
const modes = (): Record<SplitMode, string> => ({
  EQUAL: t('household:mode.EQUAL'),
  AMOUNTS: t('household:mode.AMOUNTS'),
  PERCENTAGES: t('household:mode.PERCENTAGES'),
});

const standings = (): Record<HouseholdMemberStatus, string> => ({
  JOINED: t('household:standing.JOINED'),
  INVITED: t('household:standing.INVITED'),
  NAME_ONLY: t('household:standing.NAME_ONLY'),
});
const standing = (member: Member) =>
  member.role === 'OWNER' ? t('household:standing.OWNER') : standings()[member.status];
const mayEdit = (role: HouseholdRole) => role !== 'MEMBER';
const splitOf = (sharing: Sharing) =>
  t('household:split', {
    payer: sharing.payerName,
    shares: sharing.shares.map((share) => `${share.memberName} ${moneyOf(share.amount)}`).join(', '),
  });

/** Your household (members, invitations, records shared with a payer and a split) and the households you joined. */
export function HouseholdScreen() {
  const [households, setHouseholds] = useState<Household[]>([]);
  const [sharedRecords, setSharedRecords] = useState<Map<string, SharedRecord[]>>(new Map());
  const [records, setRecords] = useState<SharedRecord[]>([]);
  const [sharing, setSharing] = useState<SharedRecord | null>(null);
  const [mode, setMode] = useState<SplitMode>('EQUAL');
  const [code, setCode] = useState<string | null>(null);
  const action = useAction();

  // A load finishing after a later one (the screen's first, after a join made meanwhile) shows nothing of its own.
  const latest = useRef(0);
  const load = async () => {
    const ticket = ++latest.current;
    const [{ households: all }, own] = await Promise.all([
      gql<HouseholdsQuery, HouseholdsQueryVariables>(LOAD),
      allNodes(
        async (after) =>
          (await gql<ShareableRecordsQuery, ShareableRecordsQueryVariables>(OWN_RECORDS, { after })).subscriptions,
      ),
    ]);
    // The shared records of each household joined, all of them (the own household's are among `own`, with
    // their sharing).
    const joinedOnes = all.filter((household) => household.viewerRole !== 'OWNER');
    const shared = await Promise.all(
      joinedOnes.map((household) =>
        allNodes(async (after) => {
          const { node } = await gql<HouseholdRecordsQuery, HouseholdRecordsQueryVariables>(HOUSEHOLD_RECORDS, {
            id: household.id,
            after,
          });
          return node && 'subscriptions' in node ? node.subscriptions : { nodes: [], pageInfo: { hasNextPage: false } };
        }),
      ),
    );
    if (ticket !== latest.current) return;
    setHouseholds(all);
    setSharedRecords(new Map(joinedOnes.map((household, index) => [household.id, shared[index]!])));
    setRecords(own);
  };
  const apply = changeThen(load);
  useEffect(() => {
    void action.run(load);
  }, []);
  const own = households.find((household) => household.viewerRole === 'OWNER');
  const joined = households.filter((household) => household.viewerRole !== 'OWNER');

  const submit = (run: (form: FormData) => Promise<string>) => async (event: Event) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    if (await action.run(() => run(new FormData(element)))) element.reset();
  };
  const create = submit(async (form) => {
    await gql<CreateHouseholdMutation, CreateHouseholdMutationVariables>(CREATE, { name: String(form.get('name')) });
    await load();
    return t('household:made');
  });
  const addMember = submit(async (form) => {
    const input = {
      name: String(form.get('name')),
      email: String(form.get('email')) || null,
      canEdit: form.get('can_edit') === 'on',
    };
    const { addHouseholdMember: added } = await gql<AddHouseholdMemberMutation, AddHouseholdMemberMutationVariables>(
      ADD_MEMBER,
      { input },
    );
    const name = added.householdMember?.name ?? input.name;
    setCode(added.invitationCode && t('household:invitationCode', { name, code: added.invitationCode }));
    await load();
    return t('household:memberAdded', { name });
  });
  const join = submit(async (form) => {
    await gql<JoinHouseholdMutation, JoinHouseholdMutationVariables>(JOIN, { code: String(form.get('code')) });
    await load();
    return t('household:joinedHousehold');
  });
  const share = submit(async (form) => {
    const shares = own!.members
      .filter((member) =>
        mode === 'EQUAL'
          ? form.get(`share_${member.id}`) === 'on'
          : String(form.get(`share_${member.id}`) ?? '') !== '',
      )
      .map((member) => ({
        memberId: member.id,
        value: mode === 'EQUAL' ? null : String(form.get(`share_${member.id}`)),
      }));
    const input: ShareSubscriptionInput = { id: sharing!.id, payerMemberId: String(form.get('payer')), mode, shares };
    await gql<ShareSubscriptionMutation, ShareSubscriptionMutationVariables>(SHARE, { input });
    setSharing(null);
    await load();
    return t('household:shared', { name: sharing!.productName });
  });

  return (
    <Section title={t('common:screens.household')}>
      <Notice outcome={action.outcome} />
      {code && (
        <p class="secret" role="status">
          <code>{code}</code>
        </p>
      )}
      {!own && (
        <form class="card" onSubmit={create} aria-label={t('household:makeHousehold')}>
          <Field label={t('household:householdName')} name="name" required errors={action.errors} />
          <button type="submit">{t('household:makeHouseholdButton')}</button>
        </form>
      )}
      {own && (
        <>
          <h2>{own.name}</h2>
          <table aria-label={t('household:members')}>
            <Columns
              names={[
                t('household:column.member'),
                t('household:column.email'),
                t('household:column.standing'),
                t('household:column.mayEdit'),
                '',
              ]}
            />
            <tbody>
              {own.members.map((member) => (
                <tr key={member.id}>
                  <th scope="row">{member.name}</th>
                  <td>{member.email ?? '—'}</td>
                  <td>{standing(member)}</td>
                  <td>{mayEdit(member.role) ? t('household:yes') : t('household:no')}</td>
                  <td class="actions">
                    {member.role !== 'OWNER' && (
                      <>
                        <button
                          type="button"
                          onClick={() =>
                            void action.run(
                              apply<SetHouseholdMemberCanEditMutation, SetHouseholdMemberCanEditMutationVariables>(
                                SET_CAN_EDIT,
                                { id: member.id, canEdit: !mayEdit(member.role) },
                                t(mayEdit(member.role) ? 'household:nowReadOnly' : 'household:nowMayEdit', {
                                  name: member.name,
                                }),
                              ),
                            )
                          }
                        >
                          {t(mayEdit(member.role) ? 'household:makeReadOnly' : 'household:letEdit', {
                            name: member.name,
                          })}
                        </button>
                        <button
                          type="button"
                          class="danger"
                          aria-label={t('household:removeNamed', { name: member.name })}
                          onClick={() => {
                            if (!confirm(t('household:confirmRemove', { name: member.name }))) return;
                            void action.run(
                              apply<RemoveHouseholdMemberMutation, RemoveHouseholdMemberMutationVariables>(
                                REMOVE_MEMBER,
                                { id: member.id },
                                t('household:removed', { name: member.name }),
                              ),
                            );
                          }}
                        >
                          {t('household:remove')}
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <form class="card" onSubmit={addMember} aria-label={t('household:addAMember')}>
            <div class="grid">
              <Field label={t('household:memberName')} name="name" required errors={action.errors} />
              <Field
                label={t('household:emailToInvite')}
                name="email"
                type="email"
                errors={action.errors}
                hint={t('household:emailHint')}
              />
            </div>
            <label>
              <input type="checkbox" name="can_edit" /> {t('household:mayEditShared')}
            </label>
            <button type="submit">{t('household:addMember')}</button>
          </form>
          <h2>{t('household:sharing')}</h2>
          <table aria-label={t('household:sharing')}>
            <Columns
              names={[t('household:column.record'), t('household:column.price'), t('household:column.split'), '']}
            />
            <tbody>
              {records.map((record) => (
                <tr key={record.id}>
                  <th scope="row">{record.productName}</th>
                  <td>{moneyOf(record.price)}</td>
                  <td>{record.sharing ? splitOf(record.sharing) : t('household:notShared')}</td>
                  <td class="actions">
                    <button
                      type="button"
                      aria-label={t(record.sharing ? 'household:changeSplitOf' : 'household:shareNamed', {
                        name: record.productName,
                      })}
                      onClick={() => setSharing(record)}
                    >
                      {record.sharing ? t('household:changeSplit') : t('household:share')}
                    </button>
                    {record.sharing && (
                      <button
                        type="button"
                        class="link"
                        aria-label={t('household:stopSharingNamed', { name: record.productName })}
                        onClick={() =>
                          void action.run(
                            apply<UnshareSubscriptionMutation, UnshareSubscriptionMutationVariables>(
                              UNSHARE,
                              { id: record.id },
                              t('household:nowNotShared', { name: record.productName }),
                            ),
                          )
                        }
                      >
                        {t('household:stopSharing')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {sharing && (
            <form class="card" onSubmit={share} aria-label={t('household:shareNamed', { name: sharing.productName })}>
              <div class="grid">
                <Select
                  label={t('household:paidBy')}
                  name="payer"
                  options={Object.fromEntries(own.members.map((member) => [member.id, member.name]))}
                  initial={own.members[0].id}
                  errors={action.errors}
                />
                <Select
                  label={t('household:splitLabel')}
                  name="mode"
                  options={modes()}
                  value={mode}
                  onChange={(event) => setMode(event.currentTarget.value as SplitMode)}
                />
              </div>
              {own.members.map((member) =>
                mode === 'EQUAL' ? (
                  <label key={member.id}>
                    <input type="checkbox" name={`share_${member.id}`} defaultChecked />{' '}
                    {t('household:sharesIt', { name: member.name })}
                  </label>
                ) : (
                  <Field
                    key={member.id}
                    label={t(mode === 'AMOUNTS' ? 'household:amountOf' : 'household:percentageOf', {
                      name: member.name,
                    })}
                    name={`share_${member.id}`}
                    inputMode="decimal"
                  />
                ),
              )}
              {action.errors.shares && <p class="notice failed">{action.errors.shares.join(' ')}</p>}
              <button type="submit">{t('household:saveSplit')}</button>
            </form>
          )}
        </>
      )}
      <h2>{t('household:joinedTitle')}</h2>
      {joined.length === 0 && <p>{t('household:noneYet')}</p>}
      {joined.map((household) => (
        <div key={household.id} class="card">
          <p>
            <strong>{household.name}</strong>{' '}
            {t(mayEdit(household.viewerRole) ? 'household:ownersMayEdit' : 'household:ownersReadOnly', {
              owner: household.ownerName,
            })}{' '}
            <button
              type="button"
              class="danger"
              aria-label={t('household:leaveNamed', { name: household.name })}
              onClick={() => {
                if (!confirm(t('household:confirmLeave', { name: household.name }))) return;
                void action.run(
                  apply<LeaveHouseholdMutation, LeaveHouseholdMutationVariables>(
                    LEAVE,
                    { id: household.id },
                    t('household:left', { name: household.name }),
                  ),
                );
              }}
            >
              {t('household:leave')}
            </button>
          </p>
          <ul>
            {(sharedRecords.get(household.id) ?? []).map((record) => (
              <li key={record.id}>
                {record.productName} {moneyOf(record.price)}: {record.sharing ? splitOf(record.sharing) : ''}
              </li>
            ))}
          </ul>
        </div>
      ))}
      <form class="card" onSubmit={join} aria-label={t('household:joinAHousehold')}>
        <Field label={t('household:invitationCodeLabel')} name="code" required errors={action.errors} />
        <button type="submit">{t('household:join')}</button>
      </form>
    </Section>
  );
}
