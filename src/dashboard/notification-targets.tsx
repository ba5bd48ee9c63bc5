import { useState } from 'preact/hooks';

import { ApiError, gql } from './api';
import type {
  AlertTargetIdsQuery,
  AlertTargetIdsQueryVariables,
  CreateNotificationTargetMutation,
  CreateNotificationTargetMutationVariables,
  DeleteNotificationTargetMutation,
  DeleteNotificationTargetMutationVariables,
  NotificationScheme,
  NotificationTargetsQuery,
  NotificationTargetsQueryVariables,
  SendTestNotificationMutation,
  SendTestNotificationMutationVariables,
  UpdateNotificationTargetMutation,
  UpdateNotificationTargetMutationVariables,
} from './graphql.generated';
import { t } from './i18n';
import { changeThen, Field, FieldErrors, Notice, Select, useAction } from './ui';

export type Target = NotificationTargetsQuery['notificationTargets'][number];
/** Per alert id, the ids of the targets it sends to. */
export type TargetsOfAlerts = Map<string, string[]>;

const TARGETS = /* GraphQL */ `
  query NotificationTargets {
    notificationTargets {
      id
      name
      scheme
      url
    }
    alerts {
      id
    }
  }
`;
const ALERT_TARGETS = /* GraphQL */ `
  query AlertTargetIds($alertId: ID!) {
    alertTargets(alertId: $alertId) {
      id
    }
  }
`;
const CREATE = /* GraphQL */ `
  mutation CreateNotificationTarget($input: CreateNotificationTargetInput!) {
    createNotificationTarget(input: $input) {
      notificationTarget {
        id
      }
      secret
    }
  }
`;
const UPDATE = /* GraphQL */ `
  mutation UpdateNotificationTarget($input: UpdateNotificationTargetInput!) {
    updateNotificationTarget(input: $input) {
      notificationTarget {
        id
      }
    }
  }
`;
const DELETE = /* GraphQL */ `
  mutation DeleteNotificationTarget($id: ID!) {
    deleteNotificationTarget(input: { id: $id }) {
      deletedNotificationTargetId
    }
  }
`;
const SEND_TEST = /* GraphQL */ `
  mutation SendTestNotification($id: ID!) {
    sendTestNotification(input: { id: $id }) {
      delivery {
        id
        status
        attempts {
          statusCode
          error
          responseExcerpt
        }
      }
    }
  }
`;

/** The user's targets, and which of them each alert (theirs and the system default) sends to. */
export async function readTargets(): Promise<{ targets: Target[]; targetsOf: TargetsOfAlerts }> {
  const data = await gql<NotificationTargetsQuery, NotificationTargetsQueryVariables>(TARGETS);
  const ofAlerts = await Promise.all(
    data.alerts.map(async (alert) => {
      const answer = await gql<AlertTargetIdsQuery, AlertTargetIdsQueryVariables>(ALERT_TARGETS, {
        alertId: alert.id,
      });
      return [alert.id, answer.alertTargets.map((target) => target.id)] as const;
    }),
  );
  return { targets: data.notificationTargets, targetsOf: new Map(ofAlerts) };
}

/** The NotificationScheme enum's values, as people name the services (in the language spoken, where it names them). */
const serviceNames = (): Record<NotificationScheme, string> => ({
  NTFY: 'ntfy',
  GOTIFY: 'Gotify',
  TGRAM: 'Telegram',
  DISCORD: 'Discord',
  POVER: 'Pushover',
  SLACK: 'Slack',
  MATRIX: 'Matrix',
  MAILTO: t('notification-targets:services.MAILTO'),
  JSON: t('notification-targets:services.JSON'),
});

/** One field of a service's form: its name, label, and the input's attributes. */
type Input = [name: string, label: string, attributes?: Record<string, string | boolean>];

interface Service {
  fields: Input[];
  /** Whether the service may be self-hosted over plain HTTP (ntfy://) or HTTPS (ntfys://). */
  tls?: boolean;
  /** The target URL (see src/notifications/target-url.ts) from the form's values. */
  url: (value: (name: string) => string, https: boolean) => string;
}

