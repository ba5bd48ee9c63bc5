import { useEffect, useRef, useState } from 'preact/hooks';

import { gql, gqlUpload } from './api';
import { billingCycles, billingWording, calendarDate, moneyOf, recordStatuses, recordTypes } from './format';
import type {
  AddAddonMutation,
  AddAddonMutationVariables,
  BillingCycle,
  CancelSubscriptionMutation,
  CancelSubscriptionMutationVariables,
  CreateSubscriptionInput,
  CreateSubscriptionMutation,
  CreateSubscriptionMutationVariables,
  DeleteSubscriptionMutation,
  DeleteSubscriptionMutationVariables,
  OrderDirection,
  ProductSuggestionsQuery,
  ProductSuggestionsQueryVariables,
  RecordChoicesQuery,
  RecordChoicesQueryVariables,
  RecordDetailsQuery,
  RecordDetailsQueryVariables,
  RecordStatus,
  RecordType,
  RefundSubscriptionMutation,
  RefundSubscriptionMutationVariables,
  RemoveRecordLogoMutation,
  RemoveRecordLogoMutationVariables,
  RestoreSubscriptionMutation,
  RestoreSubscriptionMutationVariables,
  SubscriptionFilter,
  SubscriptionOrderField,
  SubscriptionsPageQuery,
  SubscriptionsPageQueryVariables,
  UpdateSubscriptionMutation,
  UpdateSubscriptionMutationVariables,
  UploadRecordLogoMutation,
  UploadRecordLogoMutationVariables,
} from './graphql.generated';
import { t } from './i18n';
import { useLiveReload } from './live';
import { Logo } from './logo';
import { changeThen, Field, Notice, Pager, Section, Select, TableWrap, useAction, useCursorPages } from './ui';

type Page = SubscriptionsPageQuery;
/** A record as the list shows it (the create and update operations answer the same selection). */
export type Row = Page['subscriptions']['edges'][number]['node'];
type Product = ProductSuggestionsQuery['products']['edges'][number]['node'];
type Links = RecordChoicesQuery;
type Named = Links['folders'][number];

// The record's selection is written out in each operation below (listing, create, update) so each stays static.
const PAGE = /* GraphQL */ `
  query SubscriptionsPage(
    $first: Int!
    $after: String
    $search: String
    $orderBy: SubscriptionOrder
    $filter: SubscriptionFilter
  ) {
    subscriptions(first: $first, after: $after, search: $search, orderBy: $orderBy, filter: $filter) {
      totalCount
      edges {
        node {
          id
          productName
          logo
          price {
            amount
            currency
          }
          billingCycle
          billingFrequency
          paymentDate
          nextPaymentDate
          status
          type
          basePrice {
            amount
            currency
          }
          isAddon
          folder {
            id
            name
          }
          paymentMode {
            id
            name
          }
          tags {
            name
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    spendingSummary {
      baseCurrency
      monthlyTotal {
        amount
        currency
      }
      yearlyTotal {
        amount
        currency
      }
    }
  }
`;
const PRODUCTS = /* GraphQL */ `
  query ProductSuggestions($search: String!) {
    products(search: $search, first: 8) {
      edges {
        node {
          id
          productName: name
          price {
            amount
            currency
          }
          billingCycle
          billingFrequency
          categoryId
        }
      }
    }
  }
`;
/** What the form shows of a record beyond the list's selection, read when it is opened for editing. */
const DETAILS = /* GraphQL */ `
  query RecordDetails($id: ID!) {
    node(id: $id) {
      ... on SubscriptionRecord {
        note
        discountVoucher
        rating
        contractExpiry
        contractNoticeDays
        category {
          id
        }
        logo
        product {
          id
          logo
        }
      }
    }
  }
`;
const UPLOAD_LOGO = /* GraphQL */ `
  mutation UploadRecordLogo($input: UploadLogoInput!) {
    uploadLogo(input: $input) {
      logo
      userErrors {
        field
        code
        message
      }
    }
  }
`;
const REMOVE_LOGO = /* GraphQL */ `
  mutation RemoveRecordLogo($input: RemoveLogoInput!) {
    removeLogo(input: $input) {
      id
      userErrors {
        field
        code
        message
      }
    }
  }
`;
const CREATE = /* GraphQL */ `
  mutation CreateSubscription($input: CreateSubscriptionInput!) {
    createSubscription(input: $input) {
      subscription {
        id
        productName
        logo
        price {
          amount
          currency
        }
        billingCycle
        billingFrequency
        paymentDate
        nextPaymentDate
        status
        type
        basePrice {
          amount
          currency
        }
        isAddon
        folder {
          id
          name
        }
        paymentMode {
          id
          name
        }
        tags {
          name
        }
      }
      userErrors {
        field
        code
        message
      }
    }
  }
`;
const LINKS = /* GraphQL */ `
  query RecordChoices {
    folders {
      id
      name
    }
    paymentModes {
      id
      name
    }
    tags {
      id
      name
    }
    productCategories {
      id
      name
    }
    alerts {
      id
      name
    }
    currencies
    me {
      baseCurrency
    }
  }
`;
const ADDON = /* GraphQL */ `
  mutation AddAddon($input: AddAddonInput!) {
    addAddon(input: $input) {
      subscription {
        id
      }
      userErrors {
        field
        code
        message
      }
    }
  }
`;
const RESTORE = /* GraphQL */ `
  mutation RestoreSubscription($input: RestoreSubscriptionInput!) {
    restoreSubscription(input: $input) {
      subscription {
        id
      }
      userErrors {
        field
        code
        message
      }
    }
  }
`;
/** The address that opens the form to add a record. */
const NEW_RECORD_ADDRESS = '#/subscriptions/new';
type Sort = `${SubscriptionOrderField} ${OrderDirection}`;
/** Each sortable column both ways, as the sort menu names them (the table's headers toggle the same). */
const sorts = (): Partial<Record<Sort, string>> => ({
  'PAYMENT_DATE ASC': t('subscriptions:sort.nextSoonest'),
  'PAYMENT_DATE DESC': t('subscriptions:sort.nextLatest'),
  'PRODUCT_NAME ASC': t('subscriptions:sort.nameAsc'),
  'PRODUCT_NAME DESC': t('subscriptions:sort.nameDesc'),
  'PRICE ASC': t('subscriptions:sort.priceAsc'),
  'PRICE DESC': t('subscriptions:sort.priceDesc'),
  'CREATED_AT DESC': t('subscriptions:sort.newest'),
  'CREATED_AT ASC': t('subscriptions:sort.oldest'),
  'STATUS ASC': t('subscriptions:sort.statusAsc'),
  'STATUS DESC': t('subscriptions:sort.statusDesc'),
});

