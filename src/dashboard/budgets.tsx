import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import { moneyOf, monthName } from './format';
import type {
  BudgetsQuery,
  BudgetsQueryVariables,
  RemoveBudgetMutation,
  RemoveBudgetMutationVariables,
  SetBudgetMutation,
  SetBudgetMutationVariables,
} from './graphql.generated';
import { t } from './i18n';
import { changeThen, Columns, Field, Notice, Select, useAction } from './ui';

type Budget = BudgetsQuery['budgets'][number];

const LOAD = /* GraphQL */ `
  query Budgets {
    budgets {
      id
      categoryId
      categoryName
      amount {
        amount
        currency
      }
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
  mutation SetBudget($input: SetBudgetInput!) {
    setBudget(input: $input) {
      budget {
        id
      }
    }
  }
`;
const REMOVE = /* GraphQL */ `
  mutation RemoveBudget($input: RemoveBudgetInput!) {
    removeBudget(input: $input) {
      deletedBudgetId
    }
  }
`;

/** Monthly budgets (overall and per category), each with the alert whose channels warn when next month's plan exceeds it. */
export function Budgets({ onChange }: { onChange: () => unknown }) {
  const [budgets, setBudgets] = useState<Budget[]>([]);
  const [alerts, setAlerts] = useState<Record<string, string>>({});
  const [categories, setCategories] = useState<Record<string, string>>({});
  const action = useAction();

  const load = async () => {
    const data = await gql<BudgetsQuery, BudgetsQueryVariables>(LOAD);
    setBudgets(data.budgets);
    setAlerts(Object.fromEntries(data.alerts.map((alert) => [alert.id, alert.name])));
    setCategories(Object.fromEntries(data.productCategories.map((category) => [category.id, category.name])));
  };
  // A budget change shows in the summary's budget figure too.
  const apply = changeThen(async () => Promise.all([load(), onChange()]));
  useEffect(() => {
    void action.run(load);
  }, []);

  async function save(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const optional = (name: string) => (form.get(name) ? String(form.get(name)) : null);
    const input = {
      amount: String(form.get('amount')),
      categoryId: optional('category_id'),
      alertId: optional('alert_id'),
    };
    await action.run(apply<SetBudgetMutation, SetBudgetMutationVariables>(SET, { input }, t('budgets:saved')));
  }

  return (
    <>
      <h2>{t('budgets:title')}</h2>
      <form class="card" onSubmit={save} aria-label={t('budgets:setABudget')}>
        <div class="grid">
          <Field label={t('budgets:monthlyBudget')} name="amount" inputMode="decimal" required errors={action.errors} />
          <Select
            label={t('budgets:for')}
            name="category_id"
            options={{ '': t('budgets:everything'), ...categories }}
            initial=""
            errors={action.errors}
          />
          <Select
            label={t('budgets:warnThrough')}
            name="alert_id"
            options={{ '': t('budgets:noWarning'), ...alerts }}
            initial=""
            errors={action.errors}
          />
        </div>
        <button type="submit" disabled={action.busy}>
          {t('budgets:saveBudget')}
        </button>
      </form>
      <Notice outcome={action.outcome} />
      <table aria-label={t('budgets:title')}>
        <Columns
          names={[t('budgets:for'), t('budgets:aMonth'), t('budgets:warnsThrough'), t('budgets:lastWarned'), '']}
        />
        <tbody>
          {budgets.map((budget) => (
            <tr key={budget.id}>
              <th scope="row">{budget.categoryName ?? t('budgets:everything')}</th>
              <td>{moneyOf(budget.amount)}</td>
              <td>
                {budget.alertId === null ? t('budgets:noWarning') : (alerts[budget.alertId] ?? t('budgets:anAlert'))}
              </td>
              <td>{budget.warnedMonth ? monthName(budget.warnedMonth) : '—'}</td>
              <td class="actions">
                <button
                  type="button"
                  class="danger"
                  aria-label={
                    budget.categoryName === null
                      ? t('budgets:removeOverall')
                      : t('budgets:removeOf', { category: budget.categoryName })
                  }
                  onClick={() =>
                    void action.run(
                      apply<RemoveBudgetMutation, RemoveBudgetMutationVariables>(
                        REMOVE,
                        { input: { categoryId: budget.categoryId } },
                        t('budgets:removed'),
                      ),
                    )
                  }
                >
                  {t('budgets:remove')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
