import { DateTimeResolver } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';

import { Connection } from '../platform/graphql/connection';
import { Node } from '../platform/graphql/node';
import { toIsoMicros } from '../platform/wire-formats';
import { DeliveryView } from '../webhooks/webhooks.resolver';
import type { NotificationTarget } from './notification-target.entity';
import type { Scheme } from './target-url';

/** The services a target can be (target-url.ts's schemes, which the table keeps). */
export const NotificationScheme = {
  NTFY: 'ntfy',
  GOTIFY: 'gotify',
  TGRAM: 'tgram',
  DISCORD: 'discord',
  POVER: 'pover',
  SLACK: 'slack',
  MATRIX: 'matrix',
  MAILTO: 'mailto',
  JSON: 'json',
} as const satisfies Record<string, Scheme>;

registerEnumType(NotificationScheme, {
  name: 'NotificationScheme',
  description: 'The service a notification target sends to, by the scheme of its URL.',
  valuesConfig: {
    NTFY: { description: 'ntfy (ntfy:// or ntfys://).' },
    GOTIFY: { description: 'Gotify (gotify:// or gotifys://).' },
    TGRAM: { description: 'Telegram (tgram://).' },
    DISCORD: { description: 'A Discord webhook (discord://).' },
    POVER: { description: 'Pushover (pover://).' },
    SLACK: { description: 'A Slack webhook (slack://).' },
    MATRIX: { description: 'A Matrix room (matrix:// or matrixs://).' },
    MAILTO: { description: "E-mail through the server's SMTP (mailto://)." },
    JSON: { description: 'A JSON POST signed as Standard Webhooks (json:// or jsons://).' },
  },
});

@ObjectType('NotificationTarget', {
  implements: Node,
  description: 'Where reminders can go besides e-mail and webhooks: a push or chat service, by an Apprise-style URL.',
})
export class NotificationTargetView {
  id!: number;
  @Field({ description: 'Its name.' }) name!: string;
  @Field(() => NotificationScheme, { description: 'The service it sends to.' }) scheme!: string;
  @Field({ description: 'The URL with its tokens and passwords shown as ****.' }) url!: string;
  @Field(() => DateTimeResolver, { description: 'When it was made.' }) createdAt!: string;
  @Field(() => DateTimeResolver, { nullable: true, description: 'When it last changed; null if never.' })
  updatedAt!: string | null;
}

@ObjectType('NotificationDeliveryConnection', { description: 'A page of the deliveries to a notification target.' })
export class NotificationDeliveryConnection extends Connection('NotificationDelivery', DeliveryView) {}

// Base inputs: each mutation's input type is a named subclass (notification-target.resolver.ts).
/** The fields of a new target. */
@InputType()
export class NotificationTargetFieldsInput {
  @Field({ description: 'Its name, 1 to 100 characters.' }) name!: string;
  @Field({
    description:
      'ntfy(s)://, gotify(s)://, tgram://, discord://, pover://, slack://, matrix(s)://, mailto:// or json(s)://: see the README.',
  })
  url!: string;
}

/** The changes to a target: the fields given are set. */
@InputType()
export class NotificationTargetChangesInput {
  @Field(() => String, { nullable: true, description: 'A new name, 1 to 100 characters.' }) name?: string | null;
  @Field(() => String, { nullable: true, description: 'A new URL of the same scheme.' }) url?: string | null;
}

/** A target's global id and nothing else. */
@InputType()
export abstract class NotificationTargetIdInput {
  @Field(() => ID, { description: 'The global id of one of your notification targets.' }) id!: string;
}

export const toNotificationTargetView = (target: NotificationTarget): NotificationTargetView => ({
  id: target.id,
  name: target.name,
  scheme: target.scheme,
  url: target.maskedUrl,
  createdAt: toIsoMicros(target.createdAt)!,
  updatedAt: toIsoMicros(target.updatedAt ?? null),
});
