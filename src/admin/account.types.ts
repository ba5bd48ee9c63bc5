import { DateTimeResolver, EmailAddressResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

import { ADMIN_ROLE, DISABLED_STATUS } from '../auth/user.entity';
import { Connection } from '../platform/graphql/connection';
import { Node } from '../platform/graphql/node';
import { toIsoMicros } from '../platform/wire-formats';
import type { AccountRow } from './account.repository';

@ObjectType('Account', { implements: Node, description: 'An account of this instance, as its admins see it.' })
export class AccountView {
  id!: number;
  @Field(() => EmailAddressResolver, { description: 'The e-mail address it signs in with.' }) email!: string;
  @Field({ description: 'The name it goes by.' }) name!: string;
  @Field(() => DateTimeResolver, { description: 'When it was made.' }) createdAt!: string;
  @Field(() => DateTimeResolver, {
    nullable: true,
    description: 'When it was last seen: one of its tokens last used or issued; null when it never signed in.',
  })
  lastSeenAt!: string | null;
  @Field(() => Int, { description: 'How many records it keeps (add-ons included, deleted ones aside).' })
  recordCount!: number;
  @Field({ description: 'Whether it signs in with a second factor (an authenticator app).' })
  twoFactorEnabled!: boolean;
  @Field({ description: 'Whether an admin disabled it: it cannot sign in and its tokens do not work.' })
  disabled!: boolean;
  @Field({ description: 'Whether it is an admin of the instance.' }) admin!: boolean;
}

@ObjectType('AccountConnection', { description: 'A page of the accounts, oldest first.' })
export class AccountConnection extends Connection('Account', AccountView) {}

@InputType('DisableAccountInput', { description: 'The account to disable.' })
export class DisableAccountInput {
  @Field(() => ID, { description: 'The account.' }) id!: string;
}

@InputType('EnableAccountInput', { description: 'The disabled account to enable.' })
export class EnableAccountInput {
  @Field(() => ID, { description: 'The account.' }) id!: string;
}

@InputType('DeleteAccountInput', { description: 'The account to delete, with its e-mail address typed again.' })
export class DeleteAccountInput {
  @Field(() => ID, { description: 'The account.' }) id!: string;
  @Field({ description: "The account's e-mail address, typed again to confirm (case and spaces do not matter)." })
  confirmEmail!: string;
}

export function toAccountView(row: AccountRow): AccountView;
export function toAccountView(row: AccountRow | null): AccountView | null;
export function toAccountView(row: AccountRow | null): AccountView | null {
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    createdAt: toIsoMicros(row.created_at)!,
    lastSeenAt: toIsoMicros(row.last_seen_at),
    recordCount: row.record_count,
    twoFactorEnabled: row.two_factor_enabled,
    disabled: row.status === DISABLED_STATUS,
    admin: row.role_id === ADMIN_ROLE,
  };
}
