import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import { Budgets } from './budgets';
import { ChartCanvas } from './chart';
import { money, moneyOf } from './format';
import type {
  HouseholdMembersQuery,
  HouseholdMembersQueryVariables,
  SpendingGroupBy,
  SpendingSummaryQuery,
  SpendingSummaryQueryVariables,
} from './graphql.generated';
import { t } from './i18n';
import { Columns, Notice, Section, Select, useAction } from './ui';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

type Summary = SpendingSummaryQuery['spendingSummary'];
type Household = HouseholdMembersQuery['households'][number];

const SPENDING = /* GraphQL */ `
  query SpendingSummary($groupBy: SpendingGroupBy!, $view: SpendingView!, $householdId: ID, $memberId: ID) {
    spendingSummary(groupBy: $groupBy, view: $view, householdId: $householdId, memberId: $memberId) {
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
        count
        monthlyTotal {
          amount
          currency
        }
        periodTotal {
          amount
          currency
        }
      }
    }
  }
`;
const HOUSEHOLDS = /* GraphQL */ `
  query HouseholdMembers {
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
const groupings = (): Record<SpendingGroupBy, string> => ({
  CATEGORY: t('spending:group.CATEGORY'),
  FOLDER: t('spending:group.FOLDER'),
  CURRENCY: t('spending:group.CURRENCY'),
  MONTH: t('spending:group.MONTH'),
});
/** The chart's name: what it groups by, and each group's figure. */
const costBy = (groupBy: SpendingGroupBy, groups: string): string =>
  ({
    CATEGORY: () => t('spending:costBy.CATEGORY', { groups }),
    FOLDER: () => t('spending:costBy.FOLDER', { groups }),
    CURRENCY: () => t('spending:costBy.CURRENCY', { groups }),
    MONTH: () => t('spending:costBy.MONTH', { groups }),
  })[groupBy]();

/** Whose spending: the select's values ("OWN", "MY_SHARE", "<household>" or "<household>:<member>") and their variables. */
function viewsOf(households: Household[]): Record<string, string> {
  const views: Record<string, string> = { OWN: t('spending:myRecords'), MY_SHARE: t('spending:myShare') };
  for (const household of households) {
    views[`${household.id}`] = t('spending:everyone', { household: household.name });
    for (const member of household.members)
      views[`${household.id}:${member.id}`] = t('spending:member', { household: household.name, member: member.name });
  }
  return views;
}
function variablesOf(view: string): Omit<SpendingSummaryQueryVariables, 'groupBy'> {
  if (view === 'OWN' || view === 'MY_SHARE') return { view };
  // Global ids hold no colon (base64url).
  const [householdId, memberId] = view.split(':');
  return { view: 'HOUSEHOLD', householdId, memberId: memberId ?? null };
}

/** The theme's accent colour, which the bars take. */
const accent = () => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() || '#4f46e5';

/** What the active records cost (yours, your share, or a household's), by the chosen grouping: a chart, its table, and the budgets. */
export function Spending() {
  const [groupBy, setGroupBy] = useState<SpendingGroupBy>('CATEGORY');
  const [view, setView] = useState('OWN');
  const [households, setHouseholds] = useState<Household[]>([]);
  const [summary, setSummary] = useState<Summary | null>(null);
  const action = useAction();

  useEffect(() => {
    void action.run(async () =>
      setHouseholds((await gql<HouseholdMembersQuery, HouseholdMembersQueryVariables>(HOUSEHOLDS)).households),
    );
  }, []);
  const load = async () =>
    setSummary(
      (
        await gql<SpendingSummaryQuery, SpendingSummaryQueryVariables>(SPENDING, {
          groupBy,
          ...variablesOf(view),
        })
      ).spendingSummary,
    );
  useEffect(() => {
    void action.run(load);
  }, [groupBy, view]);

  const value = (group: Summary['groups'][number]) =>
    Number((groupBy === 'MONTH' ? group.periodTotal : group.monthlyTotal).amount);

  const description = summary?.groups
    .map((group) => `${group.label} ${money(value(group), summary.baseCurrency)}`)
    .join(', ');
  return (
    <Section title={t('common:screens.spending')}>
      <div class="list-controls">
        <Select
          label={t('spending:whose')}
          name="view"
          options={viewsOf(households)}
          value={view}
          onChange={(event) => setView(event.currentTarget.value)}
        />
        <Select
          label={t('spending:groupBy')}
          name="group_by"
          options={groupings()}
          value={groupBy}
          onChange={(event) => setGroupBy(event.currentTarget.value as SpendingGroupBy)}
        />
      </div>
      <Notice outcome={action.outcome} />
      {summary && (
        <>
          <p class="totals" data-testid="spending-total">
            {t('spending:totals', { monthly: moneyOf(summary.monthlyTotal), yearly: moneyOf(summary.yearlyTotal) })}
          </p>
          <p class="totals" data-testid="month-figures">
            {t('spending:thisMonth', { planned: moneyOf(summary.plannedTotal), paid: moneyOf(summary.paidTotal) })}
            {summary.budget !== null && t('spending:budget', { amount: moneyOf(summary.budget) })}
          </p>
          <ChartCanvas
            name={costBy(groupBy, description || t('spending:nothingActive'))}
            data={summary}
            config={() => ({
              type: 'bar',
              data: {
                labels: summary.groups.map((group) => group.label),
                datasets: [{ label: t('spending:cost'), data: summary.groups.map(value), backgroundColor: accent() }],
              },
              options: {
                animation: false,
                responsive: true,
                maintainAspectRatio: false,
                plugins: {
                  tooltip: { callbacks: { label: (item) => money(item.parsed.y ?? 0, summary.baseCurrency) } },
                },
              },
            })}
          />
          <table>
            <Columns
              names={[
                groupings()[groupBy],
                t('spending:records'),
                groupBy === 'MONTH' ? t('spending:paidInMonth') : t('spending:aMonth'),
              ]}
            />
            <tbody>
              {summary.groups.map((group) => (
                <tr key={group.key}>
                  <th scope="row">{group.label}</th>
                  <td>{group.count}</td>
                  <td>{money(value(group), summary.baseCurrency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <Budgets onChange={() => action.run(load)} />
    </Section>
  );
}
