import { ALERT_SORT_FIELDS } from '../../src/alerts/alert.service';
import { CATEGORY_SORT_FIELDS, MAX_SEARCH_RESULTS } from '../../src/catalogue/catalogue.service';
import { INBOUND_CREATE_DEFAULTS, RECORD_FIELDS } from '../../src/subscriptions/subscription.fields';
import { DEFAULT_LENGTH, FILTER_KEYS, MAX_LENGTH, SORT_FIELDS } from '../../src/subscriptions/subscription.list';
import { DEFAULT_UPCOMING_DAYS, MAX_RANGE_DAYS } from '../../src/subscriptions/subscription.service';
import { OWNED_RESOURCES } from '../routes/organizing.routes';
import {
  ADDON_FORM,
  ALERT_CREATE_FORM,
  ALERT_UPDATE_FORM,
  form,
  LOGIN_FORM,
  OWNED_FORMS,
  SETTINGS_FORM,
  SUBSCRIPTION_CREATE_FORM,
  SUBSCRIPTION_UPDATE_FORM,
} from './forms';
import { arrayOf, date, type JsonSchema, ref, string } from './json-schema';

/** The fields the inbound webhook's created event may leave out, with the value each then takes. */
const INBOUND_DEFAULTS = RECORD_FIELDS.filter((field) => INBOUND_CREATE_DEFAULTS[field.name] !== undefined)
  .map((field) => `${field.rest} ${INBOUND_CREATE_DEFAULTS[field.name]}`)
  .join(', ');

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  schema: JsonSchema;
  description?: string;
  required?: boolean;
}

export interface Answer {
  description: string;
  /** JSON unless a media type is named. */
  schema?: JsonSchema;
  mediaType?: string;
}

/** One REST operation as the facade answers it (rest-facade/routes/*). */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI's path template, `{name}` for a parameter. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** Bearer token required (all but login, the inbound webhook and calendar feeds). */
  bearer?: false;
  parameters?: Parameter[];
  /** A form, read from multipart, URL-encoded or JSON bodies alike; `json` takes JSON only. */
  form?: JsonSchema;
  json?: JsonSchema;
  answers: Record<string, Answer>;
}

const id = (what: string): Parameter => ({
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'integer', minimum: 1 },
  description: `The ${what}'s id`,
});
const query = (name: string, schema: JsonSchema, description?: string): Parameter => ({
  name,
  in: 'query',
  schema,
  ...(description ? { description } : {}),
});
const sortDescription = (fields: readonly string[]) => `<field>[:asc|desc], comma-separated, on ${fields.join(', ')}`;

function paged(sortFields: readonly string[], lengths = { default: 10, max: 1000 }): Parameter[] {
  return [
    query('q', { type: 'string', maxLength: 200 }, 'Search text (may be empty)'),
    query('start', { type: 'integer', minimum: 0, default: 0 }, 'Offset'),
    query('length', { type: 'integer', minimum: 1, maximum: lengths.max, default: lengths.default }, 'Page size'),
    query('sort', { type: 'string', maxLength: 200 }, sortDescription(sortFields)),
  ];
}

const json = (description: string, name: string): Answer => ({ description, schema: ref(name) });
const list = (description: string, name: string): Answer => ({ description, schema: arrayOf(ref(name)) });
const done = (description: string): Answer => ({ description, schema: ref('StatusMessage') });
const refused = (description = 'Refused input (field errors under `errors`) or an unknown id'): Answer => ({
  description,
  schema: ref('Error'),
});
const noResults = refused('No result, an unknown id, or a malformed parameter');

/** The answers of records that carry an ETag (see rest-facade/json-stream.ts sendKeptJson). */
const ifNoneMatch: Parameter = {
  name: 'If-None-Match',
  in: 'header',
  schema: { type: 'string' },
  description: 'The ETag of an answer had before: 304 while it is still the answer',
};
const unchanged: Answer = { description: 'Unchanged since the answer whose ETag If-None-Match names' };

