import { useEffect, useState } from 'preact/hooks';

import { allNodes, gql } from './api';
import { calendarDate } from './format';
import type {
  AlertChannel,
  AlertRecordNamesQuery,
  AlertRecordNamesQueryVariables,
  AlertsAndRemindersQuery,
  AlertsAndRemindersQueryVariables,
  AlertTimeUnit,
  CreateAlertInput,
  CreateAlertMutation,
  CreateAlertMutationVariables,
  DeleteAlertMutation,
  DeleteAlertMutationVariables,
  ReminderKind,
  RemindersQuery,
  RemindersQueryVariables,
  ReminderStatus,
} from './graphql.generated';
import { changeThen, Columns, Field, Notice, Section, Select, useAction } from './ui';

type Alert = AlertsAndRemindersQuery['alerts'][number];
type Reminder = RemindersQuery['reminders']['nodes'][number];

// The AlertTimeUnit, AlertChannel, ReminderKind and ReminderStatus enums' values, as the screen says them.
const CYCLES: Record<AlertTimeUnit, string> = { DAYS: 'days', WEEKS: 'weeks', MONTHS: 'months' };
const CHANNELS: Record<AlertChannel, string> = {
  ALL: 'All channels',
  EMAIL: 'E-mail',
  BROWSER: 'Browser',
  WEBHOOK: 'Webhooks',
};
const KINDS: Record<ReminderKind, string> = {
  PAYMENT: 'Payment',
  REFUND: 'Refund window ends',
  CONTRACT_NOTICE: 'Last day to cancel',
};
const REMINDER_STATUSES: Record<ReminderStatus, string> = {
  SCHEDULED: 'Scheduled',
  SENT: 'Sent',
  CANCELLED: 'Cancelled',
};
const LOAD = /* GraphQL */ `
  query AlertsAndReminders {
    alerts {
      id
      name
      isSystem
      timePeriod
      timeCycle
      time
      timezone
      channel
    }
  }
`;
const REMINDERS = /* GraphQL */ `
  query Reminders($from: DateTime!, $to: DateTime!, $after: String) {
    reminders(from: $from, to: $to, first: 500, after: $after) {
      nodes {
        id
        subscriptionId
        alertId
        kind
        date
        fireAt
        status
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;
const RECORD_NAMES = /* GraphQL */ `
  query AlertRecordNames($after: String) {
    subscriptions(first: 100, after: $after) {
      nodes {
        id
        productName
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;
const CREATE = /* GraphQL */ `
  mutation CreateAlert($input: CreateAlertInput!) {
    createAlert(input: $input) {
      alert {
        id
      }
    }
  }
`;
const DELETE = /* GraphQL */ `
  mutation DeleteAlert($input: DeleteAlertInput!) {
    deleteAlert(input: $input) {
      deletedAlertId
    }
  }
`;
const REMINDER_DAYS = 60;

/** Alert definitions (when and how to remind) and the reminders they hold for the next weeks, per record. */
export function Alerts() {
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const [reminders, setReminders] = useState<Reminder[]>([]);
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const action = useAction();
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const load = async () => {
    const from = new Date().toISOString();
    const to = new Date(Date.now() + REMINDER_DAYS * 86_400_000).toISOString();
    // Every reminder of the window and every record's name: however many a user keeps, none is left out.
    const [data, window, records] = await Promise.all([
      gql<AlertsAndRemindersQuery, AlertsAndRemindersQueryVariables>(LOAD),
      allNodes(
        async (after) => (await gql<RemindersQuery, RemindersQueryVariables>(REMINDERS, { from, to, after })).reminders,
      ),
      allNodes(
        async (after) =>
          (await gql<AlertRecordNamesQuery, AlertRecordNamesQueryVariables>(RECORD_NAMES, { after })).subscriptions,
      ),
    ]);
    setAlerts(data.alerts);
    setReminders(window);
    setNames(new Map(records.map((record) => [record.id, record.productName])));
  };
  const apply = changeThen(load);
  useEffect(() => {
    void action.run(load);
  }, []);

  async function create(event: Event) {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    const form = new FormData(element);
    await action.run(async () => {
      const input: CreateAlertInput = {
        name: String(form.get('alert_name')),
        timePeriod: Number(form.get('time_period')),
        timeCycle: String(form.get('time_cycle')) as AlertTimeUnit,
        time: String(form.get('time')),
        timezone: zone,
        channel: String(form.get('alert_type')) as AlertChannel,
      };
      await gql<CreateAlertMutation, CreateAlertMutationVariables>(CREATE, { input });
      element.reset();
      await load();
      return `Alert added: ${input.name}`;
    });
  }

  return (
    <Section title="Alerts">
      <form class="card" onSubmit={create} aria-label="Add an alert">
        <div class="grid">
          <Field label="Alert name" name="alert_name" required errors={action.errors} />
          <Field
            label="Remind this long before"
            name="time_period"
            type="number"
            min={0}
            required
            defaultValue="3"
            errors={action.errors}
          />
          <Select label="Unit" name="time_cycle" options={CYCLES} errors={action.errors} />
          <Field label={`At (${zone})`} name="time" type="time" required defaultValue="09:00" errors={action.errors} />
          <Select label="Channel" name="alert_type" options={CHANNELS} errors={action.errors} />
        </div>
        <button type="submit" disabled={action.busy}>
          Add alert
        </button>
      </form>
      <Notice outcome={action.outcome} />
      <ul class="endpoints">
        {alerts.map((alert) => (
          <li key={alert.id}>
            <strong>{alert.name}</strong> {alert.timePeriod} {CYCLES[alert.timeCycle]} before, at{' '}
            {alert.time.slice(0, 5)} ({alert.timezone}), {CHANNELS[alert.channel]}
            {!alert.isSystem && (
              <button
                type="button"
                class="danger"
                onClick={() => {
                  if (!confirm(`Delete the alert “${alert.name}”? Its reminders are no longer sent.`)) return;
                  void action.run(
                    apply<DeleteAlertMutation, DeleteAlertMutationVariables>(
                      DELETE,
                      { input: { id: alert.id } },
                      `Alert deleted: ${alert.name}`,
                    ),
                  );
                }}
              >
                Delete {alert.name}
              </button>
            )}
          </li>
        ))}
      </ul>
      <h2>Reminders in the next {REMINDER_DAYS} days</h2>
      <div class="table-wrap">
        <table aria-label="Reminders">
          <Columns names={['Record', 'Of', 'Date', 'Sent at', 'Status']} />
          <tbody>
            {reminders.map((reminder) => (
              <tr key={reminder.id}>
                <th scope="row">{names.get(reminder.subscriptionId) ?? 'A record'}</th>
                <td>{KINDS[reminder.kind]}</td>
                <td>{calendarDate(reminder.date)}</td>
                <td>{new Date(reminder.fireAt).toLocaleString()}</td>
                <td>{REMINDER_STATUSES[reminder.status]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}
