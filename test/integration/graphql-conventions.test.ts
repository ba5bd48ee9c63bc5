import { graphql, graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

let testApp: TestApp;
let owner: SignedUpUser;
let stranger: SignedUpUser;

beforeAll(async () => {
  testApp = await startTestApp();
  owner = await signUp(testApp);
  stranger = await signUp(testApp);
});

afterAll(async () => {
  await testApp.close();
});

const CREATE_TAG = `mutation($name: String!) {
  createTag(input: { name: $name }) { tag { id legacyId name } userErrors { field code message } }
}`;

describe('global ids and node(id:)', () => {
  it('answers an opaque id that node(id:) finds again, with the numeric id beside it', async () => {
    const { createTag } = await graphqlData(testApp, owner.token, CREATE_TAG, { name: 'work' });
    expect(createTag.userErrors).toEqual([]);
    const { id, legacyId } = createTag.tag;
    expect(typeof id).toBe('string');
    expect(id).not.toMatch(/^\d+$/);
    expect(Number.isInteger(legacyId)).toBe(true);

    const { node, nodes } = await graphqlData(
      testApp,
      owner.token,
      `query($id: ID!) { node(id: $id) { __typename id legacyId ... on Tag { name } } nodes(ids: [$id, "nonsense"]) { id } }`,
      { id },
    );
    expect(node).toEqual({ __typename: 'Tag', id, legacyId, name: 'work' });
    expect(nodes).toEqual([{ id }, null]);
  });

  it("finds nothing for another user's id, and refuses an id of another type as not found", async () => {
    const { createTag } = await graphqlData(testApp, owner.token, CREATE_TAG, { name: 'private' });
    const { node } = await graphqlData(testApp, stranger.token, `query($id: ID!) { node(id: $id) { id } }`, {
      id: createTag.tag.id,
    });
    expect(node).toBeNull();

    const { createFolder } = await graphqlData(
      testApp,
      owner.token,
      `mutation { createFolder(input: { name: "Bills" }) { folder { id } userErrors { code } } }`,
    );
    const answer = await graphql(
      testApp,
      owner.token,
      `
        mutation ($id: ID!) {
          deleteTag(input: { id: $id }) {
            deletedTagId
            userErrors {
              field
              code
              message
            }
          }
        }
      `,
      { id: createFolder.folder.id },
    );
    expect(answer.body.data.deleteTag).toEqual({
      deletedTagId: null,
      userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND', message: expect.any(String) }],
    });
  });
});

describe('mutation payloads', () => {
  it('types a refusal in userErrors and keeps it in errors with its code for existing clients', async () => {
    await graphqlData(testApp, owner.token, CREATE_TAG, { name: 'twice' });
    const answer = await graphql(testApp, owner.token, CREATE_TAG, { name: 'twice' });
    expect(answer.status).toBe(200);
    expect(answer.body.data.createTag.tag).toBeNull();
    const [userError] = answer.body.data.createTag.userErrors;
    expect(userError).toEqual({ field: expect.any(Array), code: 'CONFLICT', message: expect.any(String) });
    expect(answer.body.errors).toEqual([
      expect.objectContaining({
        message: expect.any(String),
        path: ['createTag'],
        extensions: expect.objectContaining({ code: 'CONFLICT' }),
      }),
    ]);
  });

  it('names the input field at fault', async () => {
    const answer = await graphql(
      testApp,
      owner.token,
      `
        mutation {
          createFolder(input: { name: "Red", color: "not a colour" }) {
            folder {
              id
            }
            userErrors {
              field
              code
            }
          }
        }
      `,
    );
    expect(answer.body.data.createFolder.userErrors).toEqual([{ field: ['input', 'color'], code: 'BAD_USER_INPUT' }]);
    expect(answer.body.errors[0].extensions.errors).toEqual({ color: [expect.any(String)] });
  });

  it('leaves errors that are not about the input as errors, without a payload', async () => {
    const answer = await graphql(testApp, null, CREATE_TAG, { name: 'anonymous' });
    expect(answer.body.data).toBeNull();
    expect(answer.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('variables', () => {
  it("takes a variable's default when the client leaves it out, non-null or not", async () => {
    // Every test query runs on graphql-jit and graphql-js, and any difference fails it.
    const answer = await graphql(
      testApp,
      owner.token,
      `
        query Summary($groupBy: SpendingGroupBy! = FOLDER, $view: SpendingView = OWN) {
          spendingSummary(groupBy: $groupBy, view: $view) {
            monthlyTotal {
              currency
            }
          }
        }
      `,
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.spendingSummary).toEqual({ monthlyTotal: { currency: 'USD' } });
  });
});