const subscriptions = 'Subscriptions';
const alerts = 'Alerts';
const catalogue = 'Catalogue';
const organizing = 'Folders, tags and payment methods';

/**
 * The documented operations 1-25 and the facade's paths beyond them, in the spec's order; the inbound
 * webhook's headers carry the service's short name.
 */
export function restOperations(serviceShortName: string): Operation[] {
  const header = (name: string) => `x-${serviceShortName}-webhook-${name}`;
  return [
    {
      method: 'post',
      path: '/api/v1/auth/login',
      operationId: 'login',
      summary: 'Sign in: a user and a Bearer token',
      tag: 'Authentication',
      bearer: false,
      form: LOGIN_FORM,
      answers: {
        201: json('Signed in', 'Login'),
        400: refused(),
        401: refused('Credentials refused, or a two-factor code (`code`) missing or wrong'),
        403: refused('Password login is turned off (OIDC_ONLY): sign in by single sign-on'),
        429: refused('Too many attempts (Retry-After says when to retry)'),
      },
    },
    {
      method: 'get',
      path: '/api/v1/auth/token',
      operationId: 'currentUser',
      summary: 'The token’s user',
      tag: 'Authentication',
      answers: { 200: json('The user', 'User') },
    },
    {
      method: 'get',
      path: '/api/v1/auth/logout',
      operationId: 'logout',
      summary: 'Revoke the token',
      tag: 'Authentication',
      answers: { 200: done('Logged out') },
    },
    {
      method: 'post',
      path: '/api/v1/subscriptions',
      operationId: 'createSubscription',
      summary: 'Create a subscription or lifetime purchase',
      tag: subscriptions,
      form: SUBSCRIPTION_CREATE_FORM,
      answers: { 200: json('Created', 'SubscriptionWritten'), 400: refused() },
    },
    // Operations 5 and 6.
    ...(
      [
        ['refund', 'Refund', 'Refunded'],
        ['cancel', 'Cancel', 'Cancelled'],
      ] as const
    ).map(([verb, action, outcome]): Operation => ({
      method: 'post',
      path: `/api/v1/subscriptions/{id}/${verb}`,
      operationId: `${verb}Subscription`,
      summary: `${action} a record`,
      tag: subscriptions,
      parameters: [id('subscription')],
      answers: { 200: done(outcome), 400: refused() },
    })),
    {
      method: 'post',
      path: '/api/v1/subscriptions/{id}/addon',
      operationId: 'addAddon',
      summary: 'Add an add-on to a record',
      tag: subscriptions,
      parameters: [id('main record')],
      form: ADDON_FORM,
      answers: { 200: json('The add-on', 'SubscriptionWritten'), 400: refused() },
    },
    {
      method: 'get',
      path: '/api/v1/subscriptions',
      operationId: 'listSubscriptions',
      summary: 'List, search, filter and sort records',
      tag: subscriptions,
      parameters: [
        ...paged(SORT_FIELDS, { default: DEFAULT_LENGTH, max: MAX_LENGTH }),
        query(
          'filters',
          { type: 'string', maxLength: 2000 },
          `JSON {"subscription": {<field>: ["<value>", …]}} on ${[...Object.keys(FILTER_KEYS), 'payment_date'].join(', ')}; may be empty`,
        ),
        ifNoneMatch,
      ],
      answers: {
        200: list('A page of records (with an ETag)', 'SubscriptionListItem'),
        304: unchanged,
        400: noResults,
      },
    },
    {
      method: 'get',
      path: '/api/v1/subscriptions/upcoming',
      operationId: 'upcomingPayments',
      summary: 'Records with a payment due in the next days',
      tag: subscriptions,
      parameters: [
        query(
          'days',
          { type: 'integer', minimum: 0, maximum: MAX_RANGE_DAYS, default: DEFAULT_UPCOMING_DAYS },
          'How many days ahead',
        ),
        ifNoneMatch,
      ],
      answers: {
        200: list('Records by next payment date (with an ETag)', 'Subscription'),
        304: unchanged,
        400: noResults,
      },
    },
    {
      method: 'get',
      path: '/api/v1/subscriptions/{id}',
      operationId: 'getSubscription',
      summary: 'One record (in an array, as the original answers)',
      tag: subscriptions,
      parameters: [id('subscription'), ifNoneMatch],
      answers: {
        200: {
          description: 'The record (with an ETag)',
          schema: { ...arrayOf(ref('Subscription')), minItems: 1, maxItems: 1 },
        },
        304: unchanged,
        400: noResults,
      },
    },
    {
      method: 'put',
      path: '/api/v1/subscriptions/{id}',
      operationId: 'updateSubscription',
      summary: 'Change a record (PATCH alike)',
      tag: subscriptions,
      parameters: [id('subscription')],
      form: SUBSCRIPTION_UPDATE_FORM,
      answers: { 200: done('Updated'), 400: refused() },
    },
    {
      method: 'delete',
      path: '/api/v1/subscriptions/{id}',
      operationId: 'deleteSubscription',
      summary: 'Delete a record (and its add-ons)',
      tag: subscriptions,
      parameters: [id('subscription')],
      answers: { 200: done('Deleted'), 400: refused() },
    },
    {
      method: 'get',
      path: '/api/v1/calendar',
      operationId: 'calendar',
      summary: 'Payment dates in a range (the current month by default)',
      tag: subscriptions,
      parameters: [query('start', date, 'First day'), query('end', date, 'Last day'), ifNoneMatch],
      answers: {
        200: list('One entry per payment date (with an ETag)', 'CalendarEntry'),
        304: unchanged,
        400: noResults,
      },
    },
    {
      method: 'post',
      path: '/api/v1/alerts',
      operationId: 'createAlert',
      summary: 'Create an alert definition',
      tag: alerts,
      form: ALERT_CREATE_FORM,
      answers: { 200: json('Created', 'AlertWritten'), 400: refused() },
    },
    {
      method: 'get',
      path: '/api/v1/alerts',
      operationId: 'listAlerts',
      summary: 'The caller’s alert definitions and the system default',
      tag: alerts,
      parameters: paged(ALERT_SORT_FIELDS),
      answers: { 200: list('A page of alerts', 'Alert'), 400: noResults },
    },
    {
      method: 'get',
      path: '/api/v1/alerts/{id}',
      operationId: 'getAlert',
      summary: 'One alert definition',
      tag: alerts,
      parameters: [id('alert')],
      answers: { 200: json('The alert', 'Alert'), 400: noResults },
    },
    {
      method: 'put',
      path: '/api/v1/alerts/{id}',
      operationId: 'updateAlert',
      summary: 'Change an alert definition (PATCH alike)',
      tag: alerts,
      parameters: [id('alert')],
      form: ALERT_UPDATE_FORM,
      answers: { 200: json('Updated', 'AlertWritten'), 400: refused() },
    },
    {
      method: 'delete',
      path: '/api/v1/alerts/{id}',
      operationId: 'deleteAlert',
      summary: 'Delete an alert definition',
      tag: alerts,
      parameters: [id('alert')],
      answers: { 200: done('Deleted'), 400: refused(), 409: refused('Records still use it') },
    },
    ...['/api/v1/products/search', '/api/v1/products'].map((path): Operation => ({
      method: 'get',
      path,
      operationId: path.endsWith('search') ? 'searchProducts' : 'browseProducts',
      summary: path.endsWith('search') ? 'Search the catalogue by name (typo-tolerant)' : 'Page through the catalogue',
      tag: catalogue,
      parameters: [
        query('q', { type: 'string', maxLength: 200 }, 'Name to look for; empty pages through the catalogue'),
        query('start', { type: 'integer', minimum: 0, default: 0 }),
        query('length', { type: 'integer', minimum: 1, maximum: MAX_SEARCH_RESULTS, default: 10 }),
      ],
      answers: { 200: list('Products', 'Product'), 400: noResults },
    })),
    {
      method: 'get',
      path: '/api/v1/products/{id}',
      operationId: 'getProduct',
      summary: 'One catalogue product',
      tag: catalogue,
      parameters: [id('product')],
      answers: { 200: json('The product', 'ProductDetail'), 400: noResults },
    },
    {
      method: 'get',
      path: '/api/v1/products/categories',
      operationId: 'listCategories',
      summary: 'Product categories: the global ones and the caller’s',
      tag: catalogue,
      parameters: paged(CATEGORY_SORT_FIELDS),
      answers: { 200: list('Categories', 'Category'), 400: noResults },
    },
    {
      method: 'get',
      path: '/api/v1/products/categories/{id}',
      operationId: 'getCategory',
      summary: 'One product category',
      tag: catalogue,
      parameters: [id('category')],
      answers: { 200: json('The category', 'Category'), 400: noResults },
    },
    {
      method: 'get',
      path: '/api/v1/settings/extension',
      operationId: 'getExtensionSettings',
      summary: 'The browser extension’s settings',
      tag: 'Settings',
      answers: { 200: json('The settings and their user', 'ExtensionSettings') },
    },
    {
      method: 'put',
      path: '/api/v1/settings/extension',
      operationId: 'updateExtensionSettings',
      summary: 'Change the extension’s settings (PATCH alike)',
      tag: 'Settings',
      form: SETTINGS_FORM,
      answers: { 200: done('Updated'), 400: refused() },
    },
    ...ownedResource('Folder', 'folders'),
    ...ownedResource('Tag', 'tags'),
    ...ownedResource('PaymentMethod', 'methods'),
    {
      method: 'post',
      path: '/webhook/user/data/{token}',
      operationId: 'inboundWebhook',
      summary: 'Inbound webhook: create, update, delete, refund or cancel a record',
      tag: 'Inbound webhook',
      bearer: false,
      parameters: [
        {
          name: 'token',
          in: 'path',
          required: true,
          schema: string,
          description: 'A create token (created only) or a manage token (the rest)',
        },
        {
          name: header('topic'),
          in: 'header',
          schema: { type: 'string', pattern: '^subscription\\.[a-z]+$' },
          description: 'subscription.<event>',
        },
        {
          name: header('event'),
          in: 'header',
          schema: { type: 'string', enum: ['created', 'updated', 'deleted', 'refunded', 'canceled'] },
          description: 'The event, when no topic is sent',
        },
        { name: header('resource'), in: 'header', schema: { const: 'subscription' } },
        {
          name: 'Idempotency-Key',
          in: 'header',
          schema: { type: 'string', minLength: 1, maxLength: 200 },
          description: 'The same key answers as the first request did and changes nothing',
        },
      ],
      json: {
        ...form({
          id: { type: ['string', 'integer'], description: 'The record (all events but created)' },
          ...(SUBSCRIPTION_CREATE_FORM.properties as Record<string, JsonSchema>),
        }),
        description: `created: the fields of operation 4, where these may be left out and then take the value named: ${INBOUND_DEFAULTS}; updated: id and any of them; deleted, refunded, canceled: id. Values may be strings.`,
      },
      answers: {
        200: json('Done (created and updated carry the record)', 'InboundAnswer'),
        400: refused(),
        401: refused('Unknown or revoked token'),
        403: refused('The token is of the other kind'),
        415: refused('The body is not JSON'),
        422: refused('The Idempotency-Key was used with another request'),
      },
    },
    {
      method: 'get',
      path: '/calendar/{token}.ics',
      operationId: 'calendarFeed',
      summary: 'A calendar feed (iCalendar), opened by the token in its URL alone',
      tag: 'Calendar feeds and exports',
      bearer: false,
      parameters: [{ name: 'token', in: 'path', required: true, schema: string }],
      answers: {
        200: {
          description: 'The feed; ETag and Last-Modified allow conditional requests',
          mediaType: 'text/calendar',
          schema: string,
        },
        304: { description: 'Unchanged since If-None-Match or If-Modified-Since' },
        404: refused('Unknown or revoked feed'),
      },
    },
    {
      method: 'get',
      path: '/auth/oidc/login',
      operationId: 'singleSignOnLogin',
      summary: 'Single sign-on: sends the browser to the OpenID Connect provider (OIDC_ISSUER)',
      tag: 'Authentication',
      bearer: false,
      answers: {
        303: {
          description:
            "To the provider's authorization page; a browser (Accept: text/html first) refused below goes to the dashboard's `#sso-error=<reason>` instead",
        },
        404: refused('Single sign-on is not set up'),
        503: refused('The provider cannot be reached'),
      },
    },
    {
      method: 'get',
      path: '/auth/oidc/callback',
      operationId: 'singleSignOnCallback',
      summary:
        'Single sign-on: where the provider sends the browser back; on to the dashboard with a one-time code for the GraphQL completeSingleSignOn',
      tag: 'Authentication',
      bearer: false,
      parameters: [
        query('code', string, "The provider's authorization code"),
        query('state', string, 'The state the login made'),
      ],
      answers: {
        303: {
          description:
            'To the dashboard, `#sso-code=<one-time code>` in the fragment; a browser (Accept: text/html first) refused below goes to `#sso-error=<reason>` instead (expired, refused, unverified, no-account, other-identity, disabled, unavailable, not-set-up)',
        },
        400: refused('Unknown, expired or used sign-in (state)'),
        401: refused("The provider's answer was refused, or the account is disabled"),
        403: refused(
          'An unverified e-mail, no account (OIDC_AUTO_SIGNUP off), or an account linked to another identity',
        ),
        404: refused('Single sign-on is not set up'),
        503: refused('The provider cannot be reached'),
      },
    },
    {
      method: 'get',
      path: '/export/subscriptions.csv',
      operationId: 'exportCsv',
      summary: 'Every record as CSV (UTF-8 with a byte-order mark)',
      tag: 'Calendar feeds and exports',
      answers: { 200: { description: 'The records, one per row', mediaType: 'text/csv', schema: string } },
    },
    {
      method: 'get',
      path: '/export/account.json',
      operationId: 'exportAccount',
      summary: 'The whole account as JSON, which importSubscriptions (GraphQL) restores',
      tag: 'Calendar feeds and exports',
      answers: { 200: { description: 'The account', schema: { type: 'object' } } },
    },
  ];
}

