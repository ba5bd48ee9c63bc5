import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import { calendarDate, cents, money, moneyOf } from './format';
import type { UpcomingPaymentsQuery, UpcomingPaymentsQueryVariables } from './graphql.generated';
import { useLiveReload } from './live';
import { Notice, Section, Select, useAction } from './ui';

type Due = UpcomingPaymentsQuery['upcomingPayments'][number];

const UPCOMING = /* GraphQL */ `
  query UpcomingPayments($days: Int!) {
    upcomingPayments(days: $days) {
      id
      productName
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
const WINDOWS = { 7: 'Next 7 days', 30: 'Next 30 days', 90: 'Next 90 days' };

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
    <Section title="Upcoming">
      <Select
        label="Window"
        name="days"
        options={WINDOWS}
        value={String(days)}
        onChange={(event) => setDays(Number(event.currentTarget.value))}
      />
      <Notice outcome={action.outcome} />
      {due.length > 0 && <p class="totals">{money(totalCents / 100, due[0].basePrice.currency)} due</p>}
      {due.length === 0 && <p>Nothing due in this window.</p>}
      <ul class="upcoming">
        {due.map((item) => (
          <li key={item.id}>
            <strong>
              {item.nextPaymentDate
                ? calendarDate(item.nextPaymentDate, { weekday: 'short', day: 'numeric', month: 'short' })
                : '—'}
            </strong>{' '}
            {item.productName} {moneyOf(item.price)}
          </li>
        ))}
      </ul>
    </Section>
  );
}
