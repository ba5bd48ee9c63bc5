import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import { instant } from './format';
import type {
  CreateWebhookEndpointMutation,
  CreateWebhookEndpointMutationVariables,
  DeleteWebhookEndpointMutation,
  DeleteWebhookEndpointMutationVariables,
  DeliveryStatus,
  RedeliverWebhookDeliveryMutation,
  RedeliverWebhookDeliveryMutationVariables,
  RotateWebhookEndpointSecretMutation,
  RotateWebhookEndpointSecretMutationVariables,
  WebhookEndpointsAndDeliveriesQuery,
  WebhookEndpointsAndDeliveriesQueryVariables,
  WebhookTopic,
} from './graphql.generated';
import { t } from './i18n';
import { useLiveReload } from './live';
import { changeThen, Columns, Field, Notice, Section, TableWrap, useAction } from './ui';

type Endpoint = WebhookEndpointsAndDeliveriesQuery['webhookEndpoints'][number];
type Delivery = WebhookEndpointsAndDeliveriesQuery['webhookDeliveries']['nodes'][number];

const ENDPOINTS = /* GraphQL */ `
  query WebhookEndpointsAndDeliveries {
    webhookEndpoints {
      id
      url
      events
      enabled
    }
    webhookDeliveries(first: 20) {
      nodes {
        id
        topic
        status
        attemptCount
        createdAt
        endpointId
        attempts {
          statusCode
          error
        }
      }
    }
  }
`;
const CREATE = /* GraphQL */ `
  mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) {
      webhookEndpoint {
        id
      }
      secret
    }
  }
`;
const ROTATE = /* GraphQL */ `
  mutation RotateWebhookEndpointSecret($id: ID!) {
    rotateWebhookEndpointSecret(input: { id: $id }) {
      webhookEndpoint {
        id
      }
      secret
    }
  }
`;
const DELETE = /* GraphQL */ `
  mutation DeleteWebhookEndpoint($id: ID!) {
    deleteWebhookEndpoint(input: { id: $id }) {
      deletedWebhookEndpointId
    }
  }
`;
const REDELIVER = /* GraphQL */ `
  mutation RedeliverWebhookDelivery($id: ID!) {
    redeliver(input: { deliveryId: $id }) {
      webhookDelivery {
        id
      }
    }
  }
`;

/** A topic as its event is named on the wire: SUBSCRIPTION_PAYMENT_DUE is subscription.payment_due. */
const topicLabel = (topic: WebhookTopic) => topic.toLowerCase().replace('_', '.');
const deliveryStatuses = (): Record<DeliveryStatus, string> => ({
  PENDING: t('webhooks:statuses.PENDING'),
  SUCCEEDED: t('webhooks:statuses.SUCCEEDED'),
  FAILED: t('webhooks:statuses.FAILED'),
});

/** Endpoints (their secret shown once, at creation or rotation) and the delivery log, with redelivery. */
export function Webhooks() {
  const [endpoints, setEndpoints] = useState<Endpoint[]>([]);
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const action = useAction();

  const load = async () => {
    const data = await gql<WebhookEndpointsAndDeliveriesQuery, WebhookEndpointsAndDeliveriesQueryVariables>(ENDPOINTS);
    setEndpoints(data.webhookEndpoints);
    setDeliveries(data.webhookDeliveries.nodes);
  };
  const apply = changeThen(load);
  useLiveReload(['deliveries'], load);
  useEffect(() => {
    void action.run(load);
  }, []);

  async function create(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const url = String(new FormData(form).get('url'));
    await action.run(async () => {
      const made = (
        await gql<CreateWebhookEndpointMutation, CreateWebhookEndpointMutationVariables>(CREATE, { input: { url } })
      ).createWebhookEndpoint;
      setSecret(made.secret);
      form.reset();
      await load();
      return t('webhooks:added', { url });
    });
  }

  return (
    <Section
      title={t('common:screens.webhooks')}
      actions={
        <button type="button" onClick={() => void action.run(async () => load().then(() => t('webhooks:refreshed')))}>
          {t('webhooks:refresh')}
        </button>
      }
    >
      <form class="card" onSubmit={create} aria-label={t('webhooks:addTitle')}>
        <Field
          label={t('webhooks:url')}
          name="url"
          type="url"
          required
          placeholder="https://example.com/hooks/subledger"
          errors={action.errors}
        />
        <button type="submit" disabled={action.busy}>
          {t('webhooks:add')}
        </button>
      </form>
      <Notice outcome={action.outcome} />
      {secret && (
        <p class="secret" role="status">
          {t('webhooks:secret')} <code>{secret}</code>
        </p>
      )}
      <h2>{t('webhooks:endpoints')}</h2>
      <ul class="endpoints">
        {endpoints.map((endpoint) => (
          <li key={endpoint.id}>
            <code>{endpoint.url}</code> {endpoint.enabled ? '' : t('webhooks:disabled')}{' '}
            <small>
              {endpoint.events.length > 0 ? endpoint.events.map(topicLabel).join(', ') : t('webhooks:allEvents')}
            </small>
            <button
              type="button"
              onClick={() =>
                void action.run(async () => {
                  setSecret(
                    (
                      await gql<RotateWebhookEndpointSecretMutation, RotateWebhookEndpointSecretMutationVariables>(
                        ROTATE,
                        { id: endpoint.id },
                      )
                    ).rotateWebhookEndpointSecret.secret,
                  );
                  return t('webhooks:rotated');
                })
              }
            >
              {t('webhooks:rotate')}
            </button>
            <button
              type="button"
              class="danger"
              onClick={() => {
                if (!confirm(t('webhooks:confirmDelete', { url: endpoint.url }))) return;
                void action.run(
                  apply<DeleteWebhookEndpointMutation, DeleteWebhookEndpointMutationVariables>(
                    DELETE,
                    { id: endpoint.id },
                    t('webhooks:deleted'),
                  ),
                );
              }}
            >
              {t('common:delete')}
            </button>
          </li>
        ))}
      </ul>
      <h2>{t('webhooks:log')}</h2>
      <TableWrap label={t('webhooks:log')}>
        <table aria-label={t('webhooks:log')}>
          <Columns
            names={[
              t('webhooks:topic'),
              t('webhooks:status'),
              t('webhooks:attempts'),
              t('webhooks:lastAnswer'),
              t('webhooks:made'),
              t('common:actions'),
            ]}
          />
          <tbody>
            {deliveries.map((delivery) => {
              const last = delivery.attempts[delivery.attempts.length - 1];
              return (
                <tr key={delivery.id}>
                  <td>{topicLabel(delivery.topic)}</td>
                  <td>{deliveryStatuses()[delivery.status]}</td>
                  <td>{delivery.attemptCount}</td>
                  <td>{last ? (last.statusCode ?? last.error) : '—'}</td>
                  <td>{instant(delivery.createdAt)}</td>
                  <td>
                    {delivery.status !== 'PENDING' && (
                      <button
                        type="button"
                        onClick={() =>
                          void action.run(
                            apply<RedeliverWebhookDeliveryMutation, RedeliverWebhookDeliveryMutationVariables>(
                              REDELIVER,
                              { id: delivery.id },
                              t('webhooks:sentAgain'),
                            ),
                          )
                        }
                      >
                        {t('webhooks:redeliver')}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>
    </Section>
  );
}
