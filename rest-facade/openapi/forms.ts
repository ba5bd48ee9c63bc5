import {
  ALERT_CHANNELS,
  ALERT_CONDITIONS,
  ALERT_SUBJECTS,
  ALERT_TIME,
  MAX_TIME_PERIOD,
  TIME_CYCLES,
} from '../../src/alerts/alert.input';
import { type FieldRule, RECORD_FIELDS, REQUIRED_ON_CREATE } from '../../src/subscriptions/subscription.fields';
import { DECIMAL } from '../form';
import { arrayOf, code, date, integer, type JsonSchema, string } from './json-schema';

/** A form field's schema from its rule in the field table (what FormReader accepts, before the domain's checks). */
function ruleSchema(rule: FieldRule): JsonSchema {
  switch (rule.kind) {
    case 'code':
      return rule.switch ? { anyOf: [code(rule.labels), { type: 'boolean' }] } : code(rule.labels);
    case 'integer':
      return { type: 'integer', minimum: rule.min, maximum: rule.max };
    case 'money':
      return {
        type: 'string',
        pattern: DECIMAL.source,
        description: 'A decimal number of at least 0, two decimals at most',
      };
    case 'date':
      return date;
    case 'text':
      return { type: 'string', maxLength: rule.max };
    case 'currency':
      return { type: 'string', pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code' };
    case 'zone':
      return { type: 'string', description: 'IANA zone name' };
  }
}

/** The value fields of the field table, by their REST names. */
const VALUE_FIELDS: Record<string, JsonSchema> = Object.fromEntries(
  RECORD_FIELDS.map((field) => [
    field.rest,
    field.description ? { ...ruleSchema(field.rule), description: field.description } : ruleSchema(field.rule),
  ]),
);

const LINK_FIELDS: Record<string, JsonSchema> = {
  brand_id: {
    type: 'string',
    description: 'A catalogue product id, or a product name (a private product of that name is made)',
  },
  folder_id: integer,
  alert_id: integer,
  category_id: integer,
  payment_mode_id: integer,
  'tags[]': { ...arrayOf(string), description: 'Tag names, repeated; unknown names become tags' },
};

/** A form body: its fields and the required ones. */
export function form(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** Operation 4 (and the inbound webhook's created event). */
export const SUBSCRIPTION_CREATE_FORM = form({ ...LINK_FIELDS, ...VALUE_FIELDS }, [
  'brand_id',
  ...RECORD_FIELDS.filter((field) => REQUIRED_ON_CREATE.has(field.name)).map((field) => field.rest),
]);

/** Operation 11: every field optional; currency_code is the original's name of price_type. */
export const SUBSCRIPTION_UPDATE_FORM = form({
  id: { type: 'integer', description: 'When sent, the id in the path' },
  ...LINK_FIELDS,
  currency_code: {
    ...VALUE_FIELDS.price_type,
    description: 'The price’s currency (or price_type: send one, or the same in both)',
  },
  ...VALUE_FIELDS,
});

/** Operation 7. */
export const ADDON_FORM = form(
  {
    type: { type: 'integer', description: '3 in use' },
    price: VALUE_FIELDS.price,
    price_type: VALUE_FIELDS.price_type,
    payment_date: date,
    status: VALUE_FIELDS.status,
    recurring: VALUE_FIELDS.recurring,
    refund_date: date,
  },
  ['type', 'price', 'price_type', 'payment_date'],
);

const ALERT_FIELDS: Record<string, JsonSchema> = {
  alert_name: { type: 'string', minLength: 1, maxLength: 200 },
  time_period: { type: 'integer', minimum: 0, maximum: MAX_TIME_PERIOD },
  time_cycle: { ...code(TIME_CYCLES), description: 'The unit of time_period (days when absent)' },
  time: { type: 'string', pattern: ALERT_TIME.source, description: 'HH:MM, 24-hour, in timezone' },
  alert_condition: code(ALERT_CONDITIONS),
  alert_type: {
    ...code(ALERT_CHANNELS),
    description: `${code(ALERT_CHANNELS).description} (1 also means every notification target)`,
  },
  timezone: { type: 'string', description: 'IANA zone name' },
  alert_subs_type: code(ALERT_SUBJECTS),
  alert_contact: {
    type: 'string',
    format: 'email',
    description: 'Where reminder e-mails go (the account’s address when absent)',
  },
};

/** Operation 14 (every field but time_cycle and alert_contact required) and 17 (each optional). */
export const ALERT_CREATE_FORM = form(ALERT_FIELDS, [
  'alert_name',
  'time_period',
  'time',
  'alert_condition',
  'alert_type',
  'timezone',
  'alert_subs_type',
]);
export const ALERT_UPDATE_FORM = form(ALERT_FIELDS);

const flag: JsonSchema = { type: 'integer', enum: [0, 1] };

/** Operation 24. */
export const SETTINGS_FORM = form({
  auto_detect_subscriptions: flag,
  browser_notifications: flag,
  notify_before: integer,
  notify_before_days: { type: 'integer', description: 'The original’s name of notify_before' },
});

export const LOGIN_FORM = form({ email: string, password: string, code: string }, ['email', 'password']);

/** The fields of the owned resources beyond the spec, beside their name. */
export const OWNED_FORMS: Record<'folders' | 'tags' | 'methods', Record<string, JsonSchema>> = {
  folders: { name: string, color: string, is_default: flag },
  tags: { name: string },
  methods: { name: string, payment_type: string, description: string, expiry: string },
};
