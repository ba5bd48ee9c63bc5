import { useEffect, useState } from 'preact/hooks';

import { gql, type Variables } from './api';
import type { ListsQuery, ListsQueryVariables } from './graphql.generated';
import { Field, Notice, Section, useAction } from './ui';

const LISTS = /* GraphQL */ `
  query Lists {
    folders {
      id
      name
      color
    }
    tags {
      id
      name
    }
    paymentModes {
      id
      name
    }
    productCategories {
      id
      name
      isGlobal
    }
  }
`;
const CREATE_FOLDER = /* GraphQL */ `
  mutation CreateFolder($input: CreateFolderInput!) {
    createFolder(input: $input) {
      folder {
        id
      }
    }
  }
`;
const UPDATE_FOLDER = /* GraphQL */ `
  mutation UpdateFolder($input: UpdateFolderInput!) {
    updateFolder(input: $input) {
      folder {
        id
      }
    }
  }
`;
const DELETE_FOLDER = /* GraphQL */ `
  mutation DeleteFolder($id: ID!) {
    deleteFolder(input: { id: $id }) {
      deletedFolderId
    }
  }
`;
const CREATE_TAG = /* GraphQL */ `
  mutation CreateTag($input: CreateTagInput!) {
    createTag(input: $input) {
      tag {
        id
      }
    }
  }
`;
const UPDATE_TAG = /* GraphQL */ `
  mutation UpdateTag($input: UpdateTagInput!) {
    updateTag(input: $input) {
      tag {
        id
      }
    }
  }
`;
const DELETE_TAG = /* GraphQL */ `
  mutation DeleteTag($id: ID!) {
    deleteTag(input: { id: $id }) {
      deletedTagId
    }
  }
`;
const CREATE_PAYMENT_MODE = /* GraphQL */ `
  mutation CreatePaymentMode($input: CreatePaymentModeInput!) {
    createPaymentMode(input: $input) {
      paymentMode {
        id
      }
    }
  }
`;
const UPDATE_PAYMENT_MODE = /* GraphQL */ `
  mutation UpdatePaymentMode($input: UpdatePaymentModeInput!) {
    updatePaymentMode(input: $input) {
      paymentMode {
        id
      }
    }
  }
`;
const DELETE_PAYMENT_MODE = /* GraphQL */ `
  mutation DeletePaymentMode($id: ID!) {
    deletePaymentMode(input: { id: $id }) {
      deletedPaymentModeId
    }
  }
`;
const CREATE_CATEGORY = /* GraphQL */ `
  mutation CreateProductCategory($input: CreateProductCategoryInput!) {
    createProductCategory(input: $input) {
      productCategory {
        id
      }
    }
  }
`;
const UPDATE_CATEGORY = /* GraphQL */ `
  mutation UpdateProductCategory($input: UpdateProductCategoryInput!) {
    updateProductCategory(input: $input) {
      productCategory {
        id
      }
    }
  }
`;
const DELETE_CATEGORY = /* GraphQL */ `
  mutation DeleteProductCategory($id: ID!) {
    deleteProductCategory(input: { id: $id }) {
      deletedProductCategoryId
    }
  }
`;

/** An entry of one of the lists: a name, a folder's colour, and whether it is everyone's (read-only). */
interface Entry {
  id: string;
  name: string;
  color?: string | null;
  isGlobal?: boolean;
}

/** What a list's card does through the API: its three operations' texts, run as the build registered them. */
interface ListKind {
  title: string;
  /** The singular noun, lower case ("payment method"). */
  noun: string;
  create: string;
  update: string;
  remove: string;
  withColor?: boolean;
}

const KINDS = {
  folders: {
    title: 'Folders',
    noun: 'folder',
    create: CREATE_FOLDER,
    update: UPDATE_FOLDER,
    remove: DELETE_FOLDER,
    withColor: true,
  },
  tags: { title: 'Tags', noun: 'tag', create: CREATE_TAG, update: UPDATE_TAG, remove: DELETE_TAG },
  paymentModes: {
    title: 'Payment methods',
    noun: 'payment method',
    create: CREATE_PAYMENT_MODE,
    update: UPDATE_PAYMENT_MODE,
    remove: DELETE_PAYMENT_MODE,
  },
  productCategories: {
    title: 'Categories',
    noun: 'category',
    create: CREATE_CATEGORY,
    update: UPDATE_CATEGORY,
    remove: DELETE_CATEGORY,
  },
} satisfies Record<keyof Omit<ListsQuery, '__typename'>, ListKind>;