/** The user's folders, payment modes, tags, categories and alerts: the form's choices and the list's filters. */
/** The choices, and whether they have been read yet. */
type LinksRead = Links & { loaded: boolean };

function useLinks(): LinksRead {
  const [links, setLinks] = useState<LinksRead>({
    loaded: false,
    folders: [],
    paymentModes: [],
    tags: [],
    productCategories: [],
    alerts: [],
    currencies: [],
    me: { baseCurrency: 'USD' },
  });
  useEffect(() => {
    void gql<RecordChoicesQuery, RecordChoicesQueryVariables>(LINKS).then(
      (loaded) => setLinks({ ...loaded, loaded: true }),
      // Unread, the form still opens, with no choices beyond the defaults.
      () => setLinks((current) => ({ ...current, loaded: true })),
    );
  }, []);
  return links;
}

const choices = (rows: Named[], none: string) => ({
  '': none,
  ...Object.fromEntries(rows.map((row) => [row.id, row.name])),
});
const UPDATE = /* GraphQL */ `
  mutation UpdateSubscription($input: UpdateSubscriptionInput!) {
    updateSubscription(input: $input) {
      subscription {
        id
        productName
        logo
        price {
          amount
          currency
        }
        billingCycle
        billingFrequency
        paymentDate
        nextPaymentDate
        status
        type
        basePrice {
          amount
          currency
        }
        isAddon
        folder {
          id
          name
        }
        paymentMode {
          id
          name
        }
        tags {
          name
        }
      }
      userErrors {
        field
        code
        message
      }
    }
  }
`;
const PAGE_SIZES = { 25: '25', 50: '50', 100: '100' };
// One static operation per verb (a delete answers the deleted id, the others the record's id).
const CANCEL = /* GraphQL */ `
  mutation CancelSubscription($input: CancelSubscriptionInput!) {
    cancelSubscription(input: $input) {
      subscription {
        id
      }
      userErrors {
        field
        code
        message
      }
    }
  }
`;
const REFUND = /* GraphQL */ `
  mutation RefundSubscription($input: RefundSubscriptionInput!) {
    refundSubscription(input: $input) {
      subscription {
        id
      }
      userErrors {
        field
        code
        message
      }
    }
  }
`;
const DELETE = /* GraphQL */ `
  mutation DeleteSubscription($input: DeleteSubscriptionInput!) {
    deleteSubscription(input: $input) {
      deletedSubscriptionId
      userErrors {
        field
        code
        message
      }
    }
  }
`;
/** A record's lifecycle actions: what is asked first (naming the record), what is said after, and the call. */
const LIFECYCLE: Record<
  'cancel' | 'refund' | 'delete',
  [question: (name: string) => string, done: (name: string) => string, run: (id: string) => Promise<unknown>]
