import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  DoughnutController,
  Legend,
  LinearScale,
  Tooltip,
} from 'chart.js';
import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import { ChartCanvas } from './chart';
import { calendarDate, cents, localToday, money, pad } from './format';
import type {
  MemberShareQuery,
  MemberShareQueryVariables,
  StatisticsQuery,
  StatisticsQueryVariables,
} from './graphql.generated';
import { t } from './i18n';
import { useLiveReload } from './live';
import { Logo } from './logo';
import { Columns, Notice, Section, TableWrap, useAction } from './ui';

Chart.register(ArcElement, BarController, BarElement, CategoryScale, DoughnutController, Legend, LinearScale, Tooltip);

// Everything but the members' shares in one request: the months behind and ahead, the year ahead by category
// and by payment (the calendar's payments), the budgets against what was paid.
const STATISTICS = /* GraphQL */ `
  query Statistics($pastFrom: LocalDate!, $pastTo: LocalDate!, $nextFrom: LocalDate!, $nextTo: LocalDate!) {
    past: spendingSummary(groupBy: MONTH, from: $pastFrom, to: $pastTo) {
      baseCurrency
      groups {
        key
        paidTotal {
          amount
        }
        plannedTotal {
          amount
        }
      }
    }
    ahead: spendingSummary(groupBy: MONTH, from: $nextFrom, to: $nextTo) {
      groups {
        key
        plannedTotal {
          amount
        }
      }
    }
    byCategory: spendingSummary(groupBy: CATEGORY, from: $nextFrom, to: $nextTo) {
      groups {
        key
        label
        plannedTotal {
          amount
        }
      }
    }
    budgets: spendingSummary(groupBy: CATEGORY, from: $pastFrom, to: $pastTo) {
      budget {
        amount
      }
      paidTotal {
        amount
      }
      groups {
        key
        label
        budget {
          amount
        }
        paidTotal {
          amount
        }
      }
    }
    calendar(from: $nextFrom, to: $nextTo) {
      key
      subscription {
        id
        productName
        logo
        basePrice {
          amount
        }
        paymentMode {
          id
          name
        }
      }
    }
    households {
      id
      name
      members {
        id
        name
      }
    }
  }
`;
const MEMBER_SHARE = /* GraphQL */ `
  query MemberShare($householdId: ID!, $memberId: ID!, $from: LocalDate!, $to: LocalDate!) {
    spendingSummary(view: HOUSEHOLD, householdId: $householdId, memberId: $memberId, from: $from, to: $to) {
      plannedTotal {
        amount
      }
    }
  }
`;

/** Colours of a chart's parts: at least 3:1 against the page and the cards in the light and the dark theme. */
const PALETTE = ['#2563eb', '#e11d48', '#059669', '#9333ea', '#ea580c', '#0891b2', '#db2777', '#0d9488'];
const colourOf = (index: number) => PALETTE[index % PALETTE.length];
const MOST_EXPENSIVE = 10;

/** A part of a whole: its name (and a record's logo), and cents of the base currency. */
interface Part {
  key: string;
  label: string;
  cents: number;
  logo?: string | null;
}
interface Figures {
  base: string;
  months: Array<{ key: string; paid: number | null; planned: number }>;
  byCategory: Part[];
  byPaymentMethod: Part[];
  byMember: Part[] | null;
  mostExpensive: Part[];
  budgets: Array<{ key: string; label: string; budget: number; paid: number }>;
}

/** The first day (YYYY-MM-01) of the month `offset` months from this one. */
function monthStart(offset: number): string {
  const [year, month] = localToday().split('-').map(Number);
  const first = new Date(Date.UTC(year, month - 1 + offset, 1));
  return `${first.getUTCFullYear()}-${pad(first.getUTCMonth() + 1)}-01`;
}
/** The last day of the month `offset` months from this one. */
function monthEnd(offset: number): string {
  const next = monthStart(offset + 1)
    .split('-')
    .map(Number);
  return new Date(Date.UTC(next[0], next[1] - 1, 0)).toISOString().slice(0, 10);
}
const monthName = (key: string) => calendarDate(`${key}-01`, { month: 'short', year: 'numeric' });

