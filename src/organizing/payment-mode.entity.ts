import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/core';

import { User } from '../auth/user.entity';
import { BaseEntity } from '../platform/db/base.entity';

/** How a user pays (a card, PayPal, a bank account…). */
@Entity({ tableName: 'payment_modes' })
@Unique({ properties: ['user', 'name'] })
export class PaymentMode extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  user!: number;

  @Property({ type: 'string', length: 100 })
  name!: string;

  /** The original's payment_type: `PayPal`, `Credit Card` or `Others`. */
  @Property({ type: 'string', length: 20, nullable: true })
  paymentType?: string | null;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  /** A card's expiry date. */
  @Property({ type: 'date', nullable: true })
  expiry?: string | null;
}
