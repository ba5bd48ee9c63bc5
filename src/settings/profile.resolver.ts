import { CurrencyResolver, TimeZoneResolver } from 'graphql-scalars';
import { Arg, Ctx, Field, InputType, Mutation, Resolver } from 'type-graphql';

import { toUserView, UserView } from '../auth/auth.types';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import type { ProfileService } from './profile.service';

@InputType()
export class ProfileInput {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => CurrencyResolver, { nullable: true }) baseCurrency?: string;
  @Field(() => TimeZoneResolver, { nullable: true }) timezone?: string;
}

@Resolver()
export class ProfileResolver {
  constructor(private readonly profile: ProfileService) {}

  @Mutation(() => UserView, { description: "Changes the caller's name, base currency or timezone." })
  async updateProfile(
    @Arg('input', () => ProfileInput) input: ProfileInput,
    @Ctx() context: GraphQLContext,
  ): Promise<UserView> {
    return toUserView(await this.profile.update(requireCaller(context), input));
  }
}