/** Sums of cents by key, largest first. */
function partsBy<T>(items: T[], partOf: (item: T) => Part): Part[] {
  const parts = new Map<string, Part>();
  for (const item of items) {
    const part = partOf(item);
    const sum = parts.get(part.key);
    if (sum) sum.cents += part.cents;
    else parts.set(part.key, { ...part });
  }
  return [...parts.values()].sort((a, b) => b.cents - a.cents);
}

async function figuresOf(): Promise<Figures> {
  const range = { pastFrom: monthStart(-11), pastTo: monthEnd(0), nextFrom: monthStart(0), nextTo: monthEnd(11) };
  const data = await gql<StatisticsQuery, StatisticsQueryVariables>(STATISTICS, range);
  const members = data.households.flatMap((household) => household.members.map((member) => ({ household, member })));
  const shares = await Promise.all(
    members.map(async ({ household, member }) => {
      const { spendingSummary } = await gql<MemberShareQuery, MemberShareQueryVariables>(MEMBER_SHARE, {
        householdId: household.id,
        memberId: member.id,
        from: range.nextFrom,
        to: range.nextTo,
      });
      const label = data.households.length > 1 ? `${household.name}: ${member.name}` : member.name;
      return { key: member.id, label, cents: cents(spendingSummary.plannedTotal.amount) };
    }),
  );
  const paid = new Map(data.past.groups.map((group) => [group.key, group]));
  const ahead = new Map(data.ahead.groups.map((group) => [group.key, group]));
  const months = Array.from({ length: 23 }, (_, index) => {
    const key = monthStart(index - 11).slice(0, 7);
    const past = paid.get(key);
    const planned = index < 11 ? past?.plannedTotal : ahead.get(key)?.plannedTotal;
    return {
      key,
      paid: index <= 11 ? cents(past?.paidTotal.amount ?? '0') : null,
      planned: cents(planned?.amount ?? '0'),
    };
  });
  const payments = data.calendar.map((entry) => entry.subscription);
  const noPaymentMethod = t('statistics:noPaymentMethod');
  return {
    base: data.past.baseCurrency,
    months,
    byCategory: data.byCategory.groups
      .map((group) => ({ key: group.key, label: group.label, cents: cents(group.plannedTotal.amount) }))
      .filter((part) => part.cents > 0)
      .sort((a, b) => b.cents - a.cents),
    byPaymentMethod: partsBy(payments, (record) => ({
      key: record.paymentMode?.id ?? 'NONE',
      label: record.paymentMode?.name ?? noPaymentMethod,
      cents: cents(record.basePrice.amount),
    })),
    byMember: members.length === 0 ? null : shares,
    mostExpensive: partsBy(payments, (record) => ({
      key: record.id,
      label: record.productName,
      logo: record.logo,
      cents: cents(record.basePrice.amount),
    })).slice(0, MOST_EXPENSIVE),
    budgets: [
      ...(data.budgets.budget
        ? [
            {
              key: 'overall',
              label: t('statistics:overallBudget'),
              budget: cents(data.budgets.budget.amount),
              paid: cents(data.budgets.paidTotal.amount),
            },
          ]
        : []),
      ...data.budgets.groups.flatMap((group) =>
        group.budget
          ? [
              {
                key: group.key,
                label: group.label,
                budget: cents(group.budget.amount),
                paid: cents(group.paidTotal.amount),
              },
            ]
          : [],
      ),
    ],
  };
}

