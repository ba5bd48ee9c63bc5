import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

import { allNodes, gql } from './api';
import { calendarDate, instant } from './format';
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
  SetAlertTargetsMutation,
  SetAlertTargetsMutationVariables,
  UpdateAlertMutation,
  UpdateAlertMutationVariables,
} from './graphql.generated';
import { t } from './i18n';
import { NotificationTargets, readTargets, type Target, type TargetsOfAlerts } from './notification-targets';
import { changeThen, Columns, Field, FieldErrors, Notice, Section, Select, TableWrap, useAction } from './ui';

type Alert = AlertsAndRemindersQuery['alerts'][number];
type Reminder = RemindersQuery['reminders']['nodes'][number];

// The AlertTimeUnit, AlertChannel, ReminderKind and ReminderStatus enums' values, as the screen says them in
// the language spoken.
const units = (): Record<AlertTimeUnit, string> => ({
  DAYS: t('alerts:units.DAYS'),
  WEEKS: t('alerts:units.WEEKS'),
  MONTHS: t('alerts:units.MONTHS'),
});
/** "3 days before": the unit in the language's plural form for the count. */
const before = (unit: AlertTimeUnit, count: number): string =>
  ({
    DAYS: () => t('alerts:before.DAYS', { count }),
    WEEKS: () => t('alerts:before.WEEKS', { count }),
    MONTHS: () => t('alerts:before.MONTHS', { count }),
  })[unit]();
