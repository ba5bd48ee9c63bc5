import { type FileUpload, GraphQLUpload } from 'graphql-upload-minimal';
import {
  Arg,
  Ctx,
  Field,
  Float,
  ID,
  InputType,
  Int,
  Mutation,
  ObjectType,
  Query,
  registerEnumType,
  Resolver,
} from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { idsOf, toGlobalId } from '../platform/graphql/global-ids';
import { Money, money } from '../platform/graphql/money';
import { Node, type NodeLookup } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import { LocalDateScalar } from '../platform/graphql/scalars';
import { BillingCycle } from '../platform/record-enums';
import { readUpload } from '../platform/uploads';
import { asRecordView, SubscriptionRecordView } from '../subscriptions/subscription.types';
import type { DetectionService, StatementAnalysis } from './detection.service';
import type { ProposalRow } from './proposal.repository';
import type { CsvMapping, StatementFormat } from './statement';
import { statementTooLarge } from './upload';

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
    CSV: { description: 'A CSV export (comma, semicolon or tab; UTF-8 or Latin-1).' },
    OFX: { description: 'OFX or QFX (Quicken, Money, most banks).' },
    CAMT053: { description: 'ISO 20022 CAMT.053 bank-to-customer statement (XML).' },
    MT940: { description: 'SWIFT MT940 customer statement.' },
  },
});

enum DateOrderValue {
  DMY = 'DMY',
  MDY = 'MDY',
  YMD = 'YMD',
}
registerEnumType(DateOrderValue, {
  name: 'StatementDateOrder',
  description: 'How the CSV writes its dates.',
  valuesConfig: {
    DMY: { description: 'Day, month, year: 31.01.2026, 31/01/2026.' },
    MDY: { description: 'Month, day, year: 01/31/2026.' },
    YMD: { description: 'Year, month, day: 2026-01-31.' },
  },
});

@InputType('StatementMappingInput', {
  description: "Which CSV column holds which field: a header's text, or a column number from 1.",
})
class StatementMappingInput implements CsvMapping {
  @Field({ description: "The booking date's column." }) date!: string;
  @Field({ description: 'The payee, or the booking text naming it.' }) payee!: string;
  @Field({ nullable: true, description: "The booking text's column, when the payee column is not it." })
  description?: string;
  @Field({ nullable: true, description: 'One signed amount; or debit and credit.' }) amount?: string;
  @Field({ nullable: true, description: 'The amounts paid out (with credit, instead of amount).' }) debit?: string;
  @Field({ nullable: true, description: 'The amounts paid in (with debit, instead of amount).' }) credit?: string;
  @Field({ nullable: true, description: "The amount's currency code." }) currency?: string;
  @Field(() => DateOrderValue, { nullable: true, description: 'How the dates are written; recognised when left out.' })
  dateOrder?: CsvMapping['dateOrder'];
  @Field(() => String, { nullable: true, description: '"," or "."' }) decimalSeparator?: CsvMapping['decimalSeparator'];
  @Field({ nullable: true, description: 'When no column holds the currency; your base currency by default.' })
  defaultCurrency?: string;
}

@InputType('AnalyzeStatementInput', { description: 'A bank statement to find recurring payments in.' })
class AnalyzeStatementInput {
  @Field(() => GraphQLUpload, {
    description:
      'The statement: a multipart upload (graphql-multipart-request-spec, mapped to variables.input.file), at most 10 MB.',
  })
  file!: Promise<FileUpload>;
  @Field(() => StatementFormatValue, {
    nullable: true,
    description: "The statement's format; recognised from the file when left out.",
  })
  format?: StatementFormat | null;
  @Field(() => StatementMappingInput, {
    nullable: true,
    description: "A CSV's columns, when they were not recognised (needsMapping); remembered for its layout.",
  })
  mapping?: StatementMappingInput | null;
}