/** Folders, tags, payment methods and categories: what the record form's choices and the list's filters offer. */
export function Lists() {
  const [lists, setLists] = useState<ListsQuery | null>(null);
  const action = useAction();
  const load = async () => setLists(await gql<ListsQuery, ListsQueryVariables>(LISTS));
  useEffect(() => {
    void action.run(load);
  }, []);
  return (
    <Section title="Lists">
      <Notice outcome={action.outcome} />
      {lists &&
        (Object.keys(KINDS) as Array<keyof typeof KINDS>).map((key) => (
          <NamedList key={key} kind={KINDS[key]} entries={lists[key]} reload={load} />
        ))}
    </Section>
  );
}

/** One list: add, rename (and recolour a folder) in place, and delete after a confirmation naming the entry. */
function NamedList({ kind, entries, reload }: { kind: ListKind; entries: Entry[]; reload: () => Promise<void> }) {
  const [editing, setEditing] = useState<string | null>(null);
  const action = useAction();
  // The mutations' variables are typed by the schema through ListKind's texts; the forms give them as read.
  const change = (query: string, variables: Variables, done: string) =>
    action.run(async () => {
      await gql<unknown, Variables>(query, variables);
      await reload();
      return done;
    });
  const valuesOf = (form: HTMLFormElement) => {
    const values = new FormData(form);
    const color = String(values.get('color') ?? '');
    return { name: String(values.get('name')).trim(), ...(kind.withColor ? { color: color || null } : {}) };
  };
  async function add(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const input = valuesOf(form);
    if (await change(kind.create, { input }, `Added the ${kind.noun} “${input.name}”`)) form.reset();
  }
  async function save(event: Event, entry: Entry) {
    event.preventDefault();
    const input = { id: entry.id, ...valuesOf(event.currentTarget as HTMLFormElement) };
    if (await change(kind.update, { input }, `Saved the ${kind.noun} “${input.name}”`)) setEditing(null);
  }
  const field = (prefix: string, entry?: Entry) => (
    <>
      <Field
        label="Name"
        name="name"
        id={`${prefix}-name`}
        required
        maxLength={255}
        defaultValue={entry?.name}
        errors={action.errors}
      />
      {kind.withColor && (
        <div class="field">
          <label for={`${prefix}-color`}>Colour</label>
          <input id={`${prefix}-color`} name="color" type="color" defaultValue={entry?.color ?? '#6366f1'} />
        </div>
      )}
    </>
  );
  return (
    <div class="card">
      <h2>{kind.title}</h2>
      {entries.length === 0 ? (
        <p>No {kind.title.toLowerCase()} yet: add the first below.</p>
      ) : (
        <ul class="named-list" aria-label={kind.title}>
          {entries.map((entry) => (
            <li key={entry.id}>
              {editing === entry.id ? (
                <form aria-label={`Edit ${entry.name}`} onSubmit={(event) => void save(event, entry)}>
                  {field(`edit-${entry.id}`, entry)}
                  <button type="submit" disabled={action.busy}>
                    Save
                  </button>
                  <button type="button" onClick={() => setEditing(null)}>
                    Cancel
                  </button>
                </form>
              ) : (
                <>
                  {entry.color && <span class="swatch" style={{ background: entry.color }} aria-hidden="true" />}
                  <span class="name">{entry.name}</span>
                  {entry.isGlobal ? (
                    <span class="badge">Built in</span>
                  ) : (
                    <>
                      <button type="button" aria-label={`Rename ${entry.name}`} onClick={() => setEditing(entry.id)}>
                        Rename
                      </button>
                      <button
                        type="button"
                        class="danger"
                        aria-label={`Delete ${entry.name}`}
                        onClick={() => {
                          if (!confirm(`Delete the ${kind.noun} “${entry.name}”? Records that use it keep the rest.`))
                            return;
                          void change(kind.remove, { id: entry.id }, `Deleted the ${kind.noun} “${entry.name}”`);
                        }}
                      >
                        Delete
                      </button>
                    </>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <form aria-label={`Add a ${kind.noun}`} onSubmit={(event) => void add(event)}>
        <div class="grid">{field(`new-${kind.noun.replace(' ', '-')}`)}</div>
        <button type="submit" disabled={action.busy}>
          Add {kind.noun}
        </button>
      </form>
      <Notice outcome={action.outcome} />
    </div>
  );
}
