import { type FileUpload, GraphQLUpload } from 'graphql-upload-minimal';
import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, registerEnumType, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import type { ImportFormat, ImportReport, ImportService } from './import.service';
import type { DateOrder } from './import-values';
import type { ColumnMapping, LooseField } from './loose-formats';

enum ImportFormatValue {
  WALLOS = 'wallos',
  CSV = 'csv',
  SUBLEDGER = 'subledger',
}
enum ImportOutcomeValue {
  WOULD_CREATE = 'WOULD_CREATE',
  CREATED = 'CREATED',
  REFUSED = 'REFUSED',
}
enum DateOrderValue {
  DMY = 'DMY',
  MDY = 'MDY',
}
/** The fields a CSV column can be mapped to, by their loose-record names. */
enum ImportFieldValue {
  NAME = 'name',
  PRICE = 'price',
  CURRENCY = 'currency',
  CYCLE = 'cycle',
  FREQUENCY = 'frequency',
  PAYMENT_DATE = 'paymentDate',
  CATEGORY = 'category',
  FOLDER = 'folder',
  PAYMENT_METHOD = 'paymentMethod',
  TAGS = 'tags',
  NOTES = 'notes',
  DESCRIPTION = 'description',
  URL = 'url',
  ACTIVE = 'active',
  STATUS = 'status',
  NOTIFY = 'notify',
  TYPE = 'type',
  CANCELLATION_DATE = 'cancellationDate',
  PAID_BY = 'paidBy',
}
registerEnumType(ImportFormatValue, {
  name: 'ImportFormat',
  description:
    "WALLOS: Wallos' JSON or CSV export. CSV: any CSV with a header row. SUBLEDGER: our account export (/export/account.json).",
});
registerEnumType(ImportOutcomeValue, { name: 'ImportOutcome' });
registerEnumType(DateOrderValue, {
  name: 'DateOrder',
  description: 'How dates written with slashes are read when day and month are both 12 or less.',
});
registerEnumType(ImportFieldValue, { name: 'ImportField' });

@InputType()
class ColumnMappingInput {
  @Field(() => ImportFieldValue) field!: LooseField;
  @Field({ description: "The column's header in the file." }) column!: string;
}

@ObjectType('ImportMatch', {
  description: 'What a name of the row was matched to: an existing row (its id), or one the import makes.',
})
class ImportMatchView {
  @Field({ description: 'product, currency, category, folder, paymentMode, tag or alert' }) kind!: string;
  @Field() name!: string;
  @Field(() => Int, { nullable: true }) id!: number | null;
  @Field() existing!: boolean;
}

@ObjectType('ImportProblem')
class ImportProblemView {
  @Field({ description: "The record's field (as in REST field errors), or row." }) field!: string;
  @Field(() => [String]) messages!: string[];
}

@ObjectType('ImportRowReport')
class ImportRowReportView {
  @Field(() => Int, {
    description: 'The line the row starts on (CSV; the header is line 1), or its place in a JSON list.',
  })
  line!: number;
  @Field() name!: string;
  @Field(() => ImportOutcomeValue) outcome!: string;
  @Field(() => Int, { nullable: true }) recordId!: number | null;
  @Field(() => [ImportMatchView]) matches!: ImportMatchView[];
  @Field(() => [String], { description: 'What was assumed or set aside in reading the row.' }) notes!: string[];
  @Field(() => [ImportProblemView], { description: 'Why the row is refused (none when it is not).' })
  problems!: ImportProblemView[];
}

@ObjectType('ImportedWebhookEndpoint', {
  description: 'A webhook endpoint of the file, made with a new signing secret (shown this once).',
})
class ImportedWebhookEndpointView {
  @Field(() => Int) id!: number;
  @Field() url!: string;
  @Field() secret!: string;
}

@ObjectType('ImportReport')
class ImportReportView {
  @Field(() => ImportFormatValue) format!: string;
  @Field() dryRun!: boolean;
  @Field(() => Int) total!: number;
  @Field(() => Int) created!: number;
  @Field(() => Int) refused!: number;
  @Field(() => [ImportRowReportView]) rows!: ImportRowReportView[];
  @Field(() => [ImportedWebhookEndpointView]) webhookEndpoints!: ImportedWebhookEndpointView[];
}

const toView = (report: ImportReport): ImportReportView => ({
  ...report,
  rows: report.rows.map((row) => ({
    ...row,
    problems: Object.entries(row.problems).map(([field, messages]) => ({ field, messages })),
  })),
});

@Resolver()
export class ImportResolver {
  constructor(private readonly imports: ImportService) {}

  @Mutation(() => ImportReportView, {
    description:
      'Imports records from a file sent as a multipart upload (graphql-multipart-request-spec, at most 10 MB). A dry run answers row by row what would be created, matched or refused; a real run imports all rows or none (unless skipRefused).',
  })
  async importSubscriptions(
    @Arg('format', () => ImportFormatValue) format: ImportFormat,
    @Arg('file', () => GraphQLUpload) file: Promise<FileUpload>,
    @Ctx() context: GraphQLContext,
    @Arg('dryRun', { defaultValue: false }) dryRun: boolean,
    @Arg('skipRefused', { defaultValue: false, description: 'Import the rows that pass and report the refused ones.' })
    skipRefused: boolean,
    @Arg('currency', () => String, {
      nullable: true,
      description: 'For prices without a currency and ambiguous symbols ($, ¥, kr); your base currency by default.',
    })
    currency: string | null,
    @Arg('dateOrder', () => DateOrderValue, { nullable: true }) dateOrder: DateOrder | null,
    @Arg('mapping', () => [ColumnMappingInput], {
      nullable: true,
      description: 'CSV: which column holds which field, over the detected ones.',
    })
    mapping: ColumnMappingInput[] | null,
  ): Promise<ImportReportView> {
    const caller = requireCaller(context);
    const upload = await file;
    const columns: ColumnMapping = Object.fromEntries((mapping ?? []).map((entry) => [entry.field, entry.column]));
    const report = await this.imports.import(caller, upload.createReadStream(), {
      format,
      dryRun,
      skipRefused,
      currency: currency ?? undefined,
      dateOrder: dateOrder ?? undefined,
      mapping: columns,
    });
    return toView(report);
  }
}
