import { useEffect, useRef, useState } from 'preact/hooks';

import { gql } from './api';
import { BILLING_CYCLES, billingWording, calendarDate, moneyOf, RECORD_STATUSES, RECORD_TYPES } from './format';
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
  RecordStatus,
  RecordType,
  RefundSubscriptionMutation,
  RefundSubscriptionMutationVariables,
  RestoreSubscriptionMutation,
  RestoreSubscriptionMutationVariables,
  SubscriptionFilter,
  SubscriptionOrderField,
  SubscriptionsPageQuery,
  SubscriptionsPageQueryVariables,
  UpdateSubscriptionMutation,
  UpdateSubscriptionMutationVariables,
} from './graphql.generated';
import { useLiveReload } from './live';
import { changeThen, Field, Notice, Pager, Section, Select, useAction, useCursorPages } from './ui';

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
        }
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
type Sort = `${SubscriptionOrderField} ${OrderDirection}`;
/** Each sortable column both ways, as the sort menu names them (the table's headers toggle the same). */
const SORTS: Partial<Record<Sort, string>> = {
  'PAYMENT_DATE ASC': 'Next payment, soonest first',
  'PAYMENT_DATE DESC': 'Next payment, latest first',
  'PRODUCT_NAME ASC': 'Name, A to Z',
  'PRODUCT_NAME DESC': 'Name, Z to A',
  'PRICE ASC': 'Price, lowest first',
  'PRICE DESC': 'Price, highest first',
  'CREATED_AT DESC': 'Newest first',
  'CREATED_AT ASC': 'Oldest first',
  'STATUS ASC': 'Status, A to Z',
  'STATUS DESC': 'Status, Z to A',
};
const STATUS_FILTER: Record<RecordStatus | '', string> = { '': 'Any status', ...RECORD_STATUSES };
const TYPE_FILTER: Record<RecordType | '', string> = { '': 'Any type', ...RECORD_TYPES };
const CYCLE_FILTER: Record<BillingCycle | '', string> = { '': 'Any billing', ...BILLING_CYCLES };

