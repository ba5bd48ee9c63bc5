import AsyncLock from 'async-lock';

import type { Product } from '../catalogue/product.entity';
import type { Caller } from '../platform/caller';
import { ambientTransaction, type StatementPart } from '../platform/db/statements';
import { utcTimestamp } from '../platform/db/timestamps';
import { AppError, refuseFieldErrors } from '../platform/errors';
import type { ReminderDefinition, ReminderScheduling } from '../platform/reminder-scheduling';
import type { OutboxSignal } from '../webhooks/outbox';
import type { SubscriptionTopic } from '../webhooks/topics';
import type { Subscription } from './subscription.entity';
import { recordEventsPart } from './subscription.events';
import { entityFields } from './subscription.fields';
import type { SubscriptionInput, SubscriptionPatch } from './subscription.input';
import { type SubscriptionRecord, toRecord } from './subscription.record';
import type { AddonScope, ChangeRow, LinkPlan, LinkPlanAsk, SubscriptionRepository } from './subscription.repository';
import { checkPlan, type LinkChecks, planAsk } from './subscription-links';

/** A record to make: its input, and what an import restores beside it (when it was made, its main record). */
export interface NewRecord {
  input: SubscriptionInput;
  createdAt?: string;
  /** Makes the record an add-on of this record of the caller's. */
  mainRecordId?: number;
  /** Alert definitions kept beside the input's alert_id, in order (as setAlerts keeps them). */
  extraAlertIds?: readonly number[];
}

/** What a change writes beside the records' columns. */
export interface ChangeOptions {
  /** The main record's tags become these. */
  tags?: LinkPlan['tags'] | null;
  /** The main record's alerts become these (the first is its alert_id), with their definitions. */
  alerts?: { ids: readonly number[]; definitions: ReminderDefinition[] };
  /** False for a change that moves no date (a price, a note): the stored next dates and reminders stay. */
  movesDates?: boolean;
  /** Other repositories' parts of the statement (price history). */
  parts?: StatementPart[];
}

/** PostgreSQL's SQLSTATEs a write is tried again on: a row that names a row that is not there, and expect_rows' failure. */
const FOREIGN_KEY_VIOLATION = '23503';
const SERIALIZATION_FAILURE = '40001';
const RETRIED = new Set([FOREIGN_KEY_VIOLATION, SERIALIZATION_FAILURE]);
const MAX_ATTEMPTS = 10;

/**
 * The one way records are written: a create plans and previews its records in one read and inserts them with
 * their tags, events, deliveries and reminders in one statement; a change reads the records as it will leave
 * them and writes them with the same parts in one statement that checks each row's version. Both are tried
 * again from their first read when a row changed or a link went meanwhile.
 */
export class SubscriptionWrites {
  /**
   * Changes of one record take turns within this process: each would otherwise read the version the others
   * are about to replace and have to read again (one record under many writes at once wasted most of its
   * work). Between processes the version check alone keeps one outcome.
   */
  private readonly recordTurns = new AsyncLock({ maxPending: Infinity });

  constructor(
    private readonly repository: SubscriptionRepository,
    private readonly links: LinkChecks,
    private readonly defaultImage: string,
    private readonly outbox: OutboxSignal,
    private readonly reminders: ReminderScheduling,
    private readonly clock: () => Date,
  ) {}

  /** Records made in two round trips: a read that plans and previews them, and the statement that inserts them. */
  create(caller: Caller, records: readonly NewRecord[]): Promise<SubscriptionRecord[]> {
    return this.retried(() => this.createOnce(caller, records));
  }

