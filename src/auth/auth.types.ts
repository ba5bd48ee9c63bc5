import { CurrencyResolver, DateTimeResolver, EmailAddressResolver } from 'graphql-scalars';
import { Field, InputType, Int, ObjectType } from 'type-graphql';

import { toIsoMicros } from '../platform/wire-formats';
import type { User } from './user.entity';

@ObjectType('User', {
  description: 'An account. Money totals are given in baseCurrency; "today" is decided in timezone.',
})
export class UserView {
  @Field(() => Int)
  id!: number;

  @Field(() => EmailAddressResolver)
  email!: string;

  @Field()
  name!: string;

  @Field(() => CurrencyResolver)
  baseCurrency!: string;

  @Field({ description: 'IANA zone name' })
  timezone!: string;

  @Field(() => DateTimeResolver)
  createdAt!: string;
}

@ObjectType('AuthPayload', { description: 'A session: the token goes into `Authorization: Bearer <token>`.' })
export class AuthPayload {
  @Field(() => UserView)
  user!: UserView;

  @Field()
  token!: string;
}

@InputType()
export class SignUpInput {
  @Field(() => EmailAddressResolver)
  email!: string;

  @Field()
  password!: string;

  @Field()
  name!: string;
}

export function toUserView(user: User): UserView {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    baseCurrency: user.baseCurrency,
    timezone: user.timezone,
    createdAt: toIsoMicros(user.createdAt)!,
  };
}
