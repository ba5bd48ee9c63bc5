import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import { money } from './format';
import { changeThen, Columns, Field, Notice, Select, useAction } from './ui';

interface Budget {
  id: number;
  categoryId: number | null;
  categoryName: string | null;
  amount: string;
  alertId: number | null;
  warnedMonth: string | null;
}

const LOAD = /* GraphQL */ `
  query Budgets {
    budgets {
      id
      categoryId
      categoryName
      amount
      alertId
      warnedMonth
    }
    alerts {
      id
      name
    }
    productCategories {
      id
      name
    }
  }
`;
const SET = /* GraphQL */ `
  mutation SetBudget($input: BudgetInput!) {
    setBudget(input: $input) {
      id
    }
  }
`;
const REMOVE = /* GraphQL */ `
  mutation RemoveBudget($categoryId: Int) {
    removeBudget(categoryId: $categoryId)
  }
`;

/** Monthly budgets (overall and per category), each with the alert whose channels warn when next month's plan exceeds it. */
export function Budgets({ currency, onChange }: { currency: string | null; onChange: () => unknown }) {
  const [budgets, setBudgets] = useState<Budget[]>([]);
  const [alerts, setAlerts] = useState<Record<string, string>>({});
  const [categories, setCategories] = useState<Record<string, string>>({});
  const action = useAction();

  const load = async () => {
    const data = await gql<{
      budgets: Budget[];
      alerts: Array<{ id: number; name: string }>;
      productCategories: Array<{ id: number; name: string }>;
    }>(LOAD);
    setBudgets(data.budgets);
    setAlerts(Object.fromEntries(data.alerts.map((alert) => [String(alert.id), alert.name])));
    setCategories(Object.fromEntries(data.productCategories.map((category) => [String(category.id), category.name])));
  };
  // A budget change shows in the summary's budget figure too.
  const apply = changeThen(async () => Promise.all([load(), onChange()]));
  useEffect(() => {
    void action.run(load);
  }, []);

  async function save(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const optional = (name: string) => (form.get(name) ? Number(form.get(name)) : null);
    const input = {
      amount: String(form.get('amount')),
      categoryId: optional('category_id'),
      alertId: optional('alert_id'),
    };
    await action.run(apply(SET, { input }, 'Budget saved'));
  }

  return (
    <>
      <h2>Budgets</h2>
      <form class="card" onSubmit={save} aria-label="Set a budget">
        <div class="grid">
          <Field label="Monthly budget" name="amount" inputMode="decimal" required errors={action.errors} />
          <Select
            label="For"
            name="category_id"
            options={{ '': 'Everything', ...categories }}
            initial=""
            errors={action.errors}
          />
          <Select
            label="Warn through"
            name="alert_id"
            options={{ '': 'No warning', ...alerts }}
            initial=""
            errors={action.errors}
          />
        </div>
        <button type="submit" disabled={action.busy}>
          Save budget
        </button>
      </form>
      <Notice outcome={action.outcome} />
      <table aria-label="Budgets">
        <Columns names={['For', 'A month', 'Warns through', 'Last warned', '']} />
        <tbody>
          {budgets.map((budget) => (
            <tr key={budget.id}>
              <th scope="row">{budget.categoryName ?? 'Everything'}</th>
              <td>{currency ? money(budget.amount, currency) : budget.amount}</td>
              <td>{budget.alertId === null ? 'No warning' : (alerts[budget.alertId] ?? `#${budget.alertId}`)}</td>
              <td>{budget.warnedMonth ?? '—'}</td>
              <td class="actions">
                <button
                  type="button"
                  class="danger"
                  onClick={() => void action.run(apply(REMOVE, { categoryId: budget.categoryId }, 'Budget removed'))}
                >
                  Remove the {budget.categoryName ?? 'overall'} budget
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
