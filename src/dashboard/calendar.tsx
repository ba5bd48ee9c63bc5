import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import {
  calendarDate,
  cents,
  daysIn,
  localToday,
  money,
  moneyOf,
  monthRange,
  monthTitle,
  pad,
  weekdayNames,
} from './format';
import type {
  CalendarQuery,
  CalendarQueryVariables,
  CalendarViewerQuery,
  CalendarViewerQueryVariables,
  MarkPaymentPaidMutation,
  MarkPaymentPaidMutationVariables,
  MarkPaymentSkippedMutation,
  MarkPaymentSkippedMutationVariables,
  PaymentEntriesQuery,
  PaymentEntryStatus,
  WeekStart,
} from './graphql.generated';
import { t } from './i18n';
import { ledgerEntries, PAID, SKIP } from './ledger';
import { useLiveReload } from './live';
import { Logo } from './logo';
import { Field, Notice, Section, useAction } from './ui';

type Entry = CalendarQuery['calendar'][number];
type LedgerEntry = PaymentEntriesQuery['paymentEntries']['nodes'][number];

const CALENDAR = /* GraphQL */ `
  query Calendar($from: LocalDate!, $to: LocalDate!) {
    calendar(from: $from, to: $to) {
      key
      date
      subscription {
        id
        productName
        logo
        price {
          amount
          currency
        }
        basePrice {
          amount
          currency
        }
      }
    }
  }
`;
const VIEWER = /* GraphQL */ `
  query CalendarViewer {
    me {
      weekStart
      baseCurrency
    }
  }
`;
/** A week's first day as its ISO number (Monday 1 … Sunday 7). */
const ISO_DAY: Record<WeekStart, number> = { MONDAY: 1, SATURDAY: 6, SUNDAY: 7 };
const status = (): Record<PaymentEntryStatus, string> => ({
  PENDING: t('calendar:status.PENDING'),
  PAID: t('calendar:status.PAID'),
  SKIPPED: t('calendar:status.SKIPPED'),
});

/**
 * A month of payment dates, weeks starting on the profile's day: today marked, the month's total in the base
 * currency, and each payment opening its details, where it can be marked paid or skipped.
 */
