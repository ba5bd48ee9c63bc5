import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { User } from '../auth/user.entity';
import { BaseEntity } from '../db/base.entity';

/** How a user pays (a card, PayPal, a bank account…). */
@Entity({ tableName: 'payment_modes' })
@Unique({ properties: ['user', 'name'] })
export class PaymentMode extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  user!: number;

  @Property({ type: 'string', length: 100 })
  name!: string;
}
