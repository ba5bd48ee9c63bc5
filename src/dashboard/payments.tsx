import { useEffect, useState } from 'preact/hooks';

import { allNodes, gql } from './api';
import { calendarDate, localToday, moneyOf, monthRange } from './format';
import type {
  ChangePriceMutation,
  ChangePriceMutationVariables,
  MarkPaymentPaidMutation,
  MarkPaymentPaidMutationVariables,
  MarkPaymentSkippedMutation,
  MarkPaymentSkippedMutationVariables,
  PaymentEntriesQuery,
  PaymentEntryStatus,
  PaymentHouseholdsQuery,
  PaymentHouseholdsQueryVariables,
  PaymentRecordsQuery,
  PaymentRecordsQueryVariables,
  PriceHistoryQuery,
  PriceHistoryQueryVariables,
} from './graphql.generated';
import { t } from './i18n';
import { ledgerEntries, PAID, SKIP } from './ledger';
import { useLiveReload } from './live';
import { changeThen, Columns, Field, Notice, Section, Select, TableWrap, useAction } from './ui';

type Entry = PaymentEntriesQuery['paymentEntries']['nodes'][number];
type PricedRecord = PaymentRecordsQuery['subscriptions']['nodes'][number];
type PriceStep = Extract<
  NonNullable<PriceHistoryQuery['node']>,
  { priceHistory: unknown }
>['priceHistory']['nodes'][number];

const HOUSEHOLDS = /* GraphQL */ `
  query PaymentHouseholds {
    households {
      id
      name
    }
  }
`;
const RECORDS = /* GraphQL */ `
  query PaymentRecords($after: String) {
    subscriptions(first: 100, after: $after, filter: { recurring: [RECURRING] }) {
      nodes {
        id
        productName
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;
// One record's history at a time, a page of 100 steps after another: a hundred records' hundred steps each is
// over the server's cost limit.
const PRICE_HISTORY = /* GraphQL */ `
  query PriceHistory($id: ID!, $after: String) {
    node(id: $id) {
      ... on SubscriptionRecord {
        priceHistory(first: 100, after: $after) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            effectiveFrom
            price {
              amount
              currency
            }
          }
        }
      }
    }
  }