  private async createOnce(caller: Caller, records: readonly NewRecord[]): Promise<SubscriptionRecord[]> {
    const createdAt = utcTimestamp();
    // The values that do not depend on the plan; the product's copies, its category and the owner's zone are the preview's.
    const valuesOf = (
      { input, createdAt: kept, mainRecordId }: NewRecord,
      ask: LinkPlanAsk,
    ): Partial<Subscription> => ({
      user: caller.userId,
      createdBy: caller.userId,
      folder: ask.folderId,
      ...(input.categoryId !== undefined ? { category: input.categoryId } : {}),
      alert: ask.alertId,
      paymentMode: ask.paymentModeId,
      rating: 0,
      payGatewayId: 0,
      subAddon: mainRecordId === undefined ? 0 : 1,
      ...(mainRecordId === undefined ? {} : { mainRecord: mainRecordId }),
      ...entityFields(input),
      createdAt: kept ?? createdAt,
      updatedAt: kept ?? createdAt,
    });
    // A record keeps the id its first preview drew when a first-use product or tag makes it read again.
    let drawn: Array<number | undefined> = [];
    const planned = await this.planned(
      caller,
      records.map(({ input }) => input),
      true,
      async (asks, askOf) => {
        const entries = await this.repository.plannedPreviews(
          caller.userId,
          asks,
          records.map((record, index) => ({
            ask: askOf[index],
            values: { ...valuesOf(record, asks[askOf[index]]), id: drawn[index] },
          })),
          this.defaultImage,
        );
        drawn = entries.map((entry) => entry.preview?.id);
        return entries;
      },
    );
    const extraDefinitions = await this.links.usableAlerts(caller.userId, [
      ...new Set(records.flatMap((record) => record.extraAlertIds ?? [])),
    ]);
    const now = this.clock();
    const created = planned.map(({ preview }) => {
      // A product of the batch was made and then removed before the preview read it.
      if (!preview) throw new AppError('CONFLICT', 'The product changed meanwhile; try again');
      return toRecord(preview, now);
    });
    const alertIdsOf = (index: number) => [
      ...(planned[index].ask.alertId === null ? [] : [planned[index].ask.alertId!]),
      ...(records[index].extraAlertIds ?? []),
    ];
    const { due } = await this.repository.insertNew(
      planned.map(({ stored, plan }, index) => ({
        columns: { ...stored, next_payment_date: created[index].next_payment_date },
        tagIds: plan.tags.map((tag) => tag.id),
        extraAlertIds: records[index].extraAlertIds ?? [],
      })),
      [
        recordEventsPart(
          caller.userId,
          'subscription.created',
          created.map((record, index) => ({ record, tags: planned[index].plan.tags })),
        ),
        this.reminders.newRecordsPart(
          created.map((record, index) => ({ ...record, alert_ids: alertIdsOf(index) })),
          uniqueById([...planned.flatMap(({ plan }) => plan.definitions), ...extraDefinitions]),
        ),
      ],
    );
    if (due) this.outbox.notify();
    return created;
  }

  /**
   * Each input of a create (or an update) with its plan, checked: a field error names each link that is
   * missing (the first input with one refuses them all). `read` reads the plan of each distinct ask (`askOf`
   * gives each input's) and answers one entry per input, in order; a private product or tags named for the
   * first time are made before the write, then all is read again (a link may have gone meanwhile).
   */
  async planned<T extends { plan: LinkPlan }>(
    caller: Caller,
    inputs: readonly SubscriptionPatch[],
    creating: boolean,
    read: (asks: LinkPlanAsk[], askOf: number[]) => Promise<T[]>,
  ): Promise<Array<T & { ask: LinkPlanAsk }>> {
    const asks = inputs.map((input) => planAsk(input, creating));
    const distinct = new Map<string, number>();
    const distinctAsks: LinkPlanAsk[] = [];
    const askOf = asks.map((ask) => {
      const key = JSON.stringify(ask);
      if (!distinct.has(key)) distinct.set(key, distinctAsks.push(ask) - 1);
      return distinct.get(key)!;
    });
    const readAll = async () => {
      const entries = await read(distinctAsks, askOf);
      if (entries.length !== inputs.length) throw AppError.notFound('User');
      return entries;
    };
    let entries = await readAll();
    const unmade = { products: new Set<string>(), tags: new Set<string>() };
    inputs.forEach((input, index) => {
      const checked = checkPlan(input, asks[index], entries[index].plan);
      refuseFieldErrors(checked.errors);
      if (checked.unmade.product !== undefined) unmade.products.add(checked.unmade.product);
      for (const tag of checked.unmade.tags) unmade.tags.add(tag);
    });
    if (unmade.products.size > 0 || unmade.tags.size > 0) {
      await this.links.makeUnmade(caller.userId, { products: [...unmade.products], tags: [...unmade.tags] });
      entries = await readAll();
      inputs.forEach((input, index) => refuseFieldErrors(checkPlan(input, asks[index], entries[index].plan).errors));
    }
    return entries.map((entry, index) => ({ ...entry, ask: asks[index] }));
  }

