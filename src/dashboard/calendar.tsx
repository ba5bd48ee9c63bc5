import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import { daysIn, localToday, moneyOf, monthRange, monthTitle, pad } from './format';
import type { CalendarQuery, CalendarQueryVariables } from './graphql.generated';
import { Field, Notice, Section, useAction } from './ui';

type Entry = CalendarQuery['calendar'][number];

const CALENDAR = /* GraphQL */ `
  query Calendar($from: LocalDate!, $to: LocalDate!) {
    calendar(from: $from, to: $to) {
      key
      date
      subscription {
        id
        productName
        price {
          amount
          currency
        }
      }
    }
  }
`;

/** A month of payment dates; the month is picked by the arrows or typed (YYYY-MM). */
export function Calendar() {
  const [month, setMonth] = useState(localToday().slice(0, 7));
  const [entries, setEntries] = useState<Entry[]>([]);
  const action = useAction();
  const [year, monthNumber] = month.split('-').map(Number);
  const last = daysIn(year, monthNumber);

  useEffect(() => {
    void action.run(async () => {
      const data = await gql<CalendarQuery, CalendarQueryVariables>(CALENDAR, monthRange(month));
      setEntries(data.calendar);
    });
  }, [month]);

  const shift = (by: number) => {
    const index = year * 12 + monthNumber - 1 + by;
    setMonth(`${Math.floor(index / 12)}-${pad((index % 12) + 1)}`);
  };
  // Monday-first weeks: blanks before the 1st.
  const leading = (new Date(Date.UTC(year, monthNumber - 1, 1)).getUTCDay() + 6) % 7;
  const days = Array.from({ length: last }, (_, index) => index + 1);

  return (
    <Section title="Calendar">
      <div class="calendar-controls">
        <button type="button" onClick={() => shift(-1)} aria-label="Previous month">
          ‹
        </button>
        <h2 aria-live="polite">{monthTitle(year, monthNumber)}</h2>
        <button type="button" onClick={() => shift(1)} aria-label="Next month">
          ›
        </button>
        <Field
          label="Month"
          name="month"
          type="month"
          value={month}
          onChange={(event) => event.currentTarget.value && setMonth(event.currentTarget.value)}
        />
      </div>
      <Notice outcome={action.outcome} />
      <ol class="month" aria-label={monthTitle(year, monthNumber)}>
        {Array.from({ length: leading }, (_, index) => (
          <li key={`blank-${index}`} class="blank" aria-hidden="true" />
        ))}
        {days.map((day) => {
          const date = `${month}-${pad(day)}`;
          const due = entries.filter((entry) => entry.date === date);
          return (
            <li key={date} data-date={date} class={due.length > 0 ? 'due' : undefined}>
              <span class="day">{day}</span>
              {due.map((entry) => (
                <span key={entry.key} class="payment">
                  {entry.subscription.productName} {moneyOf(entry.subscription.price)}
                </span>
              ))}
            </li>
          );
        })}
      </ol>
    </Section>
  );
}
