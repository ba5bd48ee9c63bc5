import { DateTimeResolver } from 'graphql-scalars';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';

import { Connection } from '../platform/graphql/connection';
import { Node } from '../platform/graphql/node';
import { toIsoMicros } from '../platform/wire-formats';
import type { AuditEntryRow } from './audit.repository';
import { AuditAction } from './audit.service';

registerEnumType(AuditAction, {
  name: 'AuditAction',
  description: 'What an admin did.',
  valuesConfig: {
    ACCOUNT_DISABLED: { description: 'Disabled an account (and revoked its tokens).' },
    ACCOUNT_ENABLED: { description: 'Enabled a disabled account.' },
    ACCOUNT_DELETED: { description: 'Deleted an account and all its data.' },
    ADMIN_GRANTED: { description: 'Made an account an admin (from the command line).' },
    INVITATION_CREATED: { description: 'Made an invitation to sign up.' },
    INVITATION_REVOKED: { description: 'Revoked an invitation.' },
    SIGN_UP_MODE_SET: { description: 'Set who may sign up.' },
  },
});

@ObjectType('AuditEntry', { implements: Node, description: 'An action of an admin, as the audit log keeps it.' })
export class AuditEntryView {
  id!: number;
  @Field(() => DateTimeResolver, { description: 'When it was done.' }) at!: string;
  @Field(() => AuditAction, { description: 'What was done.' }) action!: AuditAction;
  @Field(() => String, {
    nullable: true,
    description: "The admin's e-mail address then; null when it was done from the command line.",
  })
  actorEmail!: string | null;
  @Field(() => Int, {
    nullable: true,
    description: 'The numeric id of the account or invitation it was done to; null for the instance.',
  })
  targetId!: number | null;
  @Field(() => String, { nullable: true, description: 'The e-mail address of what it was done to, if it has one.' })
  targetEmail!: string | null;
  @Field({ description: 'Further facts, as a JSON object (the sign-up mode before and after, a deleted account…).' })
  details!: string;
}

@ObjectType('AuditEntryConnection', { description: 'A page of the audit log, newest first.' })
export class AuditEntryConnection extends Connection('AuditEntry', AuditEntryView) {}

export function toAuditEntryView(row: AuditEntryRow): AuditEntryView;
export function toAuditEntryView(row: AuditEntryRow | null): AuditEntryView | null;
export function toAuditEntryView(row: AuditEntryRow | null): AuditEntryView | null {
  if (!row) return null;
  return {
    id: row.id,
    at: toIsoMicros(row.created_at)!,
    action: row.action as AuditAction,
    actorEmail: row.actor_email,
    targetId: row.target_id,
    targetEmail: row.target_email,
    details: row.details,
  };
}
