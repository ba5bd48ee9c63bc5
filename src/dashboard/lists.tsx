import { useEffect, useState } from 'preact/hooks';

import { gql, type Variables } from './api';
import type { ListsQuery, ListsQueryVariables } from './graphql.generated';
import { t } from './i18n';
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

/**
 * What a list's card does through the API: its three operations' texts, run as the build registered them;
 * its words are the messages lists:<key>.* (each language's nouns have their own gender).
 */
interface ListKind {
  key: 'folders' | 'tags' | 'paymentModes' | 'productCategories';
  /** The singular noun in an element id ("payment-method"). */
  slug: string;
  create: string;
  update: string;
  remove: string;
  withColor?: boolean;
}

const KINDS = {
  folders: {
    key: 'folders',
    slug: 'folder',
    create: CREATE_FOLDER,
    update: UPDATE_FOLDER,
    remove: DELETE_FOLDER,
    withColor: true,
  },
  tags: { key: 'tags', slug: 'tag', create: CREATE_TAG, update: UPDATE_TAG, remove: DELETE_TAG },
  paymentModes: {
    key: 'paymentModes',
    slug: 'payment-method',
    create: CREATE_PAYMENT_MODE,
    update: UPDATE_PAYMENT_MODE,
    remove: DELETE_PAYMENT_MODE,
  },
  productCategories: {
    key: 'productCategories',
    slug: 'category',
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
    <Section title={t('common:screens.lists')}>
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
  const say = (message: string, values?: { name: string }) => t(`lists:${kind.key}.${message}`, values);
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
    if (await change(kind.create, { input }, say('added', { name: input.name }))) form.reset();
  }
  async function save(event: Event, entry: Entry) {
    event.preventDefault();
    const input = { id: entry.id, ...valuesOf(event.currentTarget as HTMLFormElement) };
    if (await change(kind.update, { input }, say('saved', { name: input.name }))) setEditing(null);
  }
  const field = (prefix: string, entry?: Entry) => (
    <>
      <Field
        label={t('lists:name')}
        name="name"
        id={`${prefix}-name`}
        required
        maxLength={255}
        defaultValue={entry?.name}
        errors={action.errors}
      />
      {kind.withColor && (
        <div class="field">
          <label for={`${prefix}-color`}>{t('lists:colour')}</label>
          <input id={`${prefix}-color`} name="color" type="color" defaultValue={entry?.color ?? '#6366f1'} />
        </div>
      )}
    </>
  );
  return (
    <div class="card">
      <h2>{say('title')}</h2>
      {entries.length === 0 ? (
        <p>{say('empty')}</p>
      ) : (
        <ul class="named-list" aria-label={say('title')}>
          {entries.map((entry) => (
            <li key={entry.id}>
              {editing === entry.id ? (
                <form
                  aria-label={t('lists:editNamed', { name: entry.name })}
                  onSubmit={(event) => void save(event, entry)}
                >
                  {field(`edit-${entry.id}`, entry)}
                  <button type="submit" disabled={action.busy}>
                    {t('common:save')}
                  </button>
                  <button type="button" onClick={() => setEditing(null)}>
                    {t('common:cancel')}
                  </button>
                </form>
              ) : (
                <>
                  {entry.color && <span class="swatch" style={{ background: entry.color }} aria-hidden="true" />}
                  <span class="name">{entry.name}</span>
                  {entry.isGlobal ? (
                    <span class="badge">{t('lists:builtIn')}</span>
                  ) : (
                    <>
                      <button
                        type="button"
                        aria-label={t('lists:renameNamed', { name: entry.name })}
                        onClick={() => setEditing(entry.id)}
                      >
                        {t('lists:rename')}
                      </button>
                      <button
                        type="button"
                        class="danger"
                        aria-label={t('lists:deleteNamed', { name: entry.name })}
                        onClick={() => {
                          if (!confirm(say('confirmDelete', { name: entry.name }))) return;
                          void change(kind.remove, { id: entry.id }, say('deleted', { name: entry.name }));
                        }}
                      >
                        {t('common:delete')}
                      </button>
                    </>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <form aria-label={say('addA')} onSubmit={(event) => void add(event)}>
        <div class="grid">{field(`new-${kind.slug}`)}</div>
        <button type="submit" disabled={action.busy}>
          {say('add')}
        </button>
      </form>
      <Notice outcome={action.outcome} />
    </div>
  );
}
