import { type FileUpload, GraphQLUpload } from 'graphql-upload-minimal';
import { Arg, Ctx, Field, ID, InputType, Int, Mutation, ObjectType, registerEnumType, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { toGlobalId } from '../platform/graphql/global-ids';
import { MutationPayload } from '../platform/graphql/payloads';
import type { ImportFormat, ImportReport, ImportService } from './import.service';
import type { ImportMatch } from './import-resolution';
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
/** What a name of a row was matched to, by the import's own kinds. */
enum ImportMatchKindValue {
  PRODUCT = 'product',
  CURRENCY = 'currency',
  CATEGORY = 'category',
  FOLDER = 'folder',
  PAYMENT_MODE = 'paymentMode',
  TAG = 'tag',
  ALERT = 'alert',
}
registerEnumType(ImportFormatValue, {
  name: 'ImportFormat',
  description: 'The kind of file an import reads.',
  valuesConfig: {
    WALLOS: { description: "Wallos' JSON or CSV export." },
    CSV: { description: 'Any CSV with a header row (its columns detected, or given in mapping).' },
    SUBLEDGER: { description: 'Our own account export (/export/account.json), restored whole.' },
  },
});
registerEnumType(ImportOutcomeValue, {
  name: 'ImportOutcome',
  description: 'What became, or would become, of a row of an imported file.',
  valuesConfig: {
    WOULD_CREATE: { description: 'A dry run: the row would become a record.' },
    CREATED: { description: 'The row became a record (recordId).' },
    REFUSED: { description: 'The row is refused (see its problems); nothing was made of it.' },
  },
});
registerEnumType(DateOrderValue, {
  name: 'DateOrder',
  description: 'How dates written with slashes are read when day and month are both 12 or less.',
  valuesConfig: {
    DMY: { description: 'Day first: 03/04/2026 is 3 April.' },
    MDY: { description: 'Month first: 03/04/2026 is 4 March.' },
  },
});
registerEnumType(ImportFieldValue, {
  name: 'ImportField',
  description: "A record's field a CSV column can hold.",
  valuesConfig: {
    NAME: { description: 'The name (matched to a catalogue product, or a private one).' },
    PRICE: { description: 'The price, with or without a currency symbol or code.' },
    CURRENCY: { description: "The price's currency code." },
    CYCLE: { description: 'The billing cycle: "monthly", "every 3 months", "yearly"…' },
    FREQUENCY: { description: 'How many cycles a billing period is (a number).' },
    PAYMENT_DATE: { description: 'The next (or first) payment date.' },
    CATEGORY: { description: 'A category, by name (made when new).' },
    FOLDER: { description: 'A folder, by name (made when new).' },
    PAYMENT_METHOD: { description: 'A payment mode, by name (made when new).' },
    TAGS: { description: 'Tags, by name, separated by commas, semicolons or bars (made when new).' },
    NOTES: { description: 'Notes.' },
    DESCRIPTION: { description: "The record's description." },
    URL: { description: 'A web address (kept in the note).' },
    ACTIVE: { description: 'Whether it is active (yes/no, 1/0, true/false).' },
    STATUS: { description: 'The status in words: active, cancelled, draft…' },
    NOTIFY: { description: 'Whether to be reminded (yes/no).' },
    TYPE: { description: 'The kind of record in words: subscription, trial, lifetime.' },
    CANCELLATION_DATE: { description: 'The day it was or will be cancelled (kept as the contract end).' },
    PAID_BY: { description: 'Who pays (kept in the note).' },
  },
});
registerEnumType(ImportMatchKindValue, {
  name: 'ImportMatchKind',
  description: 'What kind of thing a name of an imported row was matched to.',
  valuesConfig: {
    PRODUCT: { description: 'A catalogue product, or a private one the import makes (id: a Product id).' },
    CURRENCY: { description: 'A known currency (no id).' },
    CATEGORY: { description: 'A category (id: a ProductCategory id).' },
    FOLDER: { description: 'A folder (id: a Folder id).' },
    PAYMENT_MODE: { description: 'A payment mode (id: a PaymentMode id).' },
    TAG: { description: 'A tag (id: a Tag id).' },
    ALERT: { description: 'An alert definition (id: an Alert id).' },
  },
});

/** The type of the global ids of each kind of match. */
const MATCH_TYPES: Record<ImportMatch['kind'], string | null> = {
  product: 'Product',
  currency: null,
  category: 'ProductCategory',
  folder: 'Folder',
  paymentMode: 'PaymentMode',
  tag: 'Tag',
  alert: 'Alert',
};

@InputType('ColumnMappingInput', { description: 'Which CSV column holds a field.' })
class ColumnMappingInput {
  @Field(() => ImportFieldValue, { description: 'The field.' }) field!: LooseField;
  @Field({ description: "The column's header in the file." }) column!: string;
}

@InputType('ImportSubscriptionsInput', { description: 'A file to import records from, and how to read it.' })
class ImportSubscriptionsInput {
  @Field(() => GraphQLUpload, {
    description:
      'The file: a multipart upload (graphql-multipart-request-spec, mapped to variables.input.file), at most 10 MB.',
  })
  file!: Promise<FileUpload>;
  @Field(() => ImportFormatValue, { description: 'What kind of file it is.' }) format!: ImportFormat;
  @Field({ defaultValue: false, description: 'Only report what would happen, row by row; change nothing.' })
  dryRun!: boolean;
  @Field({ defaultValue: false, description: 'Import the rows that pass and report the refused ones.' })
  skipRefused!: boolean;
  @Field(() => String, {
    nullable: true,
    description: 'For prices without a currency and ambiguous symbols ($, ¥, kr); your base currency by default.',
  })
  currency?: string | null;
  @Field(() => DateOrderValue, {
    nullable: true,
    description: 'How to read slashed dates that could be either; left out, such a date is refused as ambiguous.',
  })
  dateOrder?: DateOrder | null;
  @Field(() => [ColumnMappingInput], {
    nullable: true,
    description: 'CSV: which column holds which field, over the detected ones.',
  })
  mapping?: ColumnMappingInput[] | null;
}

@ObjectType('ImportMatch', {
  description: 'What a name of the row was matched to: an existing object (its id), or one the import makes.',
})
class ImportMatchView {
  @Field(() => ImportMatchKindValue, { description: 'What kind of thing the name is.' }) kind!: string;
  @Field({ description: 'The name, as matched (or as the import makes it).' }) name!: string;
  @Field(() => ID, {
    nullable: true,
    description: 'The global id of the existing object; null for a currency and for what the import makes.',
  })
  id!: string | null;
  @Field({ description: 'Whether it exists already (false: the import makes it).' }) existing!: boolean;
}

@ObjectType('ImportProblem', { description: 'Why a row, or one of its fields, is refused.' })
class ImportProblemView {
  @Field({ description: "The record's field (as in REST field errors), or row." }) field!: string;
  @Field(() => [String], { description: 'What is wrong, in words for people.' }) messages!: string[];
}

@ObjectType('ImportRowReport', { description: 'What became (or would become) of one row of the file.' })
class ImportRowReportView {
  @Field(() => Int, {
    description: 'The line the row starts on (CSV; the header is line 1), or its place in a JSON list.',
  })
  line!: number;
  @Field({ description: "The row's name." }) name!: string;
  @Field(() => ImportOutcomeValue, { description: 'What became of it.' }) outcome!: string;
  @Field(() => ID, { nullable: true, description: 'The record made of it (a SubscriptionRecord id), when CREATED.' })
  recordId!: string | null;
  @Field(() => [ImportMatchView], { description: "What the row's names were matched to." })
  matches!: ImportMatchView[];
  @Field(() => [String], { description: 'What was assumed or set aside in reading the row.' }) notes!: string[];
  @Field(() => [ImportProblemView], { description: 'Why the row is refused (none when it is not).' })
  problems!: ImportProblemView[];
}

@ObjectType('ImportedWebhookEndpoint', {
  description: 'A webhook endpoint of the file, made with a new signing secret (shown this once).',
})
class ImportedWebhookEndpointView {
  @Field(() => ID, { description: 'The endpoint made (a WebhookEndpoint id).' }) id!: string;
  @Field({ description: 'Where its events go.' }) url!: string;
  @Field({ description: 'Its new signing secret: shown this once.' }) secret!: string;
}

@ObjectType('ImportReport', {
  description:
    'What an import did (or, a dry run, would do), row by row. Reports are not stored: this answer is the only copy.',
})
class ImportReportView {
  @Field(() => ImportFormatValue, { description: 'The kind of file read.' }) format!: string;
  @Field({ description: 'Whether it was a dry run (nothing changed).' }) dryRun!: boolean;
  @Field(() => Int, { description: 'How many rows the file holds.' }) total!: number;
  @Field(() => Int, { description: 'How many records were (or would be) made.' }) created!: number;
  @Field(() => Int, { description: 'How many rows were refused.' }) refused!: number;
  @Field(() => [ImportRowReportView], {
    description:
      'Every row, in file order (an import takes at most 50,000): a whole list, not a connection, since a report is answered once and not kept.',
  })
  rows!: ImportRowReportView[];
  @Field(() => [ImportedWebhookEndpointView], {
    description: 'The webhook endpoints a Subledger export brought (none for other formats).',
  })
  webhookEndpoints!: ImportedWebhookEndpointView[];
}

const matchView = (match: ImportMatch): ImportMatchView => {
  const type = MATCH_TYPES[match.kind];
  return { ...match, id: type === null || match.id === null ? null : toGlobalId(type, match.id) };
};

const toView = (report: ImportReport): ImportReportView => ({
  ...report,
  rows: report.rows.map((row) => ({
    ...row,
    recordId: row.recordId === null ? null : toGlobalId('SubscriptionRecord', row.recordId),
    matches: row.matches.map(matchView),
    problems: Object.entries(row.problems).map(([field, messages]) => ({ field, messages })),
  })),
  webhookEndpoints: report.webhookEndpoints.map((endpoint) => ({
    ...endpoint,
    id: toGlobalId('WebhookEndpoint', endpoint.id),
  })),
});

const ImportSubscriptionsPayload = MutationPayload(
  'ImportSubscriptionsPayload',
  'report',
  () => ImportReportView,
  "The import's report.",
);

@Resolver()
export class ImportResolver {
  constructor(private readonly imports: ImportService) {}

  @Mutation(() => ImportSubscriptionsPayload, {
    description:
      'Imports records from a file sent as a multipart upload (graphql-multipart-request-spec, at most 10 MB). A dry run answers row by row what would be created, matched or refused; a real run imports all rows or none (unless skipRefused).',
  })
  async importSubscriptions(
    @Arg('input', () => ImportSubscriptionsInput, { description: 'The file and how to read it.' })
    input: ImportSubscriptionsInput,
    @Ctx() context: GraphQLContext,
  ): Promise<{ report: ImportReportView }> {
    const caller = requireCaller(context);
    const upload = await input.file;
    const columns: ColumnMapping = Object.fromEntries(
      (input.mapping ?? []).map((entry) => [entry.field, entry.column]),
    );
    const report = await this.imports.import(caller, upload.createReadStream(), {
      format: input.format,
      dryRun: input.dryRun,
      skipRefused: input.skipRefused,
      currency: input.currency ?? undefined,
      dateOrder: input.dateOrder ?? undefined,
      mapping: columns,
    });
    return { report: toView(report) };
  }
}