export function Calendar() {
  const today = localToday();
  const [month, setMonth] = useState(today.slice(0, 7));
  const [entries, setEntries] = useState<Entry[]>([]);
  const [ledger, setLedger] = useState<LedgerEntry[]>([]);
  const [viewer, setViewer] = useState<CalendarViewerQuery['me'] | null>(null);
  const [chosen, setChosen] = useState<Entry | null>(null);
  const action = useAction();
  const [year, monthNumber] = month.split('-').map(Number);
  const last = daysIn(year, monthNumber);

  async function load() {
    const range = monthRange(month);
    const [calendar, paymentEntries] = await Promise.all([
      gql<CalendarQuery, CalendarQueryVariables>(CALENDAR, range),
      ledgerEntries(range),
    ]);
    setEntries(calendar.calendar);
    setLedger(paymentEntries);
  }
  useEffect(() => {
    void action.run(async () => setViewer((await gql<CalendarViewerQuery, CalendarViewerQueryVariables>(VIEWER)).me));
  }, []);
  useEffect(() => {
    setChosen(null);
    void action.run(load);
  }, [month]);
  useLiveReload(['records'], load);

  const shift = (by: number) => {
    const index = year * 12 + monthNumber - 1 + by;
    setMonth(`${Math.floor(index / 12)}-${pad((index % 12) + 1)}`);
  };
  const weekStart = ISO_DAY[viewer?.weekStart ?? 'MONDAY'];
  const names = weekdayNames();
  const header = Array.from({ length: 7 }, (_, index) => names[(weekStart - 1 + index) % 7]);
  // Blanks before the 1st: from the week's first day to the 1st's (ISO numbers).
  const firstDay = ((new Date(Date.UTC(year, monthNumber - 1, 1)).getUTCDay() + 6) % 7) + 1;
  const leading = (firstDay - weekStart + 7) % 7;
  const days = Array.from({ length: last }, (_, index) => index + 1);
  const totalCents = entries.reduce((sum, entry) => sum + cents(entry.subscription.basePrice.amount), 0);
  const ledgerEntryOf = (entry: Entry) =>
    ledger.find((item) => item.subscriptionId === entry.subscription.id && item.dueDate === entry.date);

  return (
    <Section title={t('common:screens.calendar')}>
      <div class="calendar-controls">
        <button type="button" onClick={() => shift(-1)} aria-label={t('calendar:previousMonth')}>
          ‹
        </button>
        <h2 aria-live="polite">{monthTitle(year, monthNumber)}</h2>
        <button type="button" onClick={() => shift(1)} aria-label={t('calendar:nextMonth')}>
          ›
        </button>
        <Field
          label={t('calendar:month')}
          name="month"
          type="month"
          value={month}
          onChange={(event) => event.currentTarget.value && setMonth(event.currentTarget.value)}
        />
      </div>
      {viewer && (
        <p class="totals">
          {entries.length === 0
            ? t('calendar:nothingDue')
            : t('calendar:totals', { count: entries.length, amount: money(totalCents / 100, viewer.baseCurrency) })}
        </p>
      )}
      <Notice outcome={action.outcome} />
      <div class="weekdays" aria-hidden="true">
        {header.map((name) => (
          <span key={name}>{name}</span>
        ))}
      </div>
      <ol class="month" aria-label={monthTitle(year, monthNumber)}>
        {Array.from({ length: leading }, (_, index) => (
          <li key={`blank-${index}`} class="blank" aria-hidden="true" />
        ))}
        {days.map((day) => {
          const date = `${month}-${pad(day)}`;
          const due = entries.filter((entry) => entry.date === date);
          const classes = [due.length > 0 && 'due', date === today && 'today'].filter(Boolean).join(' ');
          return (
            <li
              key={date}
              data-date={date}
              class={classes || undefined}
              aria-current={date === today ? 'date' : undefined}
            >
              <span class="day">{day}</span>
              {due.map((entry) => (
                // The logo beside the button, not in it: its monogram's letters are no part of the button's name.
                <div key={entry.key} class="entry">
                  <Logo name={entry.subscription.productName} src={entry.subscription.logo} size={16} />
                  <button
                    type="button"
                    class="payment"
                    aria-label={t('calendar:paymentLabel', {
                      name: entry.subscription.productName,
                      price: moneyOf(entry.subscription.price),
                      date: calendarDate(entry.date, { dateStyle: 'full' }),
                    })}
                    aria-expanded={chosen?.key === entry.key}
                    onClick={() => setChosen(chosen?.key === entry.key ? null : entry)}
                  >
                    {entry.subscription.productName} {moneyOf(entry.subscription.price)}
                  </button>
                </div>
              ))}
            </li>
          );
        })}
      </ol>
      {chosen && (
        <PaymentDetails
          entry={chosen}
          ledgerEntry={ledgerEntryOf(chosen)}
          onChange={(run, done) =>
            action.run(async () => {
              await run();
              await load();
              return done;
            })
          }
        />
      )}
    </Section>
  );
}

/** One payment of the calendar: the record, its day and amount, and its ledger entry's state and actions. */
function PaymentDetails({
  entry,
  ledgerEntry,
  onChange,
}: {
  entry: Entry;
  ledgerEntry: LedgerEntry | undefined;
  onChange: (run: () => Promise<unknown>, done: string) => Promise<unknown>;
}) {
  const name = entry.subscription.productName;
  const input = ledgerEntry && { input: { id: ledgerEntry.id } };
  return (
    <section
      class="card payment-details"
      aria-label={t('calendar:paymentOn', { name, date: calendarDate(entry.date) })}
    >
      <h2>
        <Logo name={name} src={entry.subscription.logo} size={32} /> {name}
      </h2>
      <p>
        {t('calendar:amountOn', {
          date: calendarDate(entry.date, { dateStyle: 'full' }),
          price: moneyOf(entry.subscription.price),
        })}
        {ledgerEntry ? ` · ${status()[ledgerEntry.status]}` : ''}
      </p>
      <p>
        <a href="#/payments">{t('calendar:allPayments')}</a>
      </p>
      {input && ledgerEntry.status === 'PENDING' && (
        <p>
          <button
            type="button"
            onClick={() =>
              void onChange(
                () => gql<MarkPaymentPaidMutation, MarkPaymentPaidMutationVariables>(PAID, input),
                t('calendar:paid', { name }),
              )
            }
          >
            {t('calendar:recordPayment')}
          </button>
          <button
            type="button"
            onClick={() =>
              void onChange(
                () => gql<MarkPaymentSkippedMutation, MarkPaymentSkippedMutationVariables>(SKIP, input),
                t('calendar:skipped', { name }),
              )
            }
          >
            {t('calendar:skip')}
          </button>
        </p>
      )}
    </section>
  );
}