/** The user's folders, payment modes, tags, categories and alerts: the form's choices and the list's filters. */
function useLinks(): Links {
  const [links, setLinks] = useState<Links>({
    folders: [],
    paymentModes: [],
    tags: [],
    productCategories: [],
    alerts: [],
  });
  useEffect(() => {
    void gql<RecordChoicesQuery, RecordChoicesQueryVariables>(LINKS).then(setLinks, () => undefined);
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
  [question: (name: string) => string, done: string, run: (id: string) => Promise<unknown>]
> = {
  cancel: [
    (name) => `Cancel ${name}? It stops renewing, and no more payments are planned.`,
    'cancelled',
    (id) => gql<CancelSubscriptionMutation, CancelSubscriptionMutationVariables>(CANCEL, { input: { id } }),
  ],
  refund: [
    (name) => `Mark ${name} refunded? It stops renewing, and its payment counts as returned.`,
    'refunded',
    (id) => gql<RefundSubscriptionMutation, RefundSubscriptionMutationVariables>(REFUND, { input: { id } }),
  ],
  delete: [
    (name) => `Delete ${name}? You can undo it right after.`,
    'deleted',
    (id) => gql<DeleteSubscriptionMutation, DeleteSubscriptionMutationVariables>(DELETE, { input: { id } }),
  ],
};

/** The table's columns, and the field each sortable one sorts by. */
const COLUMNS: Array<[string, SubscriptionOrderField | null]> = [
  ['Product', 'PRODUCT_NAME'],
  ['Details', null],
  ['Price', 'PRICE'],
  ['Billing', null],
  ['Next payment', 'PAYMENT_DATE'],
  ['Status', 'STATUS'],
  ['Actions', null],
];

/** The header row: a sortable column's name sorts by it, ascending first, and again the other way. */
function SortingColumns({ sort, onSort }: { sort: Sort; onSort: (sort: Sort) => void }) {
  const [field, direction] = sort.split(' ') as [SubscriptionOrderField, OrderDirection];
  return (
    <thead>
      <tr>
        {COLUMNS.map(([name, by]) => {
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
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
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
  /** A form's work is done: close it, show the list as it is now, and say what happened. */
  const finished = async (message: string) => {
    setEditing(null);
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
            `${row.productName}: restored`,
          ),
        );
      action.setOutcome({
        kind: 'done',
        message: `${row.productName}: ${done}`,
        ...(verb === 'delete' ? { next: { label: 'Undo', run: undo } } : {}),
      });
    }
  }

  return (
    <Section
      title="Subscriptions"
      actions={
        <button type="button" onClick={() => setEditing('new')}>
          Add a subscription
        </button>
      }
    >
      {editing && (
        <RecordForm
          // A new form per record: its fields start from the record and are the form's own afterwards.
          key={editing === 'new' ? 'new' : editing.id}
          record={editing === 'new' ? null : editing}
          onDone={finished}
          onCancel={() => setEditing(null)}
        />
      )}
      {addonFor && <AddonForm key={addonFor.id} main={addonFor} onDone={finished} onCancel={() => setAddonFor(null)} />}
      <form role="search" class="list-controls" onSubmit={(event) => event.preventDefault()}>
        <Field
          label="Search"
          name="search"
          type="search"
          value={query.search}
          onInput={(event) => change({ search: event.currentTarget.value })}
        />
        <Select
          label="Sort by"
          name="sort"
          options={SORTS}
          value={query.sort}
          onChange={(event) => change({ sort: event.currentTarget.value as Sort })}
        />
        <Select
          label="Status"
          name="status_filter"
          options={STATUS_FILTER}
          value={query.status}
          onChange={(event) => change({ status: event.currentTarget.value as RecordStatus | '' })}
        />
        <Select
          label="Type"
          name="type_filter"
          options={TYPE_FILTER}
          value={query.type}
          onChange={(event) => change({ type: event.currentTarget.value as RecordType | '' })}
        />
        <Select
          label="Billing"
          name="cycle_filter"
          options={CYCLE_FILTER}
          value={query.cycle}
          onChange={(event) => change({ cycle: event.currentTarget.value as BillingCycle | '' })}
        />
        {(
          [
            ['folder', 'Folder', links.folders, 'Any folder'],
            ['tag', 'Tag', links.tags, 'Any tag'],
            ['paymentMode', 'Payment method', links.paymentModes, 'Any payment method'],
            ['category', 'Category', links.productCategories, 'Any category'],
            ['alert', 'Alert', links.alerts, 'Any alert'],
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
          label="Per page"
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
            {page.subscriptions.totalCount} {page.subscriptions.totalCount === 1 ? 'record' : 'records'} ·{' '}
            {moneyOf(page.spendingSummary.monthlyTotal)} a month · {moneyOf(page.spendingSummary.yearlyTotal)} a year
          </p>
          <div class="table-wrap">
            <table class="records">
              <SortingColumns sort={query.sort} onSort={(sort) => change({ sort })} />
              <tbody>
                {page.subscriptions.edges.map(({ node }) => (
                  <tr key={node.id}>
                    <th scope="row">{node.productName}</th>
                    <td>
                      {[
                        node.isAddon ? 'Add-on' : null,
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
                    <td>{RECORD_STATUSES[node.status]}</td>
                    <td class="actions">
                      <button type="button" onClick={() => setEditing(node)} aria-label={`Edit ${node.productName}`}>
                        Edit
                      </button>
                      {!node.isAddon && (
                        <button
                          type="button"
                          onClick={() => setAddonFor(node)}
                          aria-label={`Add an add-on to ${node.productName}`}
                        >
                          Add-on
                        </button>
                      )}
                      {node.status === 'ACTIVE' && (
                        <button
                          type="button"
                          onClick={() => lifecycle(node, 'cancel')}
                          aria-label={`Cancel ${node.productName}`}
                        >
                          Cancel
                        </button>
                      )}
                      {node.status === 'ACTIVE' && (
                        <button
                          type="button"
                          onClick={() => lifecycle(node, 'refund')}
                          aria-label={`Refund ${node.productName}`}
                        >
                          Refund
                        </button>
                      )}
                      <button
                        type="button"
                        class="danger"
                        onClick={() => lifecycle(node, 'delete')}
                        aria-label={`Delete ${node.productName}`}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager pages={pages} pageInfo={page.subscriptions.pageInfo} />
        </>
      )}
    </Section>
  );
}

/** Create or edit: the catalogue is searched as the name is typed (the server's search forgives typos). */
function RecordForm({
  record,
  onDone,
  onCancel,
}: {
  record: Row | null;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const action = useAction();
  const [products, setProducts] = useState<Product[]>([]);

  async function lookUp(text: string) {
    if (text.trim().length < 2) return setProducts([]);
    const data = await gql<ProductSuggestionsQuery, ProductSuggestionsQueryVariables>(PRODUCTS, {
      search: text,
    }).catch(() => null);
    setProducts(data?.products.edges.map((edge) => edge.node) ?? []);
  }

  const links = useLinks();

  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const name = String(form.get('product')).trim();
    const folderId = String(form.get('folder_id'));
    const paymentModeId = String(form.get('payment_mode_id'));
    const tags = String(form.get('tags'))
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '');
    const product = products.find((candidate) => candidate.productName.toLowerCase() === name.toLowerCase());
    const input: CreateSubscriptionInput = {
      ...(product ? { productId: product.id } : record && name === record.productName ? {} : { productName: name }),
      price: String(form.get('price')),
      currency: String(form.get('price_type')).toUpperCase(),
      billingCycle: String(form.get('billing_cycle')) as BillingCycle,
      billingFrequency: Number(form.get('billing_frequency')),
      paymentDate: String(form.get('payment_date')),
      type: String(form.get('type')) as RecordType,
      ...(folderId ? { folderId } : {}),
      ...(paymentModeId ? { paymentModeId } : {}),
      ...(record || tags.length > 0 ? { tagNames: tags } : {}),
    };
    await action.run(async () => {
      if (record)
        await gql<UpdateSubscriptionMutation, UpdateSubscriptionMutationVariables>(UPDATE, {
          input: { ...input, id: record.id },
        });
      else await gql<CreateSubscriptionMutation, CreateSubscriptionMutationVariables>(CREATE, { input });
      onDone(record ? `${name}: saved` : `${name}: added`);
    });
  }

  return (
    <form class="card" onSubmit={submit} aria-label={record ? `Edit ${record.productName}` : 'Add a subscription'}>
      <h2>{record ? `Edit ${record.productName}` : 'Add a subscription'}</h2>
      <div class="grid">
        <Field
          label="Product"
          name="product"
          required
          list="catalogue"
          autoComplete="off"
          defaultValue={record?.productName}
          onInput={(event) => void lookUp(event.currentTarget.value)}
          errors={action.errors}
          hint="A catalogue product, or any name"
        />
        <datalist id="catalogue">
          {products.map((product) => (
            <option key={product.id} value={product.productName} />
          ))}
        </datalist>
        <Field
          label="Price"
          name="price"
          inputMode="decimal"
          required
          defaultValue={record?.price.amount}
          errors={action.errors}
        />
        <Field
          label="Currency"
          name="price_type"
          required
          maxLength={3}
          defaultValue={record?.price.currency ?? 'USD'}
          errors={action.errors}
        />
        <Select
          label="Type"
          name="type"
          options={RECORD_TYPES}
          initial={record?.type ?? 'SUBSCRIPTION'}
          errors={action.errors}
        />
        <Select
          label="Billing cycle"
          name="billing_cycle"
          options={BILLING_CYCLES}
          initial={record?.billingCycle ?? 'MONTHLY'}
          errors={action.errors}
        />
        <Field
          label="Every"
          name="billing_frequency"
          type="number"
          min={1}
          required
          defaultValue={String(record?.billingFrequency ?? 1)}
          errors={action.errors}
        />
        <Field
          label="First payment"
          name="payment_date"
          type="date"
          required
          defaultValue={record?.paymentDate}
          errors={action.errors}
        />
        <Select
          label="Folder"
          name="folder_id"
          options={choices(links.folders, 'None')}
          initial={String(record?.folder?.id ?? '')}
          errors={action.errors}
        />
        <Select
          label="Payment mode"
          name="payment_mode_id"
          options={choices(links.paymentModes, 'None')}
          initial={String(record?.paymentMode?.id ?? '')}
          errors={action.errors}
        />
        <Field
          label="Tags"
          name="tags"
          defaultValue={record?.tags.map((tag) => tag.name).join(', ')}
          errors={action.errors}
          hint="Comma-separated; new names become tags"
        />
      </div>
      <Notice outcome={action.outcome} />
      <button type="submit" disabled={action.busy}>
        {record ? 'Save' : 'Add'}
      </button>
      <button type="button" class="link" onClick={onCancel}>
        Close
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
      onDone(`${main.productName}: add-on added`);
    });
  }
  return (
    <form class="card" onSubmit={submit} aria-label={`Add an add-on to ${main.productName}`}>
      <h2>Add-on to {main.productName}</h2>
      <div class="grid">
        <Field label="Price" name="price" inputMode="decimal" required errors={action.errors} />
        <Field
          label="Currency"
          name="price_type"
          required
          maxLength={3}
          defaultValue={main.price.currency}
          errors={action.errors}
        />
        <Field label="First payment" name="payment_date" type="date" required errors={action.errors} />
      </div>
      <Notice outcome={action.outcome} />
      <button type="submit" disabled={action.busy}>
        Add add-on
      </button>
      <button type="button" class="link" onClick={onCancel}>
        Close
      </button>
    </form>
  );
}