/** The proposals a decision names; each decision's input subclasses it under its own name. */
@InputType()
abstract class ProposalIdsInput {
  @Field(() => [ID], { description: 'Open proposals of yours (SubscriptionProposal ids), from 1 to 200.' })
  ids!: string[];
}

@InputType('AcceptProposalsInput', { description: 'The proposals to accept, all or none.' })
class AcceptProposalsInput extends ProposalIdsInput {}

@InputType('DismissProposalsInput', { description: 'The proposals to dismiss, all or none.' })
class DismissProposalsInput extends ProposalIdsInput {}

@ObjectType('StatementPayment', { description: 'A payment of a proposed series, as the statement booked it.' })
class StatementPaymentView {
  @Field(() => LocalDateScalar, { description: 'The booking date.' }) date!: string;
  @Field(() => Money, { description: 'The amount paid.' }) amount!: Money;
}

@ObjectType('ProposedPriceStep', { description: 'A price the series had from a date on (until the next step).' })
class ProposedPriceStepView {
  @Field(() => LocalDateScalar, { description: 'The first payment at this price.' }) effectiveFrom!: string;
  @Field(() => Money, { description: 'The price.' }) price!: Money;
}

@ObjectType('SubscriptionProposal', {
  implements: Node,
  description: 'A recurring payment found in a statement, to accept or dismiss.',
})
class SubscriptionProposalView {
  id!: number;
  @Field({ description: 'The payee as detected, cleaned of card numbers and processor prefixes.' }) payee!: string;
  @Field(() => ID, { nullable: true, description: 'The catalogue product it matched (a Product id).' })
  productId!: string | null;
  @Field(() => String, { nullable: true, description: "The matched product's name." }) productName!: string | null;
  @Field(() => Money, { description: 'The latest amount paid.' }) price!: Money;
  @Field(() => BillingCycle, { description: 'The unit of the billing period found (weeks, months or years).' })
  billingCycle!: number;
  @Field(() => Int, { description: 'How many billing cycles a period is.' }) billingFrequency!: number;
  @Field(() => LocalDateScalar, { description: 'When the next payment is expected.' }) nextPaymentDate!: string;
  @Field({ description: 'False when the payments stopped before the statement ended.' }) ongoing!: boolean;
  @Field(() => Float, { description: 'From 0 to 1' }) confidence!: number;
  @Field(() => [String], { description: 'Why it is proposed, for people.' }) reasons!: string[];
  @Field(() => [StatementPaymentView], { description: 'The payments of the series, by date.' })
  payments!: StatementPaymentView[];
  @Field(() => [ProposedPriceStepView], { description: 'The prices the series had, by date.' })
  priceSteps!: ProposedPriceStepView[];
  @Field(() => ID, {
    nullable: true,
    description: 'Your record that already tracks it (a SubscriptionRecord id); accepting updates its price.',
  })
  trackedSubscriptionId!: string | null;
}

@ObjectType('StatementAnalysis', { description: 'What an analysis found in a statement (which is not kept).' })
class StatementAnalysisView {
  @Field({ description: 'True when the CSV columns were not recognised: send the mapping with the file again.' })
  needsMapping!: boolean;
  @Field(() => [String], { description: "The CSV header's cells (when a mapping is needed)." }) columns!: string[];
  @Field(() => [[String]], { description: 'The first rows, to map the columns by.' }) sample!: string[][];
  @Field(() => Int, { description: 'How many transactions the statement holds.' }) transactionCount!: number;
  @Field(() => [SubscriptionProposalView], { description: 'The open proposals found, most confident first.' })
  proposals!: SubscriptionProposalView[];
}

const AnalyzeStatementPayload = MutationPayload(
  'AnalyzeStatementPayload',
  'analysis',
  () => StatementAnalysisView,
  'What the statement holds.',
);
const AcceptProposalsPayload = MutationPayload(
  'AcceptProposalsPayload',
  'records',
  () => [SubscriptionRecordView],
  'The records the proposals made or updated, in the order given.',
);
const DismissProposalsPayload = MutationPayload(
  'DismissProposalsPayload',
  'dismissedProposalIds',
  () => [ID],
  'The proposals dismissed (the ids given, once each).',
);

