import { DateTimeResolver, EmailAddressResolver } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';

import { Connection } from '../platform/graphql/connection';
import { Node } from '../platform/graphql/node';
import { toIsoMicros } from '../platform/wire-formats';
import type { InvitationRow } from './invitation.repository';

/** Where an invitation stands. */
export const InvitationStatus = { PENDING: 'PENDING', USED: 'USED', REVOKED: 'REVOKED', EXPIRED: 'EXPIRED' } as const;
export type InvitationStatus = (typeof InvitationStatus)[keyof typeof InvitationStatus];
registerEnumType(InvitationStatus, {
  name: 'InvitationStatus',
  description: 'Whether an invitation can still be used to sign up.',
  valuesConfig: {
    PENDING: { description: 'It can be used, once, until it expires.' },
    USED: { description: 'An account signed up with it.' },
    REVOKED: { description: 'An admin revoked it.' },
    EXPIRED: { description: 'It was not used in time.' },
  },
});

@ObjectType('Invitation', { implements: Node, description: 'An invitation to sign up on this instance.' })
export class InvitationView {
  id!: number;
  @Field(() => EmailAddressResolver, {
    nullable: true,
    description: 'The only address that can sign up with it; null: whoever has the link.',
  })
  email!: string | null;
  @Field(() => DateTimeResolver, { description: 'When an admin made it.' }) createdAt!: string;
  @Field(() => DateTimeResolver, { description: 'When it stops working if unused.' }) expiresAt!: string;
  @Field(() => InvitationStatus, { description: 'Whether it can still be used.' }) status!: InvitationStatus;
}

@ObjectType('InvitationConnection', { description: 'A page of the invitations, newest first.' })
export class InvitationConnection extends Connection('Invitation', InvitationView) {}

@InputType('CreateInvitationInput', { description: 'A new invitation to sign up.' })
export class CreateInvitationInput {
  @Field(() => String, {
    nullable: true,
    description: 'The address it is for (mailed there when SMTP_URL is set); left out: anyone with the link.',
  })
  email?: string | null;
}

@InputType('RevokeInvitationInput', { description: 'The invitation to revoke.' })
export class RevokeInvitationInput {
  @Field(() => ID, { description: 'The invitation, not used yet.' }) id!: string;
}

function statusOf(row: InvitationRow): InvitationStatus {
  if (row.used_at) return InvitationStatus.USED;
  if (row.revoked_at) return InvitationStatus.REVOKED;
  return row.expired ? InvitationStatus.EXPIRED : InvitationStatus.PENDING;
}

export function toInvitationView(row: InvitationRow): InvitationView;
export function toInvitationView(row: InvitationRow | null): InvitationView | null;
export function toInvitationView(row: InvitationRow | null): InvitationView | null {
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    createdAt: toIsoMicros(row.created_at)!,
    expiresAt: toIsoMicros(row.expires_at)!,
    status: statusOf(row),
  };
}