const secret = { type: 'password', autocomplete: 'off', required: true };
const required = { required: true };
/** A host as typed, without a scheme or trailing slashes someone pasted with it. */
const hostOf = (text: string) => text.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '');
const userinfo = (user: string, password = '') =>
  user ? `${encodeURIComponent(user)}${password ? `:${encodeURIComponent(password)}` : ''}@` : '';

type Choice = NotificationScheme | 'OTHER';

/**
 * Each service's form (in the language spoken) and how its URL is written, as the README's notification
 * targets table shows.
 */
const services = (): Record<Choice, Service> => ({
  NTFY: {
    tls: true,
    fields: [
      ['host', t('notification-targets:fields.server'), { ...required, placeholder: 'ntfy.sh' }],
      ['topic', t('notification-targets:fields.topic'), { ...required, pattern: '[-_A-Za-z0-9]{1,64}' }],
      [
        'token',
        t('notification-targets:fields.accessTokenOptional'),
        { type: 'password', autocomplete: 'off', placeholder: 'tk_…' },
      ],
    ],
    url: (v, https) => `${https ? 'ntfys' : 'ntfy'}://${userinfo(v('token'))}${hostOf(v('host'))}/${v('topic')}`,
  },
  GOTIFY: {
    tls: true,
    fields: [
      ['host', t('notification-targets:fields.server'), { ...required, placeholder: 'gotify.example.com' }],
      ['token', t('notification-targets:fields.applicationToken'), secret],
    ],
    url: (v, https) => `${https ? 'gotifys' : 'gotify'}://${hostOf(v('host'))}/${encodeURIComponent(v('token'))}`,
  },
  TGRAM: {
    fields: [
      ['token', t('notification-targets:fields.botToken'), { ...secret, placeholder: '123456789:AA…' }],
      [
        'chat',
        t('notification-targets:fields.chat'),
        { ...required, placeholder: t('notification-targets:fields.chatExample') },
      ],
    ],
    url: (v) => `tgram://${v('token')}/${v('chat')}`,
  },
  DISCORD: {
    fields: [
      ['id', t('notification-targets:fields.webhookId'), { ...required, inputMode: 'numeric' }],
      ['token', t('notification-targets:fields.webhookToken'), secret],
    ],
    url: (v) => `discord://${v('id')}/${v('token')}`,
  },
  POVER: {
    fields: [
      ['user', t('notification-targets:fields.userKey'), secret],
      ['token', t('notification-targets:fields.applicationToken'), secret],
    ],
    url: (v) => `pover://${v('user')}@${v('token')}`,
  },
  SLACK: {
    fields: [
      [
        'webhook',
        t('notification-targets:fields.incomingWebhook'),
        { ...secret, placeholder: 'https://hooks.slack.com/services/T…/B…/…' },
      ],
    ],
    // slack://A/B/C from https://hooks.slack.com/services/A/B/C; anything else as given, for the server to judge.
    url: (v) => v('webhook').replace(/^https:\/\/hooks\.slack\.com\/services\//, 'slack://'),
  },
  MATRIX: {
    tls: true,
    fields: [
      ['host', t('notification-targets:fields.homeserver'), { ...required, placeholder: 'matrix.example.org' }],
      ['user', t('notification-targets:fields.userOptional')],
      ['token', t('notification-targets:fields.accessToken'), secret],
      ['room', t('notification-targets:fields.room'), { ...required, placeholder: '!roomid:example.org' }],
    ],
    url: (v, https) =>
      // user:token@, or the token alone in the user's place.
      `${https ? 'matrixs' : 'matrix'}://${userinfo(v('user') || v('token'), v('user') && v('token'))}${hostOf(v('host'))}/${encodeURIComponent(v('room'))}`,
  },
  MAILTO: {
    fields: [
      [
        'to',
        t('notification-targets:fields.emailAddresses'),
        { ...required, placeholder: 'ann@example.com, bob@example.com' },
      ],
    ],
    url: (v) =>
      `mailto://${v('to')
        .split(',')
        .map((address) => address.trim())
        .filter(Boolean)
        .join(',')}`,
  },
  JSON: {
    fields: [
      [
        'endpoint',
        t('notification-targets:fields.endpoint'),
        { ...required, type: 'url', placeholder: 'https://hooks.example.com/notify' },
      ],
      ['user', t('notification-targets:fields.userOptional')],
      ['password', t('notification-targets:fields.passwordOptional'), { type: 'password', autocomplete: 'off' }],
    ],
    // json:// for http, jsons:// for https, with the user and password in the URL.
    url: (v) => {
      const endpoint = v('endpoint');
      if (!/^https?:\/\/[^/]/i.test(endpoint))
        throw new ApiError(t('notification-targets:endpointNotHttp'), 'BAD_USER_INPUT', {
          endpoint: [t('notification-targets:endpointNotHttp')],
        });
      const secure = /^https/i.test(endpoint);
      const rest = endpoint.slice(endpoint.indexOf('://') + 3);
      return `${secure ? 'jsons' : 'json'}://${userinfo(v('user'), v('password'))}${rest}`;
    },
  },
  OTHER: {
    fields: [
      ['url', t('notification-targets:fields.url'), { ...required, placeholder: 'ntfys://ntfy.example.com/topic' }],
    ],
    url: (v) => v('url'),
  },
});

/**
 * Where reminders can go besides e-mail and webhooks: the targets (masked), a test send to each, editing and
 * deleting them, which alerts use each, and a form per service that writes the target's URL.
 */
export function NotificationTargets(props: {
  targets: Target[];
  targetsOf: TargetsOfAlerts;
  alerts: Array<{ id: string; name: string }>;
  reload: () => Promise<void>;
}) {
  const { targets, targetsOf, alerts, reload } = props;
  const action = useAction();
  const editAction = useAction();
  const [service, setService] = useState<Choice>('NTFY');
  const [editing, setEditing] = useState<string | null>(null);
  const [secretShown, setSecretShown] = useState<{ name: string; secret: string } | null>(null);
  const apply = changeThen(reload);
  const form = services()[service];

  async function create(event: Event) {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    const data = new FormData(element);
    const value = (name: string) => String(data.get(name) ?? '').trim();
    await action.run(async () => {
      const name = value('name');
      const url = form.url(value, data.get('https') !== null);
      const made = (
        await gql<CreateNotificationTargetMutation, CreateNotificationTargetMutationVariables>(CREATE, {
          input: { name, url },
        })
      ).createNotificationTarget;
      setSecretShown(made.secret ? { name, secret: made.secret } : null);
      element.reset();
      // The reset picks the first service again; the fields shown stay the chosen one's.
      (element.elements.namedItem('service') as HTMLSelectElement).value = service;
      await reload();
      return t('notification-targets:added', { name });
    });
  }

  async function save(event: Event, target: Target) {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const name = String(data.get('name')).trim();
    const url = String(data.get('url')).trim();
    const saved = await editAction.run(async () => {
      await gql<UpdateNotificationTargetMutation, UpdateNotificationTargetMutationVariables>(UPDATE, {
        input: { id: target.id, name, ...(url ? { url } : {}) },
      });
      await reload();
    });
    if (saved) {
      setEditing(null);
      action.setOutcome({ kind: 'done', message: t('notification-targets:saved', { name }) });
    }
  }

  const sendTest = (target: Target) =>
    action.run(async () => {
      const { delivery } = (
        await gql<SendTestNotificationMutation, SendTestNotificationMutationVariables>(SEND_TEST, { id: target.id })
      ).sendTestNotification;
      const last = delivery?.attempts[delivery.attempts.length - 1];
      const answer = !last
        ? t('notification-targets:noAttempt')
        : last.statusCode !== null
          ? t('notification-targets:status', { code: last.statusCode })
          : (last.error ?? last.responseExcerpt ?? t('notification-targets:noAnswer'));
      const name = target.name;
      if (delivery?.status === 'SUCCEEDED') return t('notification-targets:testSucceeded', { name, answer });
      throw new ApiError(
        delivery?.status === 'PENDING'
          ? t('notification-targets:testFailedRetried', { name, answer })
          : t('notification-targets:testFailed', { name, answer }),
        'DELIVERY',
      );
    });

  const remove = (target: Target) => {
    if (!confirm(t('notification-targets:confirmDelete', { name: target.name }))) return;
    void action.run(
      apply<DeleteNotificationTargetMutation, DeleteNotificationTargetMutationVariables>(
        DELETE,
        { id: target.id },
        t('notification-targets:deleted', { name: target.name }),
      ),
    );
  };

  return (
    <section aria-labelledby="title-notification-targets">
      <h2 id="title-notification-targets">{t('alerts:targets')}</h2>
      <p>{t('notification-targets:intro')}</p>
      <Notice outcome={action.outcome} />
      {secretShown && (
        <p class="secret" role="status">
          {t('notification-targets:signingSecret', { name: secretShown.name })} <code>{secretShown.secret}</code>
        </p>
      )}
      {targets.length === 0 ? (
        <p>{t('notification-targets:none')}</p>
      ) : (
        <ul class="endpoints targets" aria-label={t('alerts:targets')}>
          {targets.map((target) => {
            const using = alerts.filter((alert) => targetsOf.get(alert.id)?.includes(target.id));
            return (
              <li key={target.id}>
                <strong>{target.name}</strong> {serviceNames()[target.scheme]} <code>{target.url}</code>
                <small>
                  {using.length > 0
                    ? t('notification-targets:usedBy', { alerts: using.map((alert) => alert.name).join(', ') })
                    : t('notification-targets:unused')}
                </small>
                <span class="target-actions">
                  <button
                    type="button"
                    disabled={action.busy}
                    aria-label={t('notification-targets:sendTestLabel', { name: target.name })}
                    onClick={() => void sendTest(target)}
                  >
                    {t('notification-targets:sendTest')}
                  </button>
                  <button
                    type="button"
                    aria-label={t('notification-targets:editLabel', { name: target.name })}
                    aria-expanded={editing === target.id}
                    onClick={() => setEditing(editing === target.id ? null : target.id)}
                  >
                    {t('common:edit')}
                  </button>
                  <button
                    type="button"
                    class="danger"
                    aria-label={t('notification-targets:deleteLabel', { name: target.name })}
                    onClick={() => remove(target)}
                  >
                    {t('common:delete')}
                  </button>
                </span>
                {editing === target.id && (
                  <form
                    class="card"
                    aria-label={t('notification-targets:editLabel', { name: target.name })}
                    onSubmit={(event) => save(event, target)}
                  >
                    <div class="grid">
                      <Field
                        label={t('notification-targets:name')}
                        name="name"
                        id="edit-target-name"
                        required
                        defaultValue={target.name}
                        errors={editAction.errors}
                      />
                      <Field
                        label={t('notification-targets:newUrl')}
                        name="url"
                        id="edit-target-url"
                        autocomplete="off"
                        hint={t('notification-targets:newUrlHint', { url: target.url })}
                        errors={editAction.errors}
                      />
                    </div>
                    <button type="submit" disabled={editAction.busy}>
                      {t('common:save')}
                    </button>
                    <button type="button" onClick={() => setEditing(null)}>
                      {t('common:close')}
                    </button>
                    <Notice outcome={editAction.outcome} />
                  </form>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <form class="card" onSubmit={create} aria-label={t('notification-targets:addTitle')}>
        <h3>{t('notification-targets:addTitle')}</h3>
        <div class="grid">
          <Select
            label={t('notification-targets:service')}
            name="service"
            options={{ ...serviceNames(), OTHER: t('notification-targets:services.OTHER') }}
            value={service}
            onChange={(event) => {
              setService(event.currentTarget.value as Choice);
              action.setOutcome(null);
            }}
          />
          <Field
            label={t('notification-targets:targetName')}
            name="name"
            id="new-target-name"
            required
            errors={action.errors}
          />
        </div>
        <div class="grid" key={service}>
          {form.fields.map(([name, label, attributes]) => (
            <Field
              key={name}
              label={label}
              name={name}
              id={`new-target-${name}`}
              errors={action.errors}
              {...attributes}
            />
          ))}
        </div>
        {form.tls && (
          <label>
            <input type="checkbox" name="https" defaultChecked /> {t('notification-targets:https')}
          </label>
        )}
        {/* The URL the form builds has no input of its own (but Other's): its messages go under the form. */}
        {service !== 'OTHER' && <FieldErrors messages={action.errors.url} id="new-target-url-errors" />}
        <button type="submit" disabled={action.busy}>
          {t('notification-targets:add')}
        </button>
      </form>
    </section>
  );
}