`;
const CHANGE_PRICE = /* GraphQL */ `
  mutation ChangePrice($input: ChangePriceInput!) {
    changePrice(input: $input) {
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
const status = (): Record<PaymentEntryStatus, string> => ({
  PENDING: t('payments:status.PENDING'),
  PAID: t('payments:status.PAID'),
  SKIPPED: t('payments:status.SKIPPED'),
});

/** The payment ledger (what was paid, month by month, yours or a household's) and the records' price changes. */
export function Payments() {
  const [month, setMonth] = useState(localToday().slice(0, 7));
  const [whose, setWhose] = useState('');
  const [entries, setEntries] = useState<Entry[]>([]);
  const [chosen, setChosen] = useState<Entry | null>(null);
  const [households, setHouseholds] = useState<Record<string, string>>({});
  const [records, setRecords] = useState<PricedRecord[]>([]);
  const [recordId, setRecordId] = useState('');
  const [history, setHistory] = useState<{ recordId: string; steps: PriceStep[] } | null>(null);
  const action = useAction();

  const loadEntries = async () => {
    const filter = { ...monthRange(month), householdId: whose || null };
    setEntries(await ledgerEntries(filter));
  };
  const loadRecords = async () => {
    // Every recurring record, however many: the price-change form chooses among all of them.
    const [data, all] = await Promise.all([
      gql<PaymentHouseholdsQuery, PaymentHouseholdsQueryVariables>(HOUSEHOLDS),
      allNodes(
        async (after) =>
          (await gql<PaymentRecordsQuery, PaymentRecordsQueryVariables>(RECORDS, { after })).subscriptions,
      ),
    ]);
    setHouseholds(Object.fromEntries(data.households.map((household) => [household.id, household.name])));
    setRecords(all);
  };
  const loadHistory = async (id: string) => {
    const steps = await allNodes(async (after) => {
      const { node } = await gql<PriceHistoryQuery, PriceHistoryQueryVariables>(PRICE_HISTORY, { id, after });
      return node && 'priceHistory' in node
        ? node.priceHistory
        : { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } };
    });
    setHistory({ recordId: id, steps });
  };
  useEffect(() => {
    void action.run(loadRecords);
  }, []);
  useEffect(() => {
    if (month) void action.run(loadEntries);
  }, [month, whose]);
  const apply = changeThen(loadEntries);
  useLiveReload(['records'], () => month && loadEntries());

  async function recordPayment(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const entry = chosen!;
    const ok = await action.run(
      apply<MarkPaymentPaidMutation, MarkPaymentPaidMutationVariables>(
        PAID,
        {
          input: {
            id: entry.id,
            amount: String(form.get('amount')),
            paidAt: String(form.get('paid_at')),
            note: String(form.get('note')) || null,
          },
        },
        t('payments:paid', { name: entry.productName }),
      ),
    );
    if (ok) setChosen(null);
  }

  async function changePrice(event: Event) {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    const form = new FormData(element);
    const variables: ChangePriceMutationVariables = {
      input: {
        id: String(form.get('record')),
        price: String(form.get('price')),
        effectiveFrom: String(form.get('effective_from')),
      },
    };
    const done = await action.run(async () => {
      await gql<ChangePriceMutation, ChangePriceMutationVariables>(CHANGE_PRICE, variables);
      await Promise.all([loadHistory(variables.input.id), loadEntries()]);
      return t('payments:priceChangeSaved');
    });
    // The record stays chosen (its history shows below); the change's own fields are emptied.
    if (done)
      for (const name of ['price', 'effective_from']) (element.elements.namedItem(name) as HTMLInputElement).value = '';
  }

  const chosenRecord = recordId || (records[0]?.id ?? '');
  const historyOf = records.find((record) => record.id === chosenRecord);
  useEffect(() => {
    if (chosenRecord) void action.run(() => loadHistory(chosenRecord));
  }, [chosenRecord]);
  return (
    <Section title={t('common:screens.payments')}>
      <div class="list-controls">
        <Field
          label={t('payments:month')}
          name="month"
          type="month"
          value={month}
          onInput={(event) => setMonth(event.currentTarget.value)}
        />
        <Select
          label={t('payments:whose')}
          name="whose"
          options={{ '': t('payments:myRecords'), ...households }}
          value={whose}
          onChange={(event) => setWhose(event.currentTarget.value)}
        />
      </div>
      <Notice outcome={action.outcome} />
      {chosen && (
        <form class="card" onSubmit={recordPayment} aria-label={t('payments:recordAPayment')}>
          <p>{t('payments:dueOn', { name: chosen.productName, date: calendarDate(chosen.dueDate) })}</p>
          <div class="grid">
            <Field
              label={t('payments:amountPaid')}
              name="amount"
              inputMode="decimal"
              required
              defaultValue={(chosen.paidAmount ?? chosen.expectedAmount).amount}
              errors={action.errors}
            />
            <Field
              label={t('payments:paidOn')}
              name="paid_at"
              type="date"
              required
              defaultValue={chosen.paidAt ?? localToday()}
              errors={action.errors}
            />
            <Field label={t('payments:note')} name="note" defaultValue={chosen.note ?? ''} errors={action.errors} />
          </div>
          <button type="submit" disabled={action.busy}>
            {t('payments:recordPayment')}
          </button>
          <button type="button" class="link" onClick={() => setChosen(null)}>
            {t('common:cancel')}
          </button>
        </form>
      )}
      {entries.length === 0 && <p>{t('payments:nothingDue')}</p>}
      <TableWrap label={t('common:screens.payments')}>
        <table aria-label={t('common:screens.payments')}>
          <Columns
            names={[
              t('payments:column.record'),
              t('payments:column.due'),
              t('payments:column.expected'),
              t('payments:column.status'),
              t('payments:column.paid'),
              '',
            ]}
          />
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <th scope="row">{entry.productName}</th>
                <td>{calendarDate(entry.dueDate)}</td>
                <td>{moneyOf(entry.expectedAmount)}</td>
                <td>{status()[entry.status]}</td>
                <td>
                  {entry.paidAmount === null
                    ? '—'
                    : t('payments:paidAmountOn', {
                        amount: moneyOf(entry.paidAmount),
                        date: calendarDate(entry.paidAt!),
                      })}
                </td>
                <td class="actions">
                  <button
                    type="button"
                    aria-label={t('payments:recordPaymentOf', {
                      name: entry.productName,
                      date: calendarDate(entry.dueDate),
                    })}
                    onClick={() => setChosen(entry)}
                  >
                    {t('payments:recordPayment')}
                  </button>
                  <button
                    type="button"
                    class="link"
                    aria-label={t('payments:skipOf', { name: entry.productName, date: calendarDate(entry.dueDate) })}
                    onClick={() =>
                      void action.run(
                        apply<MarkPaymentSkippedMutation, MarkPaymentSkippedMutationVariables>(
                          SKIP,
                          { input: { id: entry.id } },
                          t('payments:skipped', { name: entry.productName }),
                        ),
                      )
                    }
                  >
                    {t('payments:skip')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <h2>{t('payments:priceChanges')}</h2>
      <form class="card" onSubmit={changePrice} aria-label={t('payments:changeAPrice')}>
        <div class="grid">
          <Select
            label={t('payments:record')}
            name="record"
            options={Object.fromEntries(records.map((record) => [record.id, record.productName]))}
            value={chosenRecord}
            onChange={(event) => setRecordId(event.currentTarget.value)}
            errors={action.errors}
          />
          <Field label={t('payments:newPrice')} name="price" inputMode="decimal" required errors={action.errors} />
          <Field label={t('payments:from')} name="effective_from" type="date" required errors={action.errors} />
        </div>
        <button type="submit" disabled={action.busy || records.length === 0}>
          {t('payments:savePriceChange')}
        </button>
      </form>
      {historyOf && history?.recordId === historyOf.id && (
        <table aria-label={t('payments:priceHistoryOf', { name: historyOf.productName })}>
          <Columns names={[t('payments:from'), t('payments:price')]} />
          <tbody>
            {history.steps.map((step) => (
              <tr key={step.effectiveFrom}>
                <th scope="row">{calendarDate(step.effectiveFrom)}</th>
                <td>{moneyOf(step.price)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
