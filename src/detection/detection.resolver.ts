import { type FileUpload, GraphQLUpload } from 'graphql-upload-minimal';
import {
  Arg,
  Ctx,
  Field,
  Float,
  InputType,
  Int,
  Mutation,
  ObjectType,
  Query,
  registerEnumType,
  Resolver,
} from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { LocalDateScalar } from '../platform/graphql/scalars';
import { asRecordView, SubscriptionRecordView } from '../subscriptions/subscription.types';
import type { DetectionService, StatementAnalysis } from './detection.service';
import type { ProposalRow } from './proposal.repository';
import type { CsvMapping, StatementFormat } from './statement';
import { readUpload } from './upload';

enum StatementFormatValue {
  CSV = 'csv',
  OFX = 'ofx',
  CAMT053 = 'camt053',
  MT940 = 'mt940',
}
registerEnumType(StatementFormatValue, {
  name: 'StatementFormat',
  description: "A bank statement's format; left out, it is recognised from the file.",
  valuesConfig: {
    CSV: { description: 'A CSV export (comma, semicolon or tab; UTF-8 or Latin-1)' },
    OFX: { description: 'OFX or QFX (Quicken, Money, most banks)' },
    CAMT053: { description: 'ISO 20022 CAMT.053 bank-to-customer statement (XML)' },
    MT940: { description: 'SWIFT MT940 customer statement' },
  },
});

enum DateOrderValue {
  DMY = 'DMY',
  MDY = 'MDY',
  YMD = 'YMD',
}
registerEnumType(DateOrderValue, { name: 'StatementDateOrder', description: 'How the CSV writes its dates.' });

@InputType({ description: "Which CSV column holds which field: a header's text, or a column number from 1." })
class StatementMappingInput implements CsvMapping {
  @Field() date!: string;
  @Field({ description: 'The payee, or the booking text naming it.' }) payee!: string;
  @Field({ nullable: true }) description?: string;
  @Field({ nullable: true, description: 'One signed amount; or debit and credit.' }) amount?: string;
  @Field({ nullable: true }) debit?: string;
  @Field({ nullable: true }) credit?: string;
  @Field({ nullable: true }) currency?: string;
  @Field(() => DateOrderValue, { nullable: true }) dateOrder?: CsvMapping['dateOrder'];
  @Field(() => String, { nullable: true, description: '"," or "."' }) decimalSeparator?: CsvMapping['decimalSeparator'];
  @Field({ nullable: true, description: 'When no column holds the currency; your base currency by default.' })
  defaultCurrency?: string;
}

@ObjectType('StatementPayment', { description: 'A payment of a proposed series, as the statement booked it.' })
class StatementPaymentView {
  @Field(() => LocalDateScalar) date!: string;
  @Field({ description: 'Decimal string' }) amount!: string;
}

@ObjectType('ProposedPriceStep')
class ProposedPriceStepView {
  @Field(() => LocalDateScalar) effectiveFrom!: string;
  @Field({ description: 'Decimal string' }) price!: string;
}

@ObjectType('SubscriptionProposal', { description: 'A recurring payment found in a statement, to accept or dismiss.' })
class SubscriptionProposalView {
  @Field(() => Int) id!: number;
  @Field({ description: 'The payee as detected, cleaned of card numbers and processor prefixes.' }) payee!: string;
  @Field(() => Int, { nullable: true, description: 'The catalogue product it matched.' }) productId!: number | null;
  @Field(() => String, { nullable: true }) productName!: string | null;
  @Field({ description: 'The latest amount, a decimal string' }) price!: string;
  @Field() currency!: string;
  @Field(() => Int, { description: '2 weekly, 3 monthly, 4 yearly' }) billingCycle!: number;
  @Field(() => Int) billingFrequency!: number;
  @Field(() => LocalDateScalar) nextPaymentDate!: string;
  @Field({ description: 'False when the payments stopped before the statement ended.' }) ongoing!: boolean;
  @Field(() => Float, { description: 'From 0 to 1' }) confidence!: number;
  @Field(() => [String], { description: 'Why it is proposed, for people.' }) reasons!: string[];
  @Field(() => [StatementPaymentView]) payments!: StatementPaymentView[];
  @Field(() => [ProposedPriceStepView]) priceSteps!: ProposedPriceStepView[];
  @Field(() => Int, { nullable: true, description: 'Your record that already tracks it; accepting updates its price.' })
  trackedSubscriptionId!: number | null;
}