/** The statistics: the months behind and ahead, the year ahead by category, payment method and member, the most expensive records, the budgets. */
export function Statistics() {
  const [figures, setFigures] = useState<Figures | null>(null);
  const action = useAction();
  const load = async () => setFigures(await figuresOf());
  useEffect(() => {
    void action.run(load);
  }, []);
  useLiveReload(['records', 'budgets'], load);

  const title = t('statistics:title');
  if (!figures)
    return (
      <Section title={title}>
        <Notice outcome={action.outcome} />
      </Section>
    );
  const base = figures.base;
  const amount = (value: number) => money(value / 100, base);
  return (
    <Section title={title}>
      <Notice outcome={action.outcome} />
      <Months figures={figures} amount={amount} />
      <div class="statistics-donuts">
        <Donut
          id="category"
          title={t('statistics:byCategory')}
          parts={figures.byCategory}
          amount={amount}
          empty={t('statistics:nothingPlanned')}
        />
        <Donut
          id="payment-method"
          title={t('statistics:byPaymentMethod')}
          parts={figures.byPaymentMethod}
          amount={amount}
          empty={t('statistics:nothingPlanned')}
        />
        {figures.byMember ? (
          <Donut
            id="member"
            title={t('statistics:byMember')}
            parts={figures.byMember}
            amount={amount}
            empty={t('statistics:nothingShared')}
          />
        ) : (
          <section aria-labelledby="statistics-member">
            <h2 id="statistics-member">{t('statistics:byMember')}</h2>
            <p>
              {t('statistics:noHousehold')} <a href="#/household">{t('statistics:toHousehold')}</a>
            </p>
          </section>
        )}
      </div>
      <MostExpensive parts={figures.mostExpensive} amount={amount} />
      <BudgetsAgainstPaid budgets={figures.budgets} amount={amount} />
    </Section>
  );
}

