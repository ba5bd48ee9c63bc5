import { CurrencyResolver, TimeZoneResolver } from 'graphql-scalars';
import { Arg, Ctx, Field, InputType, Mutation, Resolver } from 'type-graphql';

import { Language, Theme, toUserView, UserView, WeekStart } from '../auth/auth.types';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { MutationPayload } from '../platform/graphql/payloads';
import type { ProfileService } from './profile.service';

@InputType('UpdateProfileInput', { description: 'Changes to your account: the fields given are set.' })
export class UpdateProfileInput {
  @Field(() => String, { nullable: true, description: 'The name to go by.' }) name?: string;
  @Field(() => CurrencyResolver, {
    nullable: true,
    description: 'The currency totals, budgets and spending are shown in.',
  })
  baseCurrency?: string;
  @Field(() => TimeZoneResolver, {
    nullable: true,
    description: 'The IANA zone "today" follows; records that follow yours are rescheduled.',
  })
  timezone?: string;
  @Field(() => WeekStart, { nullable: true, description: 'The day weeks start on in calendars.' })
  weekStart?: number;
  @Field(() => Theme, { nullable: true, description: 'How the dashboard looks.' })
  theme?: Theme;
  @Field(() => Language, { nullable: true, description: 'The language the dashboard speaks.' })
  language?: Language;
}

const UpdateProfilePayload = MutationPayload('UpdateProfilePayload', 'user', () => UserView, 'Your account, changed.');

@Resolver()
export class ProfileResolver {
  constructor(private readonly profile: ProfileService) {}

  @Mutation(() => UpdateProfilePayload, {
    description: 'Changes your name, base currency, timezone, the day your weeks start on, the theme or the language.',
  })
  async updateProfile(
    @Arg('input', () => UpdateProfileInput, { description: 'The changes.' }) input: UpdateProfileInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    return { user: toUserView(await this.profile.update(requireCaller(context), input)) };
  }
}