@ObjectType('StatementAnalysis')
class StatementAnalysisView {
  @Field({ description: 'True when the CSV columns were not recognised: send the mapping with the file again.' })
  needsMapping!: boolean;
  @Field(() => [String], { description: "The CSV header's cells (when a mapping is needed)." }) columns!: string[];
  @Field(() => [[String]], { description: 'The first rows, to map the columns by.' }) sample!: string[][];
  @Field(() => Int) transactionCount!: number;
  @Field(() => [SubscriptionProposalView]) proposals!: SubscriptionProposalView[];
}

@Resolver()
export class DetectionResolver {
  constructor(private readonly detection: DetectionService) {}

  @Mutation(() => StatementAnalysisView, {
    description:
      "Finds the recurring payments in a bank statement (CSV, OFX/QFX, CAMT.053 or MT940; a multipart upload of at most 10 MB) and proposes each; the statement's transactions are not kept.",
  })
  async analyzeStatement(
    @Arg('file', () => GraphQLUpload) file: Promise<FileUpload>,
    @Ctx() context: GraphQLContext,
    @Arg('format', () => StatementFormatValue, { nullable: true }) format: StatementFormat | null,
    @Arg('mapping', () => StatementMappingInput, { nullable: true }) mapping: StatementMappingInput | null,
  ): Promise<StatementAnalysisView> {
    const caller = requireCaller(context);
    const bytes = await readUpload((await file).createReadStream());
    const analysis = await this.detection.analyze(caller, bytes, {
      format: format ?? undefined,
      mapping: mapping ? { ...mapping } : undefined,
    });
    return analysisView(analysis);
  }

  @Query(() => [SubscriptionProposalView], { description: 'Your proposals not yet accepted or dismissed.' })
  async subscriptionProposals(@Ctx() context: GraphQLContext): Promise<SubscriptionProposalView[]> {
    return (await this.detection.open(requireCaller(context))).map(proposalView);
  }

  @Mutation(() => [SubscriptionRecordView], {
    description:
      'Accepts proposals, all or none: each becomes a record with its payments as paid and its price history.',
  })
  async acceptProposals(
    @Arg('ids', () => [Int]) ids: number[],
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView[]> {
    return (await this.detection.accept(requireCaller(context), ids)).map(asRecordView);
  }

  @Mutation(() => Int, { description: 'Dismisses proposals: the same series is not proposed again.' })
  dismissProposals(@Arg('ids', () => [Int]) ids: number[], @Ctx() context: GraphQLContext): Promise<number> {
    return this.detection.dismiss(requireCaller(context), ids);
  }
}

function analysisView(analysis: StatementAnalysis): StatementAnalysisView {
  if (analysis.needsMapping)
    return {
      needsMapping: true,
      columns: analysis.layout.header,
      sample: analysis.sample,
      transactionCount: 0,
      proposals: [],
    };
  return {
    needsMapping: false,
    columns: [],
    sample: [],
    transactionCount: analysis.transactionCount,
    proposals: analysis.proposals.map(proposalView),
  };
}

function proposalView(row: ProposalRow): SubscriptionProposalView {
  return {
    id: row.id,
    payee: row.payee,
    productId: row.product_id,
    productName: row.product_name,
    price: row.price,
    currency: row.currency,
    billingCycle: row.billing_cycle,
    billingFrequency: row.billing_frequency,
    nextPaymentDate: row.next_date,
    ongoing: row.ongoing,
    confidence: Number(row.confidence),
    reasons: row.reasons,
    payments: row.payments,
    priceSteps: row.price_steps,
    trackedSubscriptionId: row.tracked_subscription_id,
  };
}
