import { useEffect, useState } from 'preact/hooks';

import { gql, session } from './api';
import { calendarDate, cents, localToday, money, moneyOf, monthTitle, pad } from './format';
import type {
  MarkPaymentPaidMutation,
  MarkPaymentPaidMutationVariables,
  OverdueLogosQuery,
  OverdueLogosQueryVariables,
  OverviewQuery,
  OverviewQueryVariables,
} from './graphql.generated';
import { t } from './i18n';
import { PAID } from './ledger';
import { useLiveReload } from './live';
import { Logo } from './logo';
import { changeThen, Notice, Section, useAction } from './ui';

type Overview = OverviewQuery;
type Overdue = Overview['paymentEntries']['nodes'][number];

/** How many days ahead the next payments look, and how many of them and of the overdue ones are shown. */
const NEXT_DAYS = 30;
const SHOWN = 6;

// The whole first screen in one request: the month's figures and budgets, what is due soon, what is overdue.
const OVERVIEW = /* GraphQL */ `
  query Overview($days: Int!, $overdueTo: LocalDate!, $shown: Int!) {
    spendingSummary(groupBy: CATEGORY) {
      baseCurrency
      monthlyTotal {
        amount
        currency
      }
      yearlyTotal {
        amount
        currency
      }
      plannedTotal {
        amount
        currency
      }
      paidTotal {
        amount
        currency
      }
      budget {
        amount
        currency
      }
      groups {
        key
        label
        paidTotal {
          amount
          currency
        }
        budget {
          amount
          currency
        }
      }
    }
    upcomingPayments(days: $days) {
      id
      productName
      logo
      nextPaymentDate
      price {
        amount
        currency
      }
    }
    paymentEntries(filter: { status: PENDING, to: $overdueTo }, last: $shown) {
      totalCount
      nodes {
        id
        subscriptionId
        productName
        dueDate
        expectedAmount {
          amount
          currency
        }
      }
    }
    subscriptions(first: 1) {
      totalCount
    }
  }
`;

// The logos of overdue payments' records that are not due next (those of the next payments are known).
const LOGOS = /* GraphQL */ `
  query OverdueLogos($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on SubscriptionRecord {
        id
        logo
      }
    }
  }
`;

/** The calendar day before a date (YYYY-MM-DD). */
function dayBefore(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  const before = new Date(Date.UTC(year, month - 1, day - 1));
  return `${before.getUTCFullYear()}-${pad(before.getUTCMonth() + 1)}-${pad(before.getUTCDate())}`;
}

const askOverview = () =>
  gql<OverviewQuery, OverviewQueryVariables>(OVERVIEW, {
    days: NEXT_DAYS,
    overdueTo: dayBefore(localToday()),
    shown: SHOWN,
  });

/**
 * The answer asked for at startup, while the language's catalogue loads, with the token it was asked with: the
 * first load takes it unless someone else signed in meanwhile (that token was refused or logged out).
 */
let early: { token: string | null; answer: Promise<OverviewQuery> } | null = null;

/** Asks for the overview before the first render: the first screen paints one round trip sooner. */
export function askOverviewEarly(): void {
  early = { token: session.token, answer: askOverview() };
  // Its failure is the first load's to report.
  early.answer.catch(() => undefined);
}