/** List, create, read, update and delete of one of the original's owned resources. */
function ownedResource(schema: string, resource: keyof typeof OWNED_RESOURCES): Operation[] {
  const properties = OWNED_FORMS[resource];
  const path = `/api/v1${OWNED_RESOURCES[resource].path}`;
  const tag = organizing;
  return [
    {
      method: 'get',
      path,
      operationId: `list${schema}s`,
      summary: `List ${schema} rows`,
      tag,
      parameters: paged(Object.keys(OWNED_RESOURCES[resource].sort)),
      answers: { 200: list('A page', schema), 400: noResults },
    },
    {
      method: 'post',
      path,
      operationId: `create${schema}`,
      summary: `Create a ${schema}`,
      tag,
      form: form(properties, ['name']),
      answers: { 201: json('Created', schema), 400: refused() },
    },
    {
      method: 'get',
      path: `${path}/{id}`,
      operationId: `get${schema}`,
      summary: `One ${schema}`,
      tag,
      parameters: [id(schema)],
      answers: { 200: json('The row', schema), 400: noResults },
    },
    {
      method: 'put',
      path: `${path}/{id}`,
      operationId: `update${schema}`,
      summary: `Change a ${schema} (PATCH alike)`,
      tag,
      parameters: [id(schema)],
      form: form(properties),
      answers: { 200: json('Updated', schema), 400: refused() },
    },
    {
      method: 'delete',
      path: `${path}/{id}`,
      operationId: `delete${schema}`,
      summary: `Delete a ${schema}`,
      tag,
      parameters: [id(schema)],
      answers: { 204: { description: 'Deleted' }, 400: refused(), 409: refused('Records still use it') },
    },
  ];
}