const channels = (): Record<AlertChannel, string> => ({
  ALL: t('alerts:channels.ALL'),
  EMAIL: t('alerts:channels.EMAIL'),
  BROWSER: t('alerts:channels.BROWSER'),
  WEBHOOK: t('alerts:channels.WEBHOOK'),
});
const kinds = (): Record<ReminderKind, string> => ({
  PAYMENT: t('alerts:kinds.PAYMENT'),
  REFUND: t('alerts:kinds.REFUND'),
  CONTRACT_NOTICE: t('alerts:kinds.CONTRACT_NOTICE'),
});
const reminderStatuses = (): Record<ReminderStatus, string> => ({
  SCHEDULED: t('alerts:statuses.SCHEDULED'),
  SENT: t('alerts:statuses.SENT'),
  CANCELLED: t('alerts:statuses.CANCELLED'),
});
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
const UPDATE = /* GraphQL */ `
  mutation UpdateAlert($input: UpdateAlertInput!) {
    updateAlert(input: $input) {
      alert {
        id
      }
    }
  }
`;
const SET_TARGETS = /* GraphQL */ `
  mutation SetAlertTargets($input: SetAlertTargetsInput!) {
    setAlertTargets(input: $input) {
      notificationTargets {
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

/**
 * An alert's fields (the system default's are no one's to change) and the targets it sends to; `onSaved` once
 * both are saved.
 */
function AlertEditor(props: {
  alert: Alert;
  targets: Target[];
  chosen: string[];
  onSaved: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const { alert, targets, chosen } = props;
  const action = useAction();
  async function save(event: JSX.TargetedEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = alert.isSystem ? alert.name : String(form.get('alert_name')).trim();
    await action.run(async () => {
      if (!alert.isSystem) {
        await gql<UpdateAlertMutation, UpdateAlertMutationVariables>(UPDATE, {
          input: {
            id: alert.id,
            name,
            timePeriod: Number(form.get('time_period')),
            timeCycle: String(form.get('time_cycle')) as AlertTimeUnit,
            time: String(form.get('time')),
            channel: String(form.get('alert_type')) as AlertChannel,
          },
        });
      }
      await gql<SetAlertTargetsMutation, SetAlertTargetsMutationVariables>(SET_TARGETS, {
        input: { alertId: alert.id, targetIds: form.getAll('target').map(String) },
      });
      await props.onSaved(name);
    });
  }
  const id = (name: string) => `edit-alert-${name}`;
  return (
    <form class="card" aria-label={t('alerts:editLabel', { name: alert.name })} onSubmit={save}>
      {alert.isSystem ? (
        <p>{t('alerts:systemAlert')}</p>
      ) : (
        <div class="grid">
          <Field
            label={t('alerts:name')}
            name="alert_name"
            id={id('name')}
            required
            defaultValue={alert.name}
            errors={action.errors}
          />
          <Field
            label={t('alerts:period')}
            name="time_period"
            id={id('period')}
            type="number"
            min={0}
            required
            defaultValue={String(alert.timePeriod)}
            errors={action.errors}
          />
          <Select
            label={t('alerts:unit')}
            name="time_cycle"
            id={id('cycle')}
            options={units()}
            initial={alert.timeCycle}
            errors={action.errors}
          />
          <Field
            label={t('alerts:at', { zone: alert.timezone })}
            name="time"
            id={id('time')}
            type="time"
            required
            defaultValue={alert.time.slice(0, 5)}
            errors={action.errors}
          />
          <Select
            label={t('alerts:channel')}
            name="alert_type"
            id={id('channel')}
            options={channels()}
            initial={alert.channel}
            errors={action.errors}
          />
        </div>
      )}
      <fieldset>
        <legend>{t('alerts:targets')}</legend>
        {targets.length === 0 && <p>{t('alerts:noTargetsYet')}</p>}
        {targets.map((target) => (
          <label key={target.id}>
            <input type="checkbox" name="target" value={target.id} defaultChecked={chosen.includes(target.id)} />{' '}
            {target.name}
          </label>
        ))}
        <FieldErrors messages={action.errors.target_ids} />
      </fieldset>
      <button type="submit" disabled={action.busy} aria-label={t('alerts:saveLabel', { name: alert.name })}>
        {t('common:save')}
      </button>
      <button type="button" onClick={props.onClose}>
        {t('common:close')}
      </button>
      <Notice outcome={action.outcome} />
    </form>
  );
}

/** Alert definitions (when and how to remind) and the reminders they hold for the next weeks, per record. */
export function Alerts() {
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const [reminders, setReminders] = useState<Reminder[]>([]);
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const [targets, setTargets] = useState<Target[]>([]);
  const [targetsOf, setTargetsOf] = useState<TargetsOfAlerts>(new Map());
  const [editing, setEditing] = useState<string | null>(null);
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
    await loadTargets();
  };
  const loadTargets = async () => {
    const read = await readTargets();
    setTargets(read.targets);
    setTargetsOf(read.targetsOf);
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
      return t('alerts:added', { name: input.name });
    });
  }

  return (
    <Section title={t('common:screens.alerts')}>
      <form class="card" onSubmit={create} aria-label={t('alerts:addTitle')}>
        <div class="grid">
          <Field label={t('alerts:name')} name="alert_name" required errors={action.errors} />
          <Field
            label={t('alerts:period')}
            name="time_period"
            type="number"
            min={0}
            required
            defaultValue="3"
            errors={action.errors}
          />
          <Select label={t('alerts:unit')} name="time_cycle" options={units()} errors={action.errors} />
          <Field
            label={t('alerts:at', { zone })}
            name="time"
            type="time"
            required
            defaultValue="09:00"
            errors={action.errors}
          />
          <Select label={t('alerts:channel')} name="alert_type" options={channels()} errors={action.errors} />
        </div>
        <button type="submit" disabled={action.busy}>
          {t('alerts:add')}
        </button>
      </form>
      <Notice outcome={action.outcome} />
      <ul class="endpoints" aria-label={t('common:screens.alerts')}>
        {alerts.map((alert) => {
          const chosen = targetsOf.get(alert.id) ?? [];
          const sendsTo = targets.filter((target) => chosen.includes(target.id)).map((target) => target.name);
          return (
            <li key={alert.id}>
              <strong>{alert.name}</strong>{' '}
              {t('alerts:timing', {
                before: before(alert.timeCycle, alert.timePeriod),
                time: alert.time.slice(0, 5),
                zone: alert.timezone,
                channel: channels()[alert.channel],
              })}
              <small>
                {sendsTo.length > 0 ? t('alerts:sendsTo', { targets: sendsTo.join(', ') }) : t('alerts:noTargets')}
              </small>
              <button
                type="button"
                aria-label={t('alerts:editLabel', { name: alert.name })}
                aria-expanded={editing === alert.id}
                onClick={() => setEditing(editing === alert.id ? null : alert.id)}
              >
                {t('common:edit')}
              </button>
              {!alert.isSystem && (
                <button
                  type="button"
                  class="danger"
                  aria-label={t('alerts:deleteLabel', { name: alert.name })}
                  onClick={() => {
                    if (!confirm(t('alerts:confirmDelete', { name: alert.name }))) return;
                    void action.run(
                      apply<DeleteAlertMutation, DeleteAlertMutationVariables>(
                        DELETE,
                        { input: { id: alert.id } },
                        t('alerts:deleted', { name: alert.name }),
                      ),
                    );
                  }}
                >
                  {t('common:delete')}
                </button>
              )}
              {editing === alert.id && (
                <AlertEditor
                  alert={alert}
                  targets={targets}
                  chosen={chosen}
                  onSaved={async (name) => {
                    await load();
                    setEditing(null);
                    action.setOutcome({ kind: 'done', message: t('alerts:saved', { name }) });
                  }}
                  onClose={() => setEditing(null)}
                />
              )}
            </li>
          );
        })}
      </ul>
      <NotificationTargets targets={targets} targetsOf={targetsOf} alerts={alerts} reload={loadTargets} />
      <h2>{t('alerts:remindersTitle', { count: REMINDER_DAYS })}</h2>
      <TableWrap label={t('alerts:reminders')}>
        <table aria-label={t('alerts:reminders')}>
          <Columns
            names={[t('alerts:record'), t('alerts:kind'), t('alerts:date'), t('alerts:sentAt'), t('alerts:status')]}
          />
          <tbody>
            {reminders.map((reminder) => (
              <tr key={reminder.id}>
                <th scope="row">{names.get(reminder.subscriptionId) ?? t('alerts:aRecord')}</th>
                <td>{kinds()[reminder.kind]}</td>
                <td>{calendarDate(reminder.date)}</td>
                <td>{instant(reminder.fireAt)}</td>
                <td>{reminderStatuses()[reminder.status]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </Section>
  );
}
