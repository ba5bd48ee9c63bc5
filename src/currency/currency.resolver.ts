import { CurrencyResolver } from 'graphql-scalars';
import { Ctx, Query, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import type { RatesRefreshService } from './rates.service';

@Resolver()
export class CurrenciesResolver {
  constructor(private readonly rates: RatesRefreshService) {}

  @Query(() => [CurrencyResolver], {
    description:
      'The currencies records may be paid in and totals shown in (those the exchange-rate table has), by code.',
  })
  async currencies(@Ctx() context: GraphQLContext): Promise<string[]> {
    requireCaller(context);
    return this.rates.currencies();
  }
}