> = {
  cancel: [
    (name) => t('subscriptions:confirm.cancel', { name }),
    (name) => t('subscriptions:done.cancelled', { name }),
    (id) => gql<CancelSubscriptionMutation, CancelSubscriptionMutationVariables>(CANCEL, { input: { id } }),
  ],
  refund: [
    (name) => t('subscriptions:confirm.refund', { name }),
    (name) => t('subscriptions:done.refunded', { name }),
    (id) => gql<RefundSubscriptionMutation, RefundSubscriptionMutationVariables>(REFUND, { input: { id } }),
  ],
  delete: [
    (name) => t('subscriptions:confirm.delete', { name }),
    (name) => t('subscriptions:done.deleted', { name }),
    (id) => gql<DeleteSubscriptionMutation, DeleteSubscriptionMutationVariables>(DELETE, { input: { id } }),
  ],
};

/** The table's columns, and the field each sortable one sorts by. */
const columns = (): Array<[string, SubscriptionOrderField | null]> => [
  [t('subscriptions:column.product'), 'PRODUCT_NAME'],
  [t('subscriptions:column.details'), null],
  [t('subscriptions:column.price'), 'PRICE'],
  [t('subscriptions:column.billing'), null],
  [t('subscriptions:column.nextPayment'), 'PAYMENT_DATE'],
  [t('subscriptions:column.status'), 'STATUS'],
  [t('common:actions'), null],
];