/** The last 12 months' payments and the next 12 months' plan, month by month. */
function Months({ figures, amount }: { figures: Figures; amount: (cents: number) => string }) {
  const name = t('statistics:monthsName');
  const config = () =>
    ({
      type: 'bar',
      data: {
        labels: figures.months.map((month) => monthName(month.key)),
        datasets: [
          {
            label: t('statistics:paid'),
            data: figures.months.map((month) => (month.paid === null ? null : month.paid / 100)),
            backgroundColor: colourOf(0),
          },
          {
            label: t('statistics:planned'),
            data: figures.months.map((month) => month.planned / 100),
            backgroundColor: colourOf(1),
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: { y: { ticks: { callback: (value) => amount(Number(value) * 100) } } },
        plugins: {
          tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${amount((item.parsed.y ?? 0) * 100)}` } },
        },
      },
    }) satisfies ChartConfiguration<'bar'>;
  return (
    <section aria-labelledby="statistics-months">
      <h2 id="statistics-months">{t('statistics:monthsTitle')}</h2>
      <ChartCanvas name={name} data={figures.months} config={config} />
      <TableWrap label={t('statistics:monthsTitle')}>
        <table aria-labelledby="statistics-months" data-testid="months-table">
          <Columns names={[t('statistics:month'), t('statistics:paid'), t('statistics:planned')]} />
          <tbody>
            {figures.months.map((month) => (
              <tr key={month.key}>
                <th scope="row">{monthName(month.key)}</th>
                <td>{month.paid === null ? '—' : amount(month.paid)}</td>
                <td>{amount(month.planned)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </section>
  );
}

/** A whole in parts (the next 12 months' plan): a donut, and its table as the legend. */
function Donut({
  id,
  title,
  parts,
  amount,
  empty,
}: {
  id: string;
  title: string;
  parts: Part[];
  amount: (cents: number) => string;
  empty: string;
}) {
  const total = parts.reduce((sum, part) => sum + part.cents, 0);
  const config = () =>
    ({
      type: 'doughnut',
      data: {
        labels: parts.map((part) => part.label),
        datasets: [
          {
            data: parts.map((part) => part.cents / 100),
            backgroundColor: parts.map((_, index) => colourOf(index)),
            borderColor: getComputedStyle(document.body).backgroundColor,
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
          legend: { display: false },
          tooltip: { callbacks: { label: (item) => `${item.label}: ${amount(item.parsed * 100)}` } },
        },
      },
    }) satisfies ChartConfiguration<'doughnut'>;
  const headingId = `statistics-${id}`;
  return (
    <section aria-labelledby={headingId} class="donut">
      <h2 id={headingId}>{title}</h2>
      {total === 0 ? (
        <p>{empty}</p>
      ) : (
        <>
          <ChartCanvas name={t('statistics:donutName', { title })} data={parts} config={config} />
          <table aria-labelledby={headingId} data-testid={`${id}-table`}>
            <Columns names={[t('statistics:name'), t('statistics:nextYear'), t('statistics:share')]} />
            <tbody>
              {parts.map((part, index) => (
                <tr key={part.key}>
                  <th scope="row">
                    <span class="swatch" style={{ background: colourOf(index) }} aria-hidden="true" /> {part.label}
                  </th>
                  <td>{amount(part.cents)}</td>
                  <td>{t('statistics:percent', { value: Math.round((part.cents / total) * 100) })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

/** The records that cost the most over the next 12 months. */
function MostExpensive({ parts, amount }: { parts: Part[]; amount: (cents: number) => string }) {
  return (
    <section aria-labelledby="statistics-expensive">
      <h2 id="statistics-expensive">{t('statistics:mostExpensive')}</h2>
      {parts.length === 0 ? (
        <p>
          {t('statistics:nothingPlanned')} <a href="#/subscriptions">{t('statistics:toRecords')}</a>
        </p>
      ) : (
        <table aria-labelledby="statistics-expensive" data-testid="expensive-table">
          <Columns names={[t('statistics:record'), t('statistics:nextYear'), t('statistics:aMonth')]} />
          <tbody>
            {parts.map((part) => (
              <tr key={part.key}>
                <th scope="row">
                  <span class="named">
                    <Logo name={part.label} src={part.logo} size={24} /> {part.label}
                  </span>
                </th>
                <td>{amount(part.cents)}</td>
                <td>{amount(Math.round(part.cents / 12))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Each budget over the last 12 months against what was paid. */
function BudgetsAgainstPaid({ budgets, amount }: { budgets: Figures['budgets']; amount: (cents: number) => string }) {
  const config = () =>
    ({
      type: 'bar',
      data: {
        labels: budgets.map((budget) => budget.label),
        datasets: [
          {
            label: t('statistics:budget'),
            data: budgets.map((budget) => budget.budget / 100),
            backgroundColor: colourOf(2),
          },
          {
            label: t('statistics:paid'),
            data: budgets.map((budget) => budget.paid / 100),
            backgroundColor: colourOf(0),
          },
        ],
      },
      options: {
        indexAxis: 'y',
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: { x: { ticks: { callback: (value) => amount(Number(value) * 100) } } },
        plugins: {
          tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${amount((item.parsed.x ?? 0) * 100)}` } },
        },
      },
    }) satisfies ChartConfiguration<'bar'>;
  return (
    <section aria-labelledby="statistics-budgets">
      <h2 id="statistics-budgets">{t('statistics:budgetsTitle')}</h2>
      {budgets.length === 0 ? (
        <p>
          {t('statistics:noBudget')} <a href="#/spending">{t('statistics:toSpending')}</a>
        </p>
      ) : (
        <>
          <ChartCanvas name={t('statistics:budgetsName')} data={budgets} config={config} />
          <table aria-labelledby="statistics-budgets" data-testid="budgets-table">
            <Columns
              names={[t('statistics:budgetName'), t('statistics:budget'), t('statistics:paid'), t('statistics:left')]}
            />
            <tbody>
              {budgets.map((budget) => (
                <tr key={budget.key}>
                  <th scope="row">{budget.label}</th>
                  <td>{amount(budget.budget)}</td>
                  <td>{amount(budget.paid)}</td>
                  <td>{amount(budget.budget - budget.paid)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