  /**
   * The caller's record `id` (first) and the add-ons `addons` names, as `values` (after the copies of
   * `product`, when given) will leave them; none when the caller has no such record.
   */
  async changeRead(
    caller: Caller,
    id: number,
    addons: AddonScope,
    values: Partial<Subscription>,
    product?: Product,
  ): Promise<ChangeRow[]> {
    const copied = product ? { product, defaultImage: this.defaultImage } : undefined;
    const rows = await this.repository.changeRead(caller.userId, id, addons, values, copied);
    const main = rows.find((row) => row.id === id);
    return main ? [main, ...rows.filter((row) => row !== main)] : [];
  }

  /**
   * Writes the columns the read laid over the rows with the topic's event for each record and, when the change
   * moves dates, their reminders and next payment dates: one statement, which changes nothing if another write
   * changed a row since it was read. Answers the records as written.
   */
  async writeChange(
    caller: Caller,
    topic: SubscriptionTopic,
    rows: ChangeRow[],
    options: ChangeOptions = {},
  ): Promise<SubscriptionRecord[]> {
    const now = this.clock();
    const records = rows.map((row) => toRecord(row, now));
    const tagsOf = (index: number) => (index === 0 && options.tags ? options.tags : rows[index].tags);
    const alertIdsOf = (index: number) =>
      index === 0 && options.alerts ? [...options.alerts.ids] : rows[index].alert_ids;
    const parts = [
      ...(options.parts ?? []),
      recordEventsPart(
        caller.userId,
        topic,
        records.map((record, index) => ({ record, tags: tagsOf(index) })),
      ),
    ];
    if (options.movesDates ?? true) {
      parts.push(
        this.reminders.changedRecordsPart(
          records.map((record, index) => ({
            record: { ...record, alert_ids: alertIdsOf(index) },
            deleted: rows[index].deleted_at !== null,
          })),
          uniqueById([...rows.flatMap((row) => row.definitions), ...(options.alerts?.definitions ?? [])]),
        ),
      );
    }
    const { due } = await this.repository.applyChange(
      records.map((record, index) => ({
        id: record.id,
        version: rows[index].row_version,
        columns: { ...rows[index].laid, next_payment_date: record.next_payment_date },
      })),
      options.tags || options.alerts
        ? {
            id: records[0].id,
            tagIds: options.tags?.map((tag) => tag.id),
            extraAlertIds: options.alerts?.ids.slice(1),
          }
        : null,
      parts,
    );
    if (due) this.outbox.notify();
    return records;
  }

  /** A change of record `id`: in its turn, and read again and rewritten while another write comes first. */
  changeOf<T>(id: number, write: () => Promise<T>): Promise<T> {
    return this.recordTurns.acquire(String(id), () => this.retried(write));
  }

  /**
   * Runs a write again, from its first read, when the rows it read changed before it wrote (40001) or a row it
   * links went meanwhile (23503: planned again, the write is refused with that link's field error). Inside a
   * caller's transaction the rows are locked instead, and an error ends that transaction.
   */
  private async retried<T>(write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (!RETRIED.has(code ?? '') || ambientTransaction()) throw error;
        if (attempt === MAX_ATTEMPTS) {
          if (code === SERIALIZATION_FAILURE)
            throw new AppError('CONFLICT', 'The subscription kept changing meanwhile; try again');
          throw error;
        }
      }
    }
  }
}

function uniqueById<T extends { id: number }>(items: readonly T[]): T[] {
  return [...new Map(items.map((item) => [item.id, item])).values()];
}
