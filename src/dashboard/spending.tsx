import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import { gql } from './api';
import { money } from './format';
import { Columns, Notice, Section, Select, useAction } from './ui';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

interface Summary {
  baseCurrency: string;
  monthlyTotal: string;
  yearlyTotal: string;
  groups: Array<{ key: string; label: string; count: number; monthlyTotal: string; periodTotal: string }>;
}

const SPENDING =
  'query($groupBy: SpendingGroupBy!) { spendingSummary(groupBy: $groupBy) { baseCurrency monthlyTotal yearlyTotal groups { key label count monthlyTotal periodTotal } } }';
const GROUPINGS = { CATEGORY: 'Category', FOLDER: 'Folder', CURRENCY: 'Currency', MONTH: 'Month' };

/** What the active records cost a month, in the base currency, by the chosen grouping: a chart and its table. */
export function Spending() {
  const [groupBy, setGroupBy] = useState<keyof typeof GROUPINGS>('CATEGORY');
  const [summary, setSummary] = useState<Summary | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart | null>(null);
  const action = useAction();

  useEffect(() => {
    void action.run(async () => setSummary((await gql<{ spendingSummary: Summary }>(SPENDING, { groupBy })).spendingSummary));
  }, [groupBy]);

  const value = (group: Summary['groups'][number]) => Number(groupBy === 'MONTH' ? group.periodTotal : group.monthlyTotal);
  useEffect(() => {
    if (!summary || !canvas.current) return;
    chart.current?.destroy();
    const color = getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() || '#4f46e5';
    chart.current = new Chart(canvas.current, {
      type: 'bar',
      data: { labels: summary.groups.map((group) => group.label), datasets: [{ label: 'Cost', data: summary.groups.map(value), backgroundColor: color }] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: { tooltip: { callbacks: { label: (item) => money(item.parsed.y ?? 0, summary.baseCurrency) } } },
      },
    });
  }, [summary]);

  const description = summary?.groups.map((group) => `${group.label} ${money(value(group), summary.baseCurrency)}`).join(', ');
  return (
    <Section title="Spending">
      <Select
        label="Group by"
        name="group_by"
        options={GROUPINGS}
        value={groupBy}
        onChange={(event) => setGroupBy(event.currentTarget.value as keyof typeof GROUPINGS)}
      />
      <Notice outcome={action.outcome} />
      {summary && (
        <>
          <p class="totals" data-testid="spending-total">
            {money(summary.monthlyTotal, summary.baseCurrency)} a month · {money(summary.yearlyTotal, summary.baseCurrency)} a year
          </p>
          <div class="chart">
            <canvas ref={canvas} role="img" aria-label={`Cost by ${GROUPINGS[groupBy].toLowerCase()}: ${description || 'nothing active'}`} />
          </div>
          <table>
            <Columns names={[GROUPINGS[groupBy], 'Records', groupBy === 'MONTH' ? 'Paid in the month' : 'A month']} />
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
    </Section>
  );
}
