import { Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import type { AccountExportService } from './account-export.service';

@ObjectType('ExportLinks', { description: 'Where to download your data (GET with your Bearer token).' })
class ExportLinksView {
  @Field({ description: 'The URL of every record, with its labels, as CSV.' }) subscriptionsCsv!: string;
  @Field({ description: 'The URL of the whole account as JSON (format subledger-account, version 1).' })
  accountJson!: string;
}

@Resolver()
export class ExportResolver {
  constructor(private readonly exports: AccountExportService) {}

  @Query(() => ExportLinksView, {
    description: 'Where to download your data: the links are the same for everyone and need your Bearer token.',
  })
  exportLinks(@Ctx() context: GraphQLContext): ExportLinksView {
    requireCaller(context);
    return this.exports.links();
  }
}
