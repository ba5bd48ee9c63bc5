import path from 'node:path';

import { VERSION } from '../../src/platform/version';
import { ALL_TOPICS, BUDGET_TOPICS, REMINDER_TOPICS } from '../../src/webhooks/topics';
import { COMPONENT_SCHEMAS } from './components';
import { type JsonSchema, ref } from './json-schema';
import { type Answer, type Operation, restOperations } from './operations';

/** The committed document: the default service name (the served one carries the configured name). */
export const OPENAPI_FILE = path.resolve(process.cwd(), 'schema', 'openapi.json');

const DESCRIPTION = [
  'The REST interface Subledger shares with the original subscription tracking service, and its webhooks.',
  'POST bodies are multipart form fields and PUT bodies URL-encoded fields, as the original takes them; JSON is accepted too.',
  'Every PUT path also answers PATCH. Every failure is JSON `{status: false, message, errors?}` with messages per field.',
  'Another user’s ids read as unknown (400), as the original answers. The GraphQL API at /graphql covers all of this and more.',
].join('\n\n');

const MEDIA_TYPES: Record<Operation['method'], string[]> = {
  get: [],
  delete: [],
  post: ['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json'],
  put: ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'],
};

const error = (description: string): Answer => ({ description, schema: ref('Error') });

/** What every operation of its kind may also answer. */
function commonAnswers(operation: Operation): Record<string, Answer> {
  return {
    ...(operation.bearer === false
      ? {}
      : { 401: error('No valid Bearer token'), 429: error('Too many requests (Retry-After says when to retry)') }),
    ...(operation.bearer !== false && operation.method !== 'get' ? { 403: error('The token is read-only') } : {}),
    ...(operation.form || operation.json
      ? { 413: error('Body over 1 MB'), 415: error('Unsupported body encoding') }
      : {}),
  };
}

function response(answer: Answer) {
  if (!answer.schema) return { description: answer.description };
  return {
    description: answer.description,
    content: { [answer.mediaType ?? 'application/json']: { schema: answer.schema } },
  };
}

function pathItem(operation: Operation) {
  const body = operation.json
    ? { 'application/json': operation.json }
    : operation.form
      ? Object.fromEntries(MEDIA_TYPES[operation.method].map((type) => [type, operation.form]))
      : null;
  const answers = { ...commonAnswers(operation), ...operation.answers, default: error('Server failure') };
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    tags: [operation.tag],
    ...(operation.bearer === false ? { security: [] } : {}),
    ...(operation.parameters ? { parameters: operation.parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(Object.entries(body).map(([type, schema]) => [type, { schema }])),
          },
        }
      : {}),
    responses: Object.fromEntries(Object.entries(answers).map(([status, answer]) => [status, response(answer)])),
  };
}

/** One outbound topic: the POST Subledger makes to a registered endpoint. */
function webhook(topic: string, serviceShortName: string) {
  const header = (name: string, description: string, schema: JsonSchema = { type: 'string' }) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema,
  });
  const reminder = (REMINDER_TOPICS as readonly string[]).includes(topic);
  const budget = (BUDGET_TOPICS as readonly string[]).includes(topic);
  return {
    post: {
      summary: topic,
      description: budget
        ? "Next month's planned total exceeds a budget (sent only to endpoints that list this topic)"
        : reminder
          ? 'A reminder fired (sent only to endpoints that list this topic)'
          : 'A record changed',
      parameters: [
        header(`x-${serviceShortName}-webhook-id`, 'The endpoint’s id', { type: 'string', pattern: '^\\d+$' }),
        header(`x-${serviceShortName}-webhook-event`, 'The topic', { const: topic }),
        header(`x-${serviceShortName}-webhook-source`, 'The service’s base URL'),
        header('webhook-id', 'The event’s id: the same on every retry (deduplicate on it)'),
        header('webhook-timestamp', 'Unix seconds of this attempt'),
        header(
          'webhook-signature',
          '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the endpoint’s secret',
        ),
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref(budget ? 'BudgetWarning' : 'WebhookDelivery') } },
      },
      responses: {
        '2XX': { description: 'Received' },
        410: { description: 'Gone: no further attempts' },
        default: { description: 'Any other answer (or none within the timeout) is retried on the schedule' },
      },
    },
  };
}

/** The OpenAPI 3.1 document of the REST facade, the inbound webhook and the outbound deliveries. */
export function openApiDocument(serviceShortName = 'subledger') {
  const operations = restOperations(serviceShortName);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) (paths[operation.path] ??= {})[operation.method] = pathItem(operation);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Subledger REST API',
      version: VERSION,
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    tags: [...new Set(operations.map((operation) => operation.tag))].map((name) => ({ name })),
    security: [{ bearer: [] }],
    paths,
    webhooks: Object.fromEntries(ALL_TOPICS.map((topic) => [topic, webhook(topic, serviceShortName)])),
    components: {
      schemas: COMPONENT_SCHEMAS,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token of login (or GraphQL’s signUp/login)' },
      },
    },
  };
}

export const printOpenApi = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`;
