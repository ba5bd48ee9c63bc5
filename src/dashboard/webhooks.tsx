import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
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
import { useLiveReload } from './live';
import { changeThen, Columns, Field, Notice, Section, useAction } from './ui';

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
const DELIVERY_STATUSES: Record<DeliveryStatus, string> = {
  PENDING: 'Pending',
  SUCCEEDED: 'Succeeded',
  FAILED: 'Failed',
};

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
      return `Endpoint added: ${url}`;
    });
  }

  return (
    <Section
      title="Webhooks"
      actions={
        <button type="button" onClick={() => void action.run(async () => load().then(() => 'Refreshed'))}>
          Refresh
        </button>
      }
    >
      <form class="card" onSubmit={create} aria-label="Add a webhook endpoint">
        <Field
          label="Endpoint URL"
          name="url"
          type="url"
          required
          placeholder="https://example.com/hooks/subledger"
          errors={action.errors}
        />
        <button type="submit" disabled={action.busy}>
          Add endpoint
        </button>
      </form>
      <Notice outcome={action.outcome} />
      {secret && (
        <p class="secret" role="status">
          Signing secret (shown once): <code>{secret}</code>
        </p>
      )}
      <h2>Endpoints</h2>
      <ul class="endpoints">
        {endpoints.map((endpoint) => (
          <li key={endpoint.id}>
            <code>{endpoint.url}</code> {endpoint.enabled ? '' : '(disabled)'}{' '}
            <small>
              {endpoint.events.length > 0 ? endpoint.events.map(topicLabel).join(', ') : 'all change events'}
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
                  return 'Secret rotated';
                })
              }
            >
              Rotate secret
            </button>
            <button
              type="button"
              class="danger"
              onClick={() => {
                if (!confirm(`Delete the endpoint ${endpoint.url}? Nothing more is delivered to it.`)) return;
                void action.run(
                  apply<DeleteWebhookEndpointMutation, DeleteWebhookEndpointMutationVariables>(
                    DELETE,
                    { id: endpoint.id },
                    'Endpoint deleted',
                  ),
                );
              }}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
      <h2>Delivery log</h2>
      <div class="table-wrap">
        <table aria-label="Delivery log">
          <Columns names={['Topic', 'Status', 'Attempts', 'Last answer', 'Made', 'Actions']} />
          <tbody>
            {deliveries.map((delivery) => {
              const last = delivery.attempts[delivery.attempts.length - 1];
              return (
                <tr key={delivery.id}>
                  <td>{topicLabel(delivery.topic)}</td>
                  <td>{DELIVERY_STATUSES[delivery.status]}</td>
                  <td>{delivery.attemptCount}</td>
                  <td>{last ? (last.statusCode ?? last.error) : '—'}</td>
                  <td>{new Date(delivery.createdAt).toLocaleString()}</td>
                  <td>
                    {delivery.status !== 'PENDING' && (
                      <button
                        type="button"
                        onClick={() =>
                          void action.run(
                            apply<RedeliverWebhookDeliveryMutation, RedeliverWebhookDeliveryMutationVariables>(
                              REDELIVER,
                              { id: delivery.id },
                              'Sent again',
                            ),
                          )
                        }
                      >
                        Redeliver
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Section>
  );
}
