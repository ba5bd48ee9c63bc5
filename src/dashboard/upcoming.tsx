import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import { calendarDate, cents, money, moneyOf } from './format';
import type { UpcomingPaymentsQuery, UpcomingPaymentsQueryVariables } from './graphql.generated';
import { t } from './i18n';
import { useLiveReload } from './live';
import { Logo } from './logo';
import { Notice, Section, Select, useAction } from './ui';

type Due = UpcomingPaymentsQuery['upcomingPayments'][number];

const UPCOMING = /* GraphQL */ `
  query UpcomingPayments($days: Int!) {
    upcomingPayments(days: $days) {
      id
      productName
      logo
      price {
        amount
        currency
      }
      nextPaymentDate
      basePrice {
        amount
        currency
      }
    }
  }
`;
/** The windows offered, in days. */
const WINDOWS = [7, 30, 90];

/** What is due soon, soonest first, with the window's total in the base currency. */
export function Upcoming() {
  const [days, setDays] = useState(30);
  const [due, setDue] = useState<Due[]>([]);
  const action = useAction();
  const load = async () =>
    setDue((await gql<UpcomingPaymentsQuery, UpcomingPaymentsQueryVariables>(UPCOMING, { days })).upcomingPayments);
  useEffect(() => {
    void action.run(load);
  }, [days]);
  useLiveReload(['records'], load);
  // Cents as integers: no float sums of money.
  const totalCents = due.reduce((sum, item) => sum + cents(item.basePrice.amount), 0);
  return (
    <Section title={t('common:screens.upcoming')}>
      <Select
        label={t('upcoming:window')}
        name="days"
        options={Object.fromEntries(WINDOWS.map((count) => [count, t('upcoming:nextDays', { count })]))}
        value={String(days)}
        onChange={(event) => setDays(Number(event.currentTarget.value))}
      />
      <Notice outcome={action.outcome} />
      {due.length > 0 && (
        <p class="totals">{t('upcoming:due', { amount: money(totalCents / 100, due[0].basePrice.currency) })}</p>
      )}
      {due.length === 0 && <p>{t('upcoming:nothingDue')}</p>}
      <ul class="upcoming">
        {due.map((item) => (
          <li key={item.id}>
            <strong>
              {item.nextPaymentDate
                ? calendarDate(item.nextPaymentDate, { weekday: 'short', day: 'numeric', month: 'short' })
                : '—'}
            </strong>{' '}
            <Logo name={item.productName} src={item.logo} size={20} /> {item.productName} {moneyOf(item.price)}
          </li>
        ))}
      </ul>
    </Section>
  );
}