/** The header row: a sortable column's name sorts by it, ascending first, and again the other way. */
function SortingColumns({ sort, onSort }: { sort: Sort; onSort: (sort: Sort) => void }) {
  const [field, direction] = sort.split(' ') as [SubscriptionOrderField, OrderDirection];
  return (
    <thead>
      <tr>
        {columns().map(([name, by]) => {
          if (!by)
            return (
              <th key={name} scope="col">
                {name}
              </th>
            );
          const current = by === field;
          const next: OrderDirection = current && direction === 'ASC' ? 'DESC' : 'ASC';
          return (
            <th
              key={name}
              scope="col"
              aria-sort={current ? (direction === 'ASC' ? 'ascending' : 'descending') : undefined}
            >
              <button type="button" class="sort" onClick={() => onSort(`${by} ${next}`)}>
                {name}
                {current && <span aria-hidden="true">{direction === 'ASC' ? ' ▲' : ' ▼'}</span>}
              </button>
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/** The list: search, paging through the connection, totals in the base currency, and each record's actions. */
export function Subscriptions() {
  const [query, setQuery] = useState({
    search: '',
    sort: 'PAYMENT_DATE ASC' as Sort,
    status: '' as RecordStatus | '',
    type: '' as RecordType | '',
    cycle: '' as BillingCycle | '',
    folder: '',
    tag: '',
    paymentMode: '',
    category: '',
    alert: '',
    pageSize: 25,
  });
  const links = useLinks();
  const filter: SubscriptionFilter = {
    ...(query.status ? { statuses: [query.status] } : {}),
    ...(query.type ? { types: [query.type] } : {}),
    ...(query.cycle ? { billingCycles: [query.cycle] } : {}),
    ...(query.folder ? { folderIds: [query.folder] } : {}),
    ...(query.tag ? { tagIds: [query.tag] } : {}),
    ...(query.paymentMode ? { paymentModeIds: [query.paymentMode] } : {}),
    ...(query.category ? { categoryIds: [query.category] } : {}),
    ...(query.alert ? { alertIds: [query.alert] } : {}),
  };
  const [addonFor, setAddonFor] = useState<Row | null>(null);
  const pages = useCursorPages();
  const [page, setPage] = useState<Page | null>(null);
  // #/subscriptions/new (the overview's call to add a first record) opens the add form.
  const [editing, setEditing] = useState<{ row: Row | null; clone: boolean } | null>(
    location.hash === NEW_RECORD_ADDRESS ? { row: null, clone: false } : null,
  );
  // The row whose menu of actions is open, if any.
  const [menuFor, setMenuFor] = useState<string | null>(null);
  const action = useAction();
  const after = pages.after;

  // Typing in the search sends a query per key: only the latest one's answer is shown.
  const latest = useRef(0);
  const fetchPage = async () => {
    const ticket = ++latest.current;
    const [field, direction] = query.sort.split(' ') as [SubscriptionOrderField, OrderDirection];
    const answer = await gql<Page, SubscriptionsPageQueryVariables>(PAGE, {
      first: query.pageSize,
      after,
      search: query.search || null,
      orderBy: { field, direction },
      filter: Object.keys(filter).length > 0 ? filter : null,
    });
    if (ticket === latest.current) setPage(answer);
  };
  const load = () => action.run(fetchPage);
  useEffect(() => {
    void load();
  }, [query, after]);
  // Another client's change shows without touching the notice of the user's own last action.
  useLiveReload(['records'], fetchPage);

  /** A changed search, sort, filter or page size starts again from the first page. */
  const change = (next: Partial<typeof query>) => {
    setQuery({ ...query, ...next });
    pages.restart();
  };
  /** The form closes; an address that opened it becomes the list's again (a reload does not reopen it). */
  const closeForm = () => {
    setEditing(null);
    if (location.hash === NEW_RECORD_ADDRESS) history.replaceState(null, '', '#/subscriptions');
  };
  /** A form's work is done: close it, show the list as it is now, and say what happened. */
  const finished = async (message: string) => {
    closeForm();
    setAddonFor(null);
    await load();
    action.setOutcome({ kind: 'done', message });
  };

  async function lifecycle(row: Row, verb: keyof typeof LIFECYCLE) {
    const [question, done, run] = LIFECYCLE[verb];
    if (!confirm(question(row.productName))) return;
    const ok = await action.run(async () => {
      await run(row.id);
    });
    if (ok) {
      await load();
      // A delete is soft: the record can be brought back until the next one replaces this notice.
      const undo = () =>
        void action.run(
          changeThen(load)<RestoreSubscriptionMutation, RestoreSubscriptionMutationVariables>(
            RESTORE,
            { input: { id: row.id } },
            t('subscriptions:done.restored', { name: row.productName }),
          ),
        );
      action.setOutcome({
        kind: 'done',
        message: done(row.productName),
        ...(verb === 'delete' ? { next: { label: t('common:undo'), run: undo } } : {}),
      });
    }
  }

  return (
    <Section
      title={t('common:screens.subscriptions')}
      actions={
        <button type="button" onClick={() => setEditing({ row: null, clone: false })}>
          {t('subscriptions:addSubscription')}
        </button>
      }
    >
      {editing && (
        <RecordForm
          // A new form per record: its fields start from the record and are the form's own afterwards.
          key={`${editing.clone ? 'clone' : 'edit'} ${editing.row?.id ?? 'new'}`}
          record={editing.clone ? null : editing.row}
          template={editing.clone ? editing.row : null}
          links={links}
          onDone={finished}
          onCancel={closeForm}
        />
      )}
      {addonFor && <AddonForm key={addonFor.id} main={addonFor} onDone={finished} onCancel={() => setAddonFor(null)} />}
      <form role="search" class="list-controls" onSubmit={(event) => event.preventDefault()}>
        <Field
          label={t('subscriptions:search')}
          name="search"
          type="search"
          value={query.search}
          onInput={(event) => change({ search: event.currentTarget.value })}
        />
        <Select
          label={t('subscriptions:sortBy')}
          name="sort"
          options={sorts()}
          value={query.sort}
          onChange={(event) => change({ sort: event.currentTarget.value as Sort })}
        />
        <Select
          label={t('subscriptions:status')}
          name="status_filter"
          options={{ '': t('subscriptions:any.status'), ...recordStatuses() }}
          value={query.status}
          onChange={(event) => change({ status: event.currentTarget.value as RecordStatus | '' })}
        />
        <Select
          label={t('subscriptions:type')}
          name="type_filter"
          options={{ '': t('subscriptions:any.type'), ...recordTypes() }}
          value={query.type}
          onChange={(event) => change({ type: event.currentTarget.value as RecordType | '' })}
        />
        <Select
          label={t('subscriptions:billing')}
          name="cycle_filter"
          options={{ '': t('subscriptions:any.billing'), ...billingCycles() }}
          value={query.cycle}
          onChange={(event) => change({ cycle: event.currentTarget.value as BillingCycle | '' })}
        />
        {(
          [
            ['folder', t('subscriptions:folder'), links.folders, t('subscriptions:any.folder')],
            ['tag', t('subscriptions:tag'), links.tags, t('subscriptions:any.tag')],
            ['paymentMode', t('subscriptions:paymentMethod'), links.paymentModes, t('subscriptions:any.paymentMethod')],
            ['category', t('subscriptions:category'), links.productCategories, t('subscriptions:any.category')],
            ['alert', t('subscriptions:alert'), links.alerts, t('subscriptions:any.alert')],
          ] as const
        ).map(([key, label, rows, any]) => (
          <Select
            key={key}
            label={label}
            name={`${key}_filter`}
            options={choices(rows, any)}
            value={query[key]}
            onChange={(event) => change({ [key]: event.currentTarget.value })}
          />
        ))}
        <Select
          label={t('subscriptions:perPage')}
          name="per_page"
          options={PAGE_SIZES}
          value={String(query.pageSize)}
          onChange={(event) => change({ pageSize: Number(event.currentTarget.value) })}
        />
      </form>
      <Notice outcome={action.outcome} />
      {page && (
        <>
          <p class="totals">
            {t('subscriptions:totals', {
              count: page.subscriptions.totalCount,
              monthly: moneyOf(page.spendingSummary.monthlyTotal),
              yearly: moneyOf(page.spendingSummary.yearlyTotal),
            })}
          </p>
          <TableWrap label={t('common:screens.subscriptions')}>
            <table class="records">
              <SortingColumns sort={query.sort} onSort={(sort) => change({ sort })} />
              <tbody>
                {page.subscriptions.edges.map(({ node }) => (
                  <tr key={node.id}>
                    <th scope="row">
                      <Logo name={node.productName} src={node.logo} size={24} />
                      {node.productName}
                    </th>
                    <td>
                      {[
                        node.isAddon ? t('subscriptions:addon') : null,
                        node.folder?.name,
                        node.paymentMode?.name,
                        ...node.tags.map((tag) => `#${tag.name}`),
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </td>
                    <td>
                      {moneyOf(node.price)}
                      {node.price.currency !== node.basePrice.currency && <small> ≈ {moneyOf(node.basePrice)}</small>}
                    </td>
                    <td>{billingWording(node.type, node.billingCycle, node.billingFrequency)}</td>
                    <td>{node.nextPaymentDate ? calendarDate(node.nextPaymentDate) : '—'}</td>
                    <td>{recordStatuses()[node.status]}</td>
                    <td class="actions">
                      <RowMenu
                        row={node}
                        open={menuFor === node.id}
                        onToggle={(open) => setMenuFor(open ? node.id : null)}
                        actions={[
                          [
                            t('common:edit'),
                            t('subscriptions:editNamed', { name: node.productName }),
                            () => setEditing({ row: node, clone: false }),
                          ],
                          [
                            t('subscriptions:clone'),
                            t('subscriptions:cloneNamed', { name: node.productName }),
                            () => setEditing({ row: node, clone: true }),
                          ],
                          ...(node.isAddon
                            ? []
                            : [
                                [
                                  t('subscriptions:addon'),
                                  t('subscriptions:addonNamed', { name: node.productName }),
                                  () => setAddonFor(node),
                                ] as const,
                              ]),
                          ...(node.status === 'ACTIVE'
                            ? [
                                [
                                  t('subscriptions:cancelRecord'),
                                  t('subscriptions:cancelNamed', { name: node.productName }),
                                  () => lifecycle(node, 'cancel'),
                                ] as const,
                                [
                                  t('subscriptions:refund'),
                                  t('subscriptions:refundNamed', { name: node.productName }),
                                  () => lifecycle(node, 'refund'),
                                ] as const,
                              ]
                            : []),
                          [
                            t('common:delete'),
                            t('subscriptions:deleteNamed', { name: node.productName }),
                            () => lifecycle(node, 'delete'),
                            'danger',
                          ],
                        ]}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pager pages={pages} pageInfo={page.subscriptions.pageInfo} />
        </>
      )}
    </Section>
  );
}

/**
 * A row's actions behind one button (a disclosure: the actions show under it, Escape closes them), each
 * action named with the record for assistive technology.
 */
function RowMenu({
  row,
  open,
  onToggle,
  actions,
}: {
  row: Row;
  open: boolean;
  onToggle: (open: boolean) => void;
  actions: ReadonlyArray<readonly [text: string, label: string, run: () => unknown, danger?: 'danger']>;
}) {
  const id = `actions-${row.id}`;
  return (
    <div class="row-menu" onKeyDown={(event) => event.key === 'Escape' && onToggle(false)}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        aria-label={t('subscriptions:actionsFor', { name: row.productName })}
        onClick={() => onToggle(!open)}
      >
        {t('common:actions')}
      </button>
      {open && (
        <ul id={id} class="row-menu-items">
          {actions.map(([text, label, run, danger]) => (
            <li key={text}>
              <button
                type="button"
                class={danger ? 'link danger' : 'link'}
                aria-label={label}
                onClick={() => {
                  onToggle(false);
                  void run();
                }}
              >
                {text}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

type Details = Extract<NonNullable<RecordDetailsQuery['node']>, { rating: number }>;

/** Ratings as the form offers them: 0 is none. */
const ratings = () => ({
  '0': t('subscriptions:notRated'),
  ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [i + 1, t('subscriptions:rating', { rating: i + 1 })])),
});
/** The alert choice that leaves the record's alerts as they are (on create: the system default alert). */
const KEEP_ALERT = '';
const NO_ALERT = 'none';

/** The currencies offered: the base currency first, then the record's own, then every known one by code. */
function currencyChoices(links: Links, current: string | undefined): Record<string, string> {
  const first = [links.me.baseCurrency, current].filter((code): code is string => Boolean(code));
  return Object.fromEntries([...new Set([...first, ...links.currencies])].map((code) => [code, code]));
}

/**
 * Create or edit: the catalogue is searched as the name is typed (the server's search forgives typos), and a
 * catalogue product picked fills in its price, currency, billing and category where the catalogue knows them.
 */
function RecordForm({
  record,
  template = null,
  links,
  onDone,
  onCancel,
}: {
  record: Row | null;
  /** The record a new one is cloned from: the form starts from its fields. */
  template?: Row | null;
  /** The list's choices (read once for the screen), which the form's selects offer. */
  links: LinksRead;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  // What the fields start from: the record edited, or the one cloned.
  const source = record ?? template;
  const action = useAction();
  const [products, setProducts] = useState<Product[]>([]);
  // Editing waits for the fields the list does not show; a new record has none to wait for.
  const [details, setDetails] = useState<Details | null | undefined>(source ? undefined : null);
  const formRef = useRef<HTMLFormElement>(null);
  // The fields the person has set themselves: a catalogue answer that arrives later fills in only the others.
  const touched = useRef(new Set<string>());

  useEffect(() => {
    if (!source) return;
    void gql<RecordDetailsQuery, RecordDetailsQueryVariables>(DETAILS, { id: source.id }).then(
      (data) => setDetails((data.node as Details | null) ?? null),
      () => setDetails(null),
    );
  }, [source?.id]);

  async function lookUp(text: string) {
    if (text.trim().length < 2) return setProducts([]);
    const data = await gql<ProductSuggestionsQuery, ProductSuggestionsQueryVariables>(PRODUCTS, {
      search: text,
    }).catch(() => null);
    const found = data?.products.edges.map((edge) => edge.node) ?? [];
    setProducts(found);
    // The name typed (and still there) is a catalogue product's: what the catalogue knows of it fills in.
    const typed = (formRef.current?.elements.namedItem('product') as HTMLInputElement | null)?.value ?? '';
    const picked = found.find((candidate) => candidate.productName.toLowerCase() === typed.trim().toLowerCase());
    if (picked && typed === text && !record) prefill(picked);
  }

  /** What the catalogue knows of a product, into the new record's fields. */
  function prefill(product: Product) {
    const fields = formRef.current?.elements;
    if (!fields) return;
    const set = (name: string, value: string) => {
      const field = fields.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
      if (touched.current.has(name)) return;
      // A select takes only a value it offers (a currency without a rate here is not one).
      if (field instanceof HTMLSelectElement && ![...field.options].some((option) => option.value === value)) return;
      if (field) field.value = value;
    };
    if (product.price) {
      set('price', product.price.amount);
      set('price_type', product.price.currency);
    }
    set('billing_cycle', product.billingCycle);
    set('billing_frequency', String(product.billingFrequency));
    set('category_id', product.categoryId);
  }

  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const name = text('product');
    const [folderId, paymentModeId, categoryId, alert] = [
      'folder_id',
      'payment_mode_id',
      'category_id',
      'alert_id',
    ].map(text);
    const tags = text('tags')
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '');
    const product = products.find((candidate) => candidate.productName.toLowerCase() === name.toLowerCase());
    // Cleared on edit (null), left out on create when empty.
    const optional = <T,>(value: T | '', cleared: T | null = null) =>
      value !== '' ? value : record ? cleared : undefined;
    // The same name keeps the record's product (a clone's too); another is a catalogue product or a private one.
    const sameProduct = source && name === source.productName && details?.product;
    const input: CreateSubscriptionInput = {
      ...(product
        ? { productId: product.id }
        : sameProduct
          ? record
            ? {}
            : { productId: sameProduct.id }
          : { productName: name }),
      price: text('price'),
      currency: text('price_type').toUpperCase(),
      billingCycle: text('billing_cycle') as BillingCycle,
      billingFrequency: Number(form.get('billing_frequency')),
      paymentDate: text('payment_date'),
      type: text('type') as RecordType,
      folderId: optional(folderId),
      paymentModeId: optional(paymentModeId),
      categoryId: optional(categoryId),
      ...(alert === KEEP_ALERT ? {} : { alertId: alert === NO_ALERT ? null : alert }),
      note: optional(text('note')),
      discountVoucher: optional(text('discount_voucher')),
      rating: Number(form.get('rating') ?? 0),
      contractExpiry: optional(text('contract_expiry')),
      contractNoticeDays: optional(text('contract_notice_days') === '' ? '' : Number(text('contract_notice_days'))),
      ...(record || tags.length > 0 ? { tagNames: tags } : {}),
    };
    for (const key of Object.keys(input) as Array<keyof CreateSubscriptionInput>)
      if (input[key] === undefined) delete input[key];
    const logo = form.get('logo');
    await action.run(async () => {
      let id = record?.id;
      if (record)
        await gql<UpdateSubscriptionMutation, UpdateSubscriptionMutationVariables>(UPDATE, {
          input: { ...input, id: record.id },
        });
      else
        id = (await gql<CreateSubscriptionMutation, CreateSubscriptionMutationVariables>(CREATE, { input }))
          .createSubscription.subscription?.id;
      // The record is saved first: a logo is uploaded for a record that exists.
      const file = logo instanceof File && logo.size > 0 ? logo : null;
      if (file && id !== undefined)
        await gqlUpload<UploadRecordLogoMutation, UploadRecordLogoMutationVariables>(
          UPLOAD_LOGO,
          { input: { id, file } },
          'input.file',
        );
      const saved = t(record ? 'subscriptions:done.saved' : 'subscriptions:done.added', { name });
      onDone(file && id !== undefined ? `${saved}. ${t('logos:uploaded', { name })}` : saved);
    });
  }

  /** Takes the record's own logo off: its product's shows again, or the monogram. */
  async function removeLogo() {
    if (!record) return;
    await action.run(async () => {
      await gql<RemoveRecordLogoMutation, RemoveRecordLogoMutationVariables>(REMOVE_LOGO, { input: { id: record.id } });
      onDone(t('logos:removed', { name: record.productName }));
    });
  }

  const title = record
    ? t('subscriptions:editNamed', { name: record.productName })
    : template
      ? t('subscriptions:cloneNamed', { name: template.productName })
      : t('subscriptions:addSubscription');
  if (details === undefined)
    return <p aria-busy="true">{t('subscriptions:loadingNamed', { name: source?.productName })}</p>;
  // The selects' choices (and the base currency a new record starts in) come first: drawn before them (a form
  // opened as the screen opens), a choice made at once was undone when they arrived.
  if (!links.loaded) return <p aria-busy="true">{t('common:loading')}</p>;
  return (
    <form
      class="card"
      ref={formRef}
      onSubmit={submit}
      onInput={(event) => {
        const { name } = event.target as HTMLInputElement;
        if (name !== 'product') touched.current.add(name);
      }}
      aria-label={title}
    >
      <h2>{title}</h2>
      <div class="grid">
        <Field
          label={t('subscriptions:field.product')}
          name="product"
          required
          list="catalogue"
          autoComplete="off"
          defaultValue={source?.productName}
          onInput={(event) => void lookUp(event.currentTarget.value)}
          errors={action.errors}
          hint={t('subscriptions:field.productHint')}
        />
        <datalist id="catalogue">
          {products.map((product) => (
            <option key={product.id} value={product.productName} />
          ))}
        </datalist>
        <div class="field logo-field">
          {record && (
            <p>
              <Logo name={record.productName} src={details?.logo} size={48} />
              {/* Its own upload differs from its product's logo: that one can be taken off. */}
              {details?.logo && details.logo !== details.product?.logo && (
                <button
                  type="button"
                  class="link"
                  aria-label={t('logos:removeNamed', { name: record.productName })}
                  disabled={action.busy}
                  onClick={() => void removeLogo()}
                >
                  {t('logos:remove')}
                </button>
              )}
            </p>
          )}
          <Field
            label={t('logos:upload')}
            name="logo"
            type="file"
            accept="image/png,image/jpeg,image/webp"
            hint={t('logos:uploadHint')}
          />
        </div>
        <Field
          label={t('subscriptions:field.price')}
          name="price"
          inputMode="decimal"
          required
          defaultValue={source?.price.amount}
          errors={action.errors}
        />
        <Select
          label={t('subscriptions:field.currency')}
          name="price_type"
          options={currencyChoices(links, source?.price.currency)}
          initial={source?.price.currency ?? links.me.baseCurrency}
          errors={action.errors}
        />
        <Select
          label={t('subscriptions:field.type')}
          name="type"
          options={recordTypes()}
          initial={source?.type ?? 'SUBSCRIPTION'}
          errors={action.errors}
        />
        <Select
          label={t('subscriptions:field.billingCycle')}
          name="billing_cycle"
          options={billingCycles()}
          initial={source?.billingCycle ?? 'MONTHLY'}
          errors={action.errors}
        />
        <Field
          label={t('subscriptions:field.every')}
          name="billing_frequency"
          type="number"
          min={1}
          required
          defaultValue={String(source?.billingFrequency ?? 1)}
          errors={action.errors}
        />
        <Field
          label={t('subscriptions:field.firstPayment')}
          name="payment_date"
          type="date"
          required
          defaultValue={source?.paymentDate}
          errors={action.errors}
        />
        <Select
          label={t('subscriptions:field.category')}
          name="category_id"
          options={choices(links.productCategories, t('common:none'))}
          initial={details?.category?.id ?? ''}
          errors={action.errors}
        />
        <Select
          label={t('subscriptions:field.folder')}
          name="folder_id"
          options={choices(links.folders, t('common:none'))}
          initial={String(source?.folder?.id ?? '')}
          errors={action.errors}
        />
        <Select
          label={t('subscriptions:field.paymentMode')}
          name="payment_mode_id"
          options={choices(links.paymentModes, t('common:none'))}
          initial={String(source?.paymentMode?.id ?? '')}
          errors={action.errors}
        />
        <Select
          label={t('subscriptions:field.alert')}
          name="alert_id"
          options={{
            [KEEP_ALERT]: record ? t('subscriptions:field.alertAsItIs') : t('subscriptions:field.alertDefault'),
            [NO_ALERT]: t('subscriptions:field.noAlert'),
            ...Object.fromEntries(links.alerts.map((alert) => [alert.id, alert.name])),
          }}
          initial={KEEP_ALERT}
          errors={action.errors}
        />
        <Field
          label={t('subscriptions:field.tags')}
          name="tags"
          defaultValue={source?.tags.map((tag) => tag.name).join(', ')}
          errors={action.errors}
          hint={t('subscriptions:field.tagsHint')}
        />
        <Select
          label={t('subscriptions:field.rating')}
          name="rating"
          options={ratings()}
          initial={String(details?.rating ?? 0)}
          errors={action.errors}
        />
        <Field
          label={t('subscriptions:field.contractEnds')}
          name="contract_expiry"
          type="date"
          defaultValue={details?.contractExpiry ?? ''}
          errors={action.errors}
        />
        <Field
          label={t('subscriptions:field.noticeDays')}
          name="contract_notice_days"
          type="number"
          min={0}
          defaultValue={details?.contractNoticeDays === null || !details ? '' : String(details.contractNoticeDays)}
          errors={action.errors}
          hint={t('subscriptions:field.noticeHint')}
        />
        <Field
          label={t('subscriptions:field.discountVoucher')}
          name="discount_voucher"
          maxLength={200}
          defaultValue={details?.discountVoucher ?? ''}
          errors={action.errors}
        />
        <div class="field">
          <label for="field-note">{t('subscriptions:field.notes')}</label>
          <textarea id="field-note" name="note" rows={2} maxLength={5000} defaultValue={details?.note ?? ''} />
        </div>
      </div>
      <Notice outcome={action.outcome} />
      <button type="submit" disabled={action.busy}>
        {record ? t('common:save') : t('common:add')}
      </button>
      <button type="button" class="link" onClick={onCancel}>
        {t('common:close')}
      </button>
    </form>
  );
}

/** An add-on (an extra paid on top of a record): its price, currency and first payment. */
function AddonForm({ main, onDone, onCancel }: { main: Row; onDone: (message: string) => void; onCancel: () => void }) {
  const action = useAction();
  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    await action.run(async () => {
      const input = {
        price: String(form.get('price')),
        currency: String(form.get('price_type')).toUpperCase(),
        paymentDate: String(form.get('payment_date')),
      };
      await gql<AddAddonMutation, AddAddonMutationVariables>(ADDON, { input: { ...input, mainRecordId: main.id } });
      onDone(t('subscriptions:done.addonAdded', { name: main.productName }));
    });
  }
  return (
    <form class="card" onSubmit={submit} aria-label={t('subscriptions:addonNamed', { name: main.productName })}>
      <h2>{t('subscriptions:addonTo', { name: main.productName })}</h2>
      <div class="grid">
        <Field
          label={t('subscriptions:field.price')}
          name="price"
          inputMode="decimal"
          required
          errors={action.errors}
        />
        <Field
          label={t('subscriptions:field.currency')}
          name="price_type"
          required
          maxLength={3}
          defaultValue={main.price.currency}
          errors={action.errors}
        />
        <Field
          label={t('subscriptions:field.firstPayment')}
          name="payment_date"
          type="date"
          required
          errors={action.errors}
        />
      </div>
      <Notice outcome={action.outcome} />
      <button type="submit" disabled={action.busy}>
        {t('subscriptions:addAddon')}
      </button>
      <button type="button" class="link" onClick={onCancel}>
        {t('common:close')}
      </button>
    </form>
  );
}