/** The first screen: this month's figures, what is overdue and due next, the budgets, the totals. */
export function Overview() {
  const [overview, setOverview] = useState<Overview | null>(null);
  // Each record's logo by its id (null: a monogram).
  const [logos, setLogos] = useState<Map<string, string | null>>(new Map());
  const action = useAction();
  const load = async () => {
    const answer = await (early?.token === session.token ? early.answer : askOverview());
    early = null;
    const known = new Map(answer.upcomingPayments.map((record) => [record.id, record.logo]));
    setLogos(known);
    setOverview(answer);
    // Painted first with monograms: the few overdue records not due next fetch their logos afterwards.
    const missing = [...new Set(answer.paymentEntries.nodes.map((entry) => entry.subscriptionId))].filter(
      (id) => !known.has(id),
    );
    if (missing.length === 0) return;
    const { nodes } = await gql<OverdueLogosQuery, OverdueLogosQueryVariables>(LOGOS, { ids: missing });
    for (const node of nodes) if (node && 'logo' in node) known.set(node.id, node.logo);
    setLogos(new Map(known));
  };
  useEffect(() => {
    void action.run(load);
  }, []);
  useLiveReload(['records', 'budgets'], load);
  const apply = changeThen(load);

  const markPaid = (entry: Overdue) =>
    void action.run(
      apply<MarkPaymentPaidMutation, MarkPaymentPaidMutationVariables>(
        PAID,
        { input: { id: entry.id } },
        t('overview:markedPaid', { name: entry.productName }),
      ),
    );

  const title = t('overview:title');
  if (!overview)
    return (
      <Section title={title}>
        <Notice outcome={action.outcome} />
      </Section>
    );
  if (overview.subscriptions.totalCount === 0)
    return (
      <Section title={title}>
        <Notice outcome={action.outcome} />
        <div class="card empty-start">
          <h2>{t('overview:emptyTitle')}</h2>
          <p>{t('overview:emptyText')}</p>
          <a class="button" href="#/subscriptions/new">
            {t('overview:addFirst')}
          </a>
        </div>
      </Section>
    );

  const summary = overview.spendingSummary;
  const base = summary.baseCurrency;
  const [year, month] = localToday().split('-').map(Number);
  // Still due: what the month plans less what was paid in it, never below nothing.
  const stillDue = Math.max(0, cents(summary.plannedTotal.amount) - cents(summary.paidTotal.amount));
  const budgets = [
    ...(summary.budget
      ? [{ key: 'overall', label: t('overview:overallBudget'), paid: summary.paidTotal, budget: summary.budget }]
      : []),
    ...summary.groups.flatMap((group) =>
      group.budget ? [{ key: group.key, label: group.label, paid: group.paidTotal, budget: group.budget }] : [],
    ),
  ];
  const overdue = [...overview.paymentEntries.nodes].reverse();
  const moreOverdue = overview.paymentEntries.totalCount - overdue.length;
  const next = overview.upcomingPayments.slice(0, SHOWN);

  return (
    <Section title={title}>
      <Notice outcome={action.outcome} />
      <h2 id="overview-month">{monthTitle(year, month)}</h2>
      <dl class="figures" aria-labelledby="overview-month" data-testid="month-figures">
        <div>
          <dt>{t('overview:planned')}</dt>
          <dd>{moneyOf(summary.plannedTotal)}</dd>
        </div>
        <div>
          <dt>{t('overview:paid')}</dt>
          <dd>{moneyOf(summary.paidTotal)}</dd>
        </div>
        <div>
          <dt>{t('overview:stillDue')}</dt>
          <dd>{money(stillDue / 100, base)}</dd>
        </div>
      </dl>
      <p class="totals" data-testid="overview-totals">
        {t('overview:totals', { month: moneyOf(summary.monthlyTotal), year: moneyOf(summary.yearlyTotal) })}
      </p>

      <div class="overview-columns">
        <section aria-labelledby="overview-overdue">
          <h2 id="overview-overdue">{t('overview:overdueTitle')}</h2>
          {overdue.length === 0 ? (
            <p>{t('overview:noOverdue')}</p>
          ) : (
            <ul class="payment-list" aria-labelledby="overview-overdue">
              {overdue.map((entry) => {
                const due = calendarDate(entry.dueDate);
                return (
                  <li key={entry.id}>
                    <Logo name={entry.productName} src={logos.get(entry.subscriptionId)} />
                    <span class="payment-name">
                      <strong>{entry.productName}</strong>
                      <small>{t('overview:dueOn', { date: due })}</small>
                    </span>
                    <span class="payment-amount">{moneyOf(entry.expectedAmount)}</span>
                    <button
                      type="button"
                      disabled={action.busy}
                      aria-label={t('overview:markPaidLabel', { name: entry.productName, date: due })}
                      onClick={() => markPaid(entry)}
                    >
                      {t('overview:markPaid')}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          {moreOverdue > 0 && (
            <p>
              <a href="#/payments">{t('overview:moreOverdue', { count: moreOverdue })}</a>
            </p>
          )}
        </section>

        <section aria-labelledby="overview-next">
          <h2 id="overview-next">{t('overview:nextTitle')}</h2>
          {next.length === 0 ? (
            <p>{t('overview:noNext', { count: NEXT_DAYS })}</p>
          ) : (
            <ul class="payment-list" aria-labelledby="overview-next">
              {next.map((record) => (
                <li key={record.id}>
                  <Logo name={record.productName} src={record.logo} />
                  <span class="payment-name">
                    <strong>{record.productName}</strong>
                    <small>
                      {record.nextPaymentDate &&
                        calendarDate(record.nextPaymentDate, { weekday: 'short', day: 'numeric', month: 'short' })}
                    </small>
                  </span>
                  <span class="payment-amount">{moneyOf(record.price)}</span>
                </li>
              ))}
            </ul>
          )}
          <p>
            <a href="#/upcoming">{t('overview:allUpcoming')}</a>
          </p>
        </section>
      </div>

      <section aria-labelledby="overview-budgets">
        <h2 id="overview-budgets">{t('overview:budgetsTitle')}</h2>
        {budgets.length === 0 ? (
          <p>
            {t('overview:noBudget')} <a href="#/spending">{t('overview:setBudget')}</a>
          </p>
        ) : (
          <ul class="budget-bars" aria-labelledby="overview-budgets">
            {budgets.map((row) => {
              const spent = cents(row.paid.amount);
              const limit = cents(row.budget.amount);
              const share = limit > 0 ? Math.min(100, (spent / limit) * 100) : 100;
              const over = spent > limit;
              return (
                <li key={row.key} class={over ? 'over' : undefined}>
                  <span class="budget-label">{row.label}</span>
                  <span class="budget-figure">
                    {over
                      ? t('overview:overBudget', { spent: moneyOf(row.paid), budget: moneyOf(row.budget) })
                      : t('overview:ofBudget', { spent: moneyOf(row.paid), budget: moneyOf(row.budget) })}
                  </span>
                  <span class="bar" aria-hidden="true">
                    <span style={{ width: `${share}%` }} />
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <p>
        <a href="#/statistics">{t('overview:toStatistics')}</a>
      </p>
    </Section>
  );
}
