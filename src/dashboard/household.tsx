import { useEffect, useState } from 'preact/hooks';

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
const MODES: Record<SplitMode, string> = { EQUAL: 'Equal shares', AMOUNTS: 'Amounts', PERCENTAGES: 'Percentages' };

const STANDINGS: Record<HouseholdMemberStatus, string> = {
  JOINED: 'Joined',
  INVITED: 'Invited',
  NAME_ONLY: 'Name only',
};
const standing = (member: Member) => (member.role === 'OWNER' ? 'Owner' : STANDINGS[member.status]);
const mayEdit = (role: HouseholdRole) => role !== 'MEMBER';
const splitOf = (sharing: Sharing) =>
  `${sharing.payerName} pays; ${sharing.shares.map((share) => `${share.memberName} ${moneyOf(share.amount)}`).join(', ')}`;

/** Your household (members, invitations, records shared with a payer and a split) and the households you joined. */
export function HouseholdScreen() {
  const [households, setHouseholds] = useState<Household[]>([]);
  const [sharedRecords, setSharedRecords] = useState<Map<string, SharedRecord[]>>(new Map());
  const [records, setRecords] = useState<SharedRecord[]>([]);
  const [sharing, setSharing] = useState<SharedRecord | null>(null);
  const [mode, setMode] = useState<SplitMode>('EQUAL');
  const [code, setCode] = useState<string | null>(null);
  const action = useAction();

  const load = async () => {
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
    return 'Household made';
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
    setCode(added.invitationCode && `Invitation code for ${name} (shown once): ${added.invitationCode}`);
    await load();
    return `${name} added`;
  });
  const join = submit(async (form) => {
    await gql<JoinHouseholdMutation, JoinHouseholdMutationVariables>(JOIN, { code: String(form.get('code')) });
    await load();
    return 'Joined the household';
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
    return `${sharing!.productName}: shared`;
  });

  return (
    <Section title="Household">
      <Notice outcome={action.outcome} />
      {code && (
        <p class="secret" role="status">
          <code>{code}</code>
        </p>
      )}
      {!own && (
        <form class="card" onSubmit={create} aria-label="Make a household">
          <Field label="Household name" name="name" required errors={action.errors} />
          <button type="submit">Make household</button>
        </form>
      )}
      {own && (
        <>
          <h2>{own.name}</h2>
          <table aria-label="Members">
            <Columns names={['Member', 'E-mail', 'Standing', 'May edit', '']} />
            <tbody>
              {own.members.map((member) => (
                <tr key={member.id}>
                  <th scope="row">{member.name}</th>
                  <td>{member.email ?? '—'}</td>
                  <td>{standing(member)}</td>
                  <td>{mayEdit(member.role) ? 'Yes' : 'No'}</td>
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
                                `${member.name}: ${mayEdit(member.role) ? 'read-only' : 'may edit'}`,
                              ),
                            )
                          }
                        >
                          {mayEdit(member.role) ? `Make ${member.name} read-only` : `Let ${member.name} edit`}
                        </button>
                        <button
                          type="button"
                          class="danger"
                          onClick={() => {
                            if (
                              !confirm(
                                `Remove ${member.name} from the household? The records shared with them stop being shared.`,
                              )
                            )
                              return;
                            void action.run(
                              apply<RemoveHouseholdMemberMutation, RemoveHouseholdMemberMutationVariables>(
                                REMOVE_MEMBER,
                                { id: member.id },
                                `${member.name} removed`,
                              ),
                            );
                          }}
                        >
                          Remove {member.name}
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <form class="card" onSubmit={addMember} aria-label="Add a member">
            <div class="grid">
              <Field label="Member name" name="name" required errors={action.errors} />
              <Field
                label="E-mail (to invite)"
                name="email"
                type="email"
                errors={action.errors}
                hint="Leave empty for someone without an account"
              />
            </div>
            <label>
              <input type="checkbox" name="can_edit" /> May edit shared records
            </label>
            <button type="submit">Add member</button>
          </form>
          <h2>Sharing</h2>
          <table aria-label="Sharing">
            <Columns names={['Record', 'Price', 'Split', '']} />
            <tbody>
              {records.map((record) => (
                <tr key={record.id}>
                  <th scope="row">{record.productName}</th>
                  <td>{moneyOf(record.price)}</td>
                  <td>{record.sharing ? splitOf(record.sharing) : 'Not shared'}</td>
                  <td class="actions">
                    <button type="button" onClick={() => setSharing(record)}>
                      {record.sharing ? `Change the split of ${record.productName}` : `Share ${record.productName}`}
                    </button>
                    {record.sharing && (
                      <button
                        type="button"
                        class="link"
                        onClick={() =>
                          void action.run(
                            apply<UnshareSubscriptionMutation, UnshareSubscriptionMutationVariables>(
                              UNSHARE,
                              { id: record.id },
                              `${record.productName}: not shared`,
                            ),
                          )
                        }
                      >
                        Stop sharing {record.productName}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {sharing && (
            <form class="card" onSubmit={share} aria-label={`Share ${sharing.productName}`}>
              <div class="grid">
                <Select
                  label="Paid by"
                  name="payer"
                  options={Object.fromEntries(own.members.map((member) => [member.id, member.name]))}
                  initial={own.members[0].id}
                  errors={action.errors}
                />
                <Select
                  label="Split"
                  name="mode"
                  options={MODES}
                  value={mode}
                  onChange={(event) => setMode(event.currentTarget.value as SplitMode)}
                />
              </div>
              {own.members.map((member) =>
                mode === 'EQUAL' ? (
                  <label key={member.id}>
                    <input type="checkbox" name={`share_${member.id}`} defaultChecked /> {member.name} shares it
                  </label>
                ) : (
                  <Field
                    key={member.id}
                    label={`${member.name}'s ${mode === 'AMOUNTS' ? 'amount' : 'percentage'}`}
                    name={`share_${member.id}`}
                    inputMode="decimal"
                  />
                ),
              )}
              {action.errors.shares && <p class="notice failed">{action.errors.shares.join(' ')}</p>}
              <button type="submit">Save split</button>
            </form>
          )}
        </>
      )}
      <h2>Households you joined</h2>
      {joined.length === 0 && <p>None yet.</p>}
      {joined.map((household) => (
        <div key={household.id} class="card">
          <p>
            <strong>{household.name}</strong> ({household.ownerName}'s
            {mayEdit(household.viewerRole) ? ', you may edit' : ', read-only'}){' '}
            <button
              type="button"
              class="danger"
              onClick={() => {
                if (!confirm(`Leave ${household.name}? Its shared records are no longer yours to see.`)) return;
                void action.run(
                  apply<LeaveHouseholdMutation, LeaveHouseholdMutationVariables>(
                    LEAVE,
                    { id: household.id },
                    `You left ${household.name}`,
                  ),
                );
              }}
            >
              Leave {household.name}
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
      <form class="card" onSubmit={join} aria-label="Join a household">
        <Field label="Invitation code" name="code" required errors={action.errors} />
        <button type="submit">Join</button>
      </form>
    </Section>
  );
}
