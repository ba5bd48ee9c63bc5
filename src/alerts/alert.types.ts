import { DateTimeResolver, TimeZoneResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

import { Node } from '../platform/graphql/node';
import { renameUserErrorFields } from '../platform/graphql/payloads';
import { definedOnly } from '../platform/objects';
import { RecordType } from '../platform/record-enums';
import { toIsoMicros } from '../platform/wire-formats';
import type { Alert } from './alert.entity';
import type { AlertInput } from './alert.input';

/**
 * The closed sets of an alert as GraphQL enums. Their values are the original's integer codes (alert.input.ts),
 * so resolvers and services keep the codes and GraphQL answers and takes the names.
 */
export const AlertCondition = { ALL: 1, BEFORE_DUE_DATE: 2, BEFORE_REFUND_DATE: 3 } as const;
export const AlertChannel = { ALL: 1, EMAIL: 2, BROWSER: 3, WEBHOOK: 4 } as const;
export const AlertTimeUnit = { DAYS: 1, WEEKS: 2, MONTHS: 3 } as const;
/** The channels a test reminder went through (the service's names). */
export const ReminderChannel = { EMAIL: 'email', BROWSER: 'browser', WEBHOOK: 'webhook' } as const;

registerEnumType(AlertCondition, {
  name: 'AlertCondition',
  description: 'Which dates an alert reminds of.',
  valuesConfig: {
    ALL: {
      description:
        'Every date: payments, the end of refund windows and the last day to cancel a contract (REST alert_condition 1).',
    },
    BEFORE_DUE_DATE: { description: 'Before each payment (due) date (REST alert_condition 2).' },
    BEFORE_REFUND_DATE: { description: 'Before the end of a refund window (REST alert_condition 3).' },
  },
});

registerEnumType(AlertChannel, {
  name: 'AlertChannel',
  description: "Where an alert's reminders go.",
  valuesConfig: {
    ALL: {
      description: 'Every channel: e-mail, the browser extension, webhooks and every notification target (REST 1).',
    },
    EMAIL: { description: 'E-mail only (REST alert_type 2).' },
    BROWSER: { description: 'The browser extension only (REST alert_type 3).' },
    WEBHOOK: { description: 'Webhook endpoints and the notification targets set on the alert (REST alert_type 4).' },
  },
});

registerEnumType(AlertTimeUnit, {
  name: 'AlertTimeUnit',
  description: "The unit of an alert's time period.",
  valuesConfig: {
    DAYS: { description: 'Days (REST time_cycle 1, and when it is absent).' },
    WEEKS: { description: 'Weeks (REST time_cycle 2).' },
    MONTHS: { description: 'Calendar months (REST time_cycle 3).' },
  },
});

registerEnumType(ReminderChannel, {
  name: 'ReminderChannel',
  description: 'A channel one reminder went through.',
  valuesConfig: {
    EMAIL: { description: 'An e-mail.' },
    BROWSER: { description: 'The browser extension (it shows fired reminders itself).' },
    WEBHOOK: { description: 'A subscription.payment_due event to webhook endpoints.' },
  },
});

// The domain's field errors name the REST fields; the inputs name them otherwise.
renameUserErrorFields({
  alert_name: 'name',
  alert_condition: 'condition',
  alert_type: 'channel',
  alert_subs_type: 'subjects',
  alert_contact: 'contact',
});

@ObjectType('Alert', {
  implements: Node,
  description:
    'A reminder definition: timePeriod × timeCycle before the dates of its condition, at time (local) in timezone.',
})
export class AlertView {
  id!: number;
  @Field({ description: 'Its name.' }) name!: string;
  @Field({ description: 'Whether it is the system default alert, which every user sees and no one changes.' })
  isSystem!: boolean;
  @Field(() => Int, { description: 'How many timeCycle units before the date it reminds (0 to 365).' })
  timePeriod!: number;
  @Field(() => AlertTimeUnit, { description: 'The unit of timePeriod.' }) timeCycle!: number;
  @Field({ description: 'The local time of day it reminds at, HH:MM:SS.' }) time!: string;
  @Field({ description: 'The IANA zone name of time.' }) timezone!: string;
  @Field(() => AlertCondition, { description: 'Which dates it reminds of.' }) condition!: number;
  @Field(() => AlertChannel, { description: 'Where its reminders go.' }) channel!: number;
  @Field(() => RecordType, {
    description: 'The kind of record it is for (the system default alert reminds of every kind).',
  })
  subjects!: number;
  @Field(() => String, {
    nullable: true,
    description: "The e-mail address its reminders go to; null for the owner's own.",
  })
  contact!: string | null;
  @Field(() => DateTimeResolver, { description: 'When it was made.' }) createdAt!: string;
  @Field(() => DateTimeResolver, { description: 'When it last changed.' }) updatedAt!: string;
}

// Base inputs: each mutation's input type is a named subclass (alert.resolver.ts).
/** The changes to an alert: the fields given are set. */
@InputType()
export class AlertChangesInput {
  @Field(() => String, { nullable: true, description: 'A new name, 1 to 200 characters.' }) name?: string;
  @Field(() => Int, { nullable: true, description: 'How many timeCycle units before the date (0 to 365).' })
  timePeriod?: number;
  @Field(() => AlertTimeUnit, { nullable: true, description: 'The unit of timePeriod.' }) timeCycle?: number;
  @Field(() => String, { nullable: true, description: 'The local time of day, HH:MM or HH:MM:SS (24-hour).' })
  time?: string;
  @Field(() => TimeZoneResolver, { nullable: true, description: 'The IANA zone of time.' }) timezone?: string;
  @Field(() => AlertCondition, { nullable: true, description: 'Which dates it reminds of.' }) condition?: number;
  @Field(() => AlertChannel, { nullable: true, description: 'Where its reminders go.' }) channel?: number;
  @Field(() => RecordType, { nullable: true, description: 'The kind of record it is for.' }) subjects?: number;
  @Field(() => String, {
    nullable: true,
    description: "An e-mail address for its reminders; null for the owner's own.",
  })
  contact?: string | null;
}

/** The fields of a new alert. */
@InputType()
export class AlertFieldsInput {
  @Field({ description: 'Its name, 1 to 200 characters.' }) name!: string;
  @Field(() => Int, { description: 'How many timeCycle units before the date (0 to 365).' }) timePeriod!: number;
  @Field(() => AlertTimeUnit, { defaultValue: AlertTimeUnit.DAYS, description: 'The unit of timePeriod.' })
  timeCycle!: number;
  @Field({ description: 'The local time of day, HH:MM or HH:MM:SS (24-hour).' }) time!: string;
  @Field(() => TimeZoneResolver, { description: 'The IANA zone of time.' }) timezone!: string;
  @Field(() => AlertCondition, {
    defaultValue: AlertCondition.BEFORE_DUE_DATE,
    description: 'Which dates it reminds of.',
  })
  condition!: number;
  @Field(() => AlertChannel, { description: 'Where its reminders go.' }) channel!: number;
  @Field(() => RecordType, { defaultValue: RecordType.SUBSCRIPTION, description: 'The kind of record it is for.' })
  subjects!: number;
  @Field(() => String, {
    nullable: true,
    description: "An e-mail address for its reminders; null for the owner's own.",
  })
  contact?: string | null;
}

/** An alert's global id and nothing else. */
@InputType()
export abstract class AlertIdInput {
  @Field(() => ID, { description: 'The global id of the alert.' }) alertId!: string;
}

export function toAlertView(alert: Alert): AlertView {
  return {
    id: alert.id,
    name: alert.alertName,
    isSystem: alert.user === null || alert.user === undefined,
    timePeriod: alert.timePeriod,
    timeCycle: alert.timeCycle ?? AlertTimeUnit.DAYS,
    time: alert.time,
    timezone: alert.timezone,
    condition: alert.alertCondition,
    channel: alert.alertType,
    subjects: alert.alertSubsType,
    contact: alert.alertContact ?? null,
    createdAt: toIsoMicros(alert.createdAt)!,
    updatedAt: toIsoMicros(alert.updatedAt ?? alert.createdAt)!,
  };
}

/** GraphQL names → the domain's alert fields. */
export function toAlertInput(input: AlertChangesInput): Partial<AlertInput> {
  return definedOnly({
    alertName: input.name,
    timePeriod: input.timePeriod,
    timeCycle: input.timeCycle,
    time: input.time,
    timezone: input.timezone,
    alertCondition: input.condition,
    alertType: input.channel,
    alertSubsType: input.subjects,
    alertContact: input.contact,
  });
}