/** `node(id:)` for a proposal: one of the caller's still open. */
export const proposalLookup =
  (detection: DetectionService): NodeLookup =>
  async (caller, id) => {
    const row = (await detection.open(caller)).find((proposal) => proposal.id === id);
    return row ? proposalView(row) : null;
  };

@Resolver()
export class DetectionResolver {
  constructor(private readonly detection: DetectionService) {}

  @Mutation(() => AnalyzeStatementPayload, {
    description:
      "Finds the recurring payments in a bank statement (CSV, OFX/QFX, CAMT.053 or MT940; a multipart upload of at most 10 MB) and proposes each; the statement's transactions are not kept.",
  })
  async analyzeStatement(
    @Arg('input', () => AnalyzeStatementInput, { description: 'The statement and how to read it.' })
    input: AnalyzeStatementInput,
    @Ctx() context: GraphQLContext,
  ): Promise<{ analysis: StatementAnalysisView }> {
    const caller = requireCaller(context);
    const bytes = await readUpload((await input.file).createReadStream(), statementTooLarge);
    const analysis = await this.detection.analyze(caller, bytes, {
      format: input.format ?? undefined,
      mapping: input.mapping ? { ...input.mapping } : undefined,
    });
    return { analysis: analysisView(analysis) };
  }

  @Query(() => [SubscriptionProposalView], {
    description: 'Your proposals not yet accepted or dismissed, most confident first.',
  })
  async subscriptionProposals(@Ctx() context: GraphQLContext): Promise<SubscriptionProposalView[]> {
    return (await this.detection.open(requireCaller(context))).map(proposalView);
  }

  @Mutation(() => AcceptProposalsPayload, {
    description:
      'Accepts proposals, all or none: each becomes a record with its payments as paid and its price history.',
  })
  async acceptProposals(
    @Arg('input', () => AcceptProposalsInput, { description: 'The proposals.' }) input: AcceptProposalsInput,
    @Ctx() context: GraphQLContext,
  ): Promise<{ records: SubscriptionRecordView[] }> {
    const ids = idsOf(input.ids, 'SubscriptionProposal', 'ids');
    return { records: (await this.detection.accept(requireCaller(context), ids)).map(asRecordView) };
  }

  @Mutation(() => DismissProposalsPayload, {
    description: 'Dismisses proposals, all or none: the same series is not proposed again.',
  })
  async dismissProposals(
    @Arg('input', () => DismissProposalsInput, { description: 'The proposals.' }) input: DismissProposalsInput,
    @Ctx() context: GraphQLContext,
  ): Promise<{ dismissedProposalIds: string[] }> {
    await this.detection.dismiss(requireCaller(context), idsOf(input.ids, 'SubscriptionProposal', 'ids'));
    return { dismissedProposalIds: [...new Set(input.ids)] };
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
    productId: row.product_id === null ? null : toGlobalId('Product', row.product_id),
    productName: row.product_name,
    price: money(row.price, row.currency),
    billingCycle: row.billing_cycle,
    billingFrequency: row.billing_frequency,
    nextPaymentDate: row.next_date,
    ongoing: row.ongoing,
    confidence: Number(row.confidence),
    reasons: row.reasons,
    payments: row.payments.map((payment) => ({ date: payment.date, amount: money(payment.amount, row.currency) })),
    priceSteps: row.price_steps.map((step) => ({
      effectiveFrom: step.effectiveFrom,
      price: money(step.price, row.currency),
    })),
    trackedSubscriptionId:
      row.tracked_subscription_id === null ? null : toGlobalId('SubscriptionRecord', row.tracked_subscription_id),
  };
}
