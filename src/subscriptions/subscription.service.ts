import type { MikroORM } from '@mikro-orm/core';
import type { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import AsyncLock from 'async-lock';

import type { Product } from '../catalogue/product.entity';
import type { Caller } from '../platform/caller';
import { addDays, endOfMonth, epochDay, isCalendarDate, todayIn } from '../platform/dates';
import { ambientTransaction, currentTarget, pooled, type StatementPart } from '../platform/db/statements';
import { utcTimestamp } from '../platform/db/timestamps';
import { AppError, refuseFieldErrors } from '../platform/errors';
import { definedOnly } from '../platform/objects';
import type { ReminderScheduling } from '../platform/reminder-scheduling';
import type { SharedRecordAccess } from '../platform/shared-records';
import type { OutboxSignal } from '../webhooks/outbox';
import type { SubscriptionTopic } from '../webhooks/topics';
import { Status } from './codes';
import { nextOnOrAfter, occurrencesBetween } from './payment-dates';
import { priceOn, stepsAfterChange } from './price-history';
import { priceHistoryRepository, type PriceStep } from './price-history.repository';
import { Subscription } from './subscription.entity';
import { recordEventsPart, writeRecordEvents } from './subscription.events';
import { entityFields, MAX_REFUND_DAYS } from './subscription.fields';
import {
  type SubscriptionInput,
  type SubscriptionPatch,
  validateRefundWindow,
  validateSubscriptionInput,
} from './subscription.input';
import type { ListQuery } from './subscription.list';
import { createLoaders, type Loaders } from './subscription.loaders';
import { asSeenBy, scheduleOf, type SubscriptionRecord, todayCache, toRecord } from './subscription.record';
import type { AddonScope, ChangeRow, LinkPlan, LinkPlanAsk, SubscriptionRepository } from './subscription.repository';
import {
  checkCurrency,
  checkPlan,
  linkValues,
  makeUnmade,
  namesLinks,
  planAsk,
  usableAlerts,
} from './subscription-links';

/** An add-on: a record under a main record, taking its product, folder, category, alert and billing. */
export interface AddonInput {
  type: number;
  price: string;
  currency: string;
  paymentDate: string;
  /** The main record's status when omitted. */
  status?: number;
  recurring: number;
  /** The last day a refund is possible; stored as refund_days from paymentDate. */
  refundDate?: string | null;
}

/** A record to make: its input, and what an import restores beside it (when it was made, its main record). */
export interface NewRecord {
  input: SubscriptionInput;
  createdAt?: string;
  /** Makes the record an add-on of this record of the caller's. */
  mainRecordId?: number;
  /** Alert definitions kept beside the input's alert_id, in order (as setAlerts keeps them). */
  extraAlertIds?: readonly number[];
}

/** One payment date of one record, with an id that is stable for the same (record, date). */
export interface CalendarEntry {
  id: number;
  date: string;
  record: SubscriptionRecord;
}

export const MAX_RANGE_DAYS = 366;

/** PostgreSQL's SQLSTATEs a write is tried again on: a row that names a row that is not there, and expect_rows' failure. */
const FOREIGN_KEY_VIOLATION = '23503';
const SERIALIZATION_FAILURE = '40001';
const RETRIED = new Set([FOREIGN_KEY_VIOLATION, SERIALIZATION_FAILURE]);
const MAX_ATTEMPTS = 10;
/** Records per statement of a createMany (an import's): a few hundred kilobytes of rows, events and reminders. */
const CREATE_BATCH = 500;
/** Records whose next payment dates and reminders the sweep rolls on per transaction. */
const ROLL_BATCH = 200;
/** Alert definitions per record: its alert_id and those kept beside it. */
const MAX_ALERTS = 10;
/** The original service's upcoming window. */
export const DEFAULT_UPCOMING_DAYS = 7;

export class SubscriptionService {
  /**
   * Changes of one record take turns within this process: each would otherwise read the version the others
   * are about to replace and have to read again (one record under many writes at once wasted most of its
   * work). Between processes the version check alone keeps one outcome.
   */
  private readonly recordTurns = new AsyncLock({ maxPending: Infinity });

  constructor(
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly repository: SubscriptionRepository,
    private readonly defaultImage: string,
    private readonly outbox: OutboxSignal,
    private readonly reminders: ReminderScheduling,
    private readonly sharedRecords: SharedRecordAccess,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Batch loaders for the rows nested under a page of records (one request's worth). */
  relatedLoaders(): Loaders {
    return createLoaders(this.orm, this.repository);
  }

  /**
   * A create in two round trips: one read plans it (links, product, tags, alert definition) and previews the
   * new row (its id drawn), and one statement inserts the columns previewed with the record's tags, event,
   * deliveries and reminders, committing all or none. The answer and the event body come from the preview,
   * which reads the row as the record read will.
   */
  async create(caller: Caller, input: SubscriptionInput): Promise<SubscriptionRecord> {
    assertValid(input);
    const [record] = await this.retried(() => this.createBatch(caller, [{ input }]));
    return record;
  }

  /**
   * Records made as a create makes each (an import's): the same rules, links, event and reminders per record,
   * in batches of CREATE_BATCH with one plan per distinct set of links. All or none only inside the caller's
   * transaction. Answers the records in the order given.
   */
  async createMany(caller: Caller, records: readonly NewRecord[]): Promise<SubscriptionRecord[]> {
    for (const { input, extraAlertIds = [] } of records) {
      assertValid(input);
      if (
        extraAlertIds.length >= MAX_ALERTS ||
        new Set([input.alertId, ...extraAlertIds]).size <= extraAlertIds.length
      ) {
        throw AppError.field('alert_ids', `Give at most ${MAX_ALERTS} distinct alert ids.`);
      }
    }
    const created: SubscriptionRecord[] = [];
    for (let start = 0; start < records.length; start += CREATE_BATCH) {
      created.push(...(await this.retried(() => this.createBatch(caller, records.slice(start, start + CREATE_BATCH)))));
    }
    return created;
  }

  private async createBatch(caller: Caller, records: readonly NewRecord[]): Promise<SubscriptionRecord[]> {
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
    const extraAlertIds = [...new Set(records.flatMap((record) => record.extraAlertIds ?? []))];
    const extraDefinitions = await usableAlerts(currentTarget(this.orm), caller.userId, extraAlertIds);
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
  private async planned<T extends { plan: LinkPlan }>(
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
      await makeUnmade(currentTarget(this.orm), caller.userId, {
        products: [...unmade.products],
        tags: [...unmade.tags],
      });
      entries = await readAll();
      inputs.forEach((input, index) => refuseFieldErrors(checkPlan(input, asks[index], entries[index].plan).errors));
    }
    return entries.map((entry, index) => ({ ...entry, ask: asks[index] }));
  }

  /** One live record: the caller's, or one shared in a household the caller is a member of. */
  async get(caller: Caller, id: number): Promise<SubscriptionRecord> {
    const record = await this.asOwnerOrMember(caller, id, 'read', async (actor) => {
      const row = await this.repository.live(actor.userId, id);
      if (!row) throw AppError.notFound('Subscription');
      return toRecord(row, this.clock());
    });
    return asSeenBy(record, caller.userId);
  }

  /** The stored price steps of the caller's records (a record whose price never changed has none), for an export. */
  priceSteps(caller: Caller): Promise<PriceStep[]> {
    return priceHistoryRepository.ofUser(currentTarget(this.orm), caller.userId);
  }

  /** An imported record's price history, in the import's transaction. */
  async restorePriceSteps(
    caller: Caller,
    id: number,
    steps: ReadonlyArray<{ effective_from: string; price: string }>,
  ): Promise<void> {
    await priceHistoryRepository.restore(currentTarget(this.orm), caller.userId, id, steps);
  }

  /**
   * The live records of `ownerId` among `ids` (a household's shared records, found by the households feature),
   * as the caller, the owner or a member, may read them.
   */
  async ofOwner(caller: Caller, ownerId: number, ids: number[]): Promise<SubscriptionRecord[]> {
    const today = todayCache(this.clock());
    return (await this.repository.byIds(this.orm.em.fork(), ownerId, ids)).map((row) =>
      asSeenBy(toRecord(row, today), caller.userId),
    );
  }

  /** Every live record of the caller, with each one's tags and alert definitions (an export's). */
  async all(caller: Caller): Promise<Array<{ record: SubscriptionRecord; tags: string[]; alertIds: number[] }>> {
    const rows = await this.repository.allLive(caller.userId);
    const today = todayCache(this.clock());
    const em = this.orm.em.fork();
    const ids = rows.map((row) => row.id);
    const [tags, alerts] = await Promise.all([this.repository.tagsOf(em, ids), this.repository.alertLinks(em, ids)]);
    const byRecord = new Map(
      rows.map((row) => [row.id, { record: toRecord(row, today), tags: [] as string[], alertIds: [] as number[] }]),
    );
    for (const tag of tags) byRecord.get(tag.subscription_id)!.tags.push(tag.name);
    for (const link of alerts) byRecord.get(link.subscription_id)!.alertIds.push(link.alert_id);
    return [...byRecord.values()];
  }

  /** A page of the caller's records. */
  async list(caller: Caller, query: ListQuery): Promise<SubscriptionRecord[]> {
    const rows = await this.repository.page(caller.userId, query);
    const today = todayCache(this.clock());
    return rows.map((row) => toRecord(row, today));
  }

  /** A page of the caller's records and how many records its search and filters match in all. */
  async page(caller: Caller, query: ListQuery): Promise<{ records: SubscriptionRecord[]; total: number }> {
    const { rows, total } = await this.repository.pageWithTotal(caller.userId, query);
    const today = todayCache(this.clock());
    return { records: rows.map((row) => toRecord(row, today)), total };
  }

  /** Active records whose next payment falls within the next `days` days, soonest first. */
  async upcoming(caller: Caller, days: number = DEFAULT_UPCOMING_DAYS): Promise<SubscriptionRecord[]> {
    if (!Number.isInteger(days) || days < 0 || days > MAX_RANGE_DAYS) {
      throw AppError.field('days', `The days must be a whole number from 0 to ${MAX_RANGE_DAYS}.`);
    }
    const now = this.clock();
    const today = todayCache(now);
    // The stored dates find the candidates; every zone's "today" is within a day of UTC's.
    const rows = await this.repository.active(caller.userId, {
      recurringOnly: true,
      dueBy: addDays(todayIn('UTC', now), days + 1),
    });
    return rows
      .map((row) => toRecord(row, today))
      .filter(
        (record) =>
          record.next_payment_date !== null && record.next_payment_date <= addDays(today(record.timezone), days),
      )
      .sort((a, b) => a.next_payment_date!.localeCompare(b.next_payment_date!) || a.id - b.id);
  }

  /**
   * One entry per payment date of every Active record within [from, to]; without a range, the current month
   * in the user's timezone.
   */
  async calendar(caller: Caller, from?: string, to?: string): Promise<CalendarEntry[]> {
    const now = this.clock();
    [from, to] = await this.dateRange(caller, from, to);
    const rows = await this.repository.active(caller.userId, { anchoredBy: to });
    const entries: CalendarEntry[] = [];
    const today = todayCache(now);
    for (const row of rows) {
      const record = toRecord(row, today);
      const dates =
        row.recurring === 1
          ? occurrencesBetween(scheduleOf(row), from, to)
          : row.payment_date >= from
            ? [row.payment_date]
            : [];
      for (const date of dates) entries.push({ id: calendarEntryId(row.id, date), date, record });
    }
    return entries.sort((a, b) => a.date.localeCompare(b.date) || a.record.id - b.record.id);
  }

  /**
   * An update in two round trips (three when it names links): one read previews the record as the patch will
   * leave it, and one statement writes it with its tags, event, deliveries and reminders, if the row is still
   * the version read (else all is read again).
   */
  async update(caller: Caller, id: number, patch: SubscriptionPatch): Promise<SubscriptionRecord> {
    // An update without fields would answer "updated" and emit an event for no change.
    if (Object.keys(definedOnly(patch)).length === 0)
      throw AppError.badInput('Nothing to change: send at least one field');
    assertValid(patch);
    const updated = await this.asOwnerOrMember(caller, id, 'edit', (actor) => {
      // A member edits as the owner, but the alerts stay the owner's to set.
      if (actor.userId !== caller.userId && patch.alertId !== undefined)
        throw AppError.field('alert_id', "A shared record's alerts are its owner's to set.");
      return this.updateAs(actor, id, patch);
    });
    return asSeenBy(updated, caller.userId);
  }

  private updateAs(caller: Caller, id: number, patch: SubscriptionPatch): Promise<SubscriptionRecord> {
    return this.changeOf(id, async () => {
      const values: Partial<Subscription> = {};
      let tags: LinkPlan['tags'] | null = null;
      let product: Product | undefined;
      if (namesLinks(patch)) {
        const [{ ask, plan }] = await this.planned(caller, [patch], false, async ([only]) => {
          const plan = await this.repository.linkPlan(caller.userId, only, id);
          // Nothing is checked, or made, for a record that is not the caller's: a member's update goes on as
          // the owner's, whose tags and products a first-use name makes, never the member's.
          if (plan && !plan.record_found) throw AppError.notFound('Subscription');
          return plan ? [{ plan }] : [];
        });
        if (patch.product !== undefined) product = plan.product!;
        Object.assign(values, linkValues(patch, ask));
        if (patch.tags !== undefined) tags = plan.tags;
      }
      Object.assign(values, entityFields(patch), { updatedAt: utcTimestamp() });
      const rows = await this.changeRead(caller, id, 'none', values, product);
      // A patch may move either end of the refund window: the record is checked as it will stand.
      refuseFieldErrors(validateRefundWindow(rows[0].payment_date, rows[0].refund_days));
      const movesDates = DATE_FIELDS.some((field) => patch[field] !== undefined);
      // An edited price corrects the price in effect today; a change from a date is changePrice's.
      const parts =
        patch.price === undefined
          ? []
          : [priceHistoryRepository.correctionPart(id, todayIn(rows[0].timezone, this.clock()), patch.price)];
      return recordOf(await this.writeChange(caller, 'subscription.updated', rows, { tags, movesDates, parts }), id);
    });
  }

  /**
   * A recurring record's price from a date on, kept in its price history: the record's price becomes the one
   * in effect today (a later step takes effect when the sweep reaches its day), with a subscription.updated event.
   */
  async changePrice(
    caller: Caller,
    id: number,
    change: { price: string; effectiveFrom: string },
  ): Promise<SubscriptionRecord> {
    refuseFieldErrors(validateSubscriptionInput({ price: change.price }));
    if (!isCalendarDate(change.effectiveFrom))
      throw AppError.field('effective_from', 'The effective date must be a calendar date (YYYY-MM-DD).');
    return asSeenBy(
      await this.asOwnerOrMember(caller, id, 'edit', (actor) => this.changePriceAs(actor, id, change)),
      caller.userId,
    );
  }

  private changePriceAs(
    caller: Caller,
    id: number,
    change: { price: string; effectiveFrom: string },
  ): Promise<SubscriptionRecord> {
    return this.changeOf(id, async () => {
      const [record] = await this.changeRead(caller, id, 'none', {});
      if (record.recurring !== 1)
        throw AppError.field('price', 'A one-time purchase has one price: edit the record instead.');
      if (change.effectiveFrom < record.payment_date)
        throw AppError.field('effective_from', 'The effective date must be on or after the payment date.');
      const steps = stepsAfterChange(record, await priceHistoryRepository.of(currentTarget(this.orm), [id]), change);
      const values: Partial<Subscription> = {
        price: priceOn({ current: record.price, steps }, todayIn(record.timezone, this.clock())),
        updatedAt: utcTimestamp(),
      };
      const rows = await this.changeRead(caller, id, 'none', values);
      const parts = [priceHistoryRepository.stepsPart(steps)];
      return recordOf(await this.writeChange(caller, 'subscription.updated', rows, { movesDates: false, parts }), id);
    });
  }

  /** Sets the record's alert definitions: the first is its alert_id, the others are kept beside it. */
  async setAlerts(caller: Caller, id: number, alertIds: number[]): Promise<number[]> {
    const unique = [...new Set(alertIds)];
    if (unique.length === 0 || unique.length > MAX_ALERTS)
      throw AppError.field('alert_ids', `Give from 1 to ${MAX_ALERTS} alert ids.`);
    await this.change(async (em) => {
      const record = await this.owned(em, caller, id);
      await usableAlerts(em, caller.userId, unique);
      record.alert = unique[0];
      await em.flush();
      await this.repository.replaceExtraAlerts(em, id, unique.slice(1));
      await this.emit(em, caller, 'subscription.updated', [id]);
    });
    return unique;
  }

  /** Soft delete: the record and its add-ons disappear from every read and can be restored. */
  async remove(caller: Caller, id: number): Promise<void> {
    await this.changeOf(id, async () => {
      const deletedAt = utcTimestamp(this.clock());
      const values: Partial<Subscription> = { deletedAt, updatedAt: deletedAt };
      await this.writeChange(caller, 'subscription.deleted', await this.changeRead(caller, id, 'live', values));
    });
  }

  /** Brings back a deleted record with the add-ons deleted along with it. */
  async restore(caller: Caller, id: number): Promise<SubscriptionRecord> {
    return this.change(async (em) => {
      const record = await this.repository.lockDeleted(em, caller.userId, id);
      if (!record) throw AppError.notFound('Deleted subscription');
      const addons = await this.repository.addonIds(em, record.id, { deletedAt: record.deletedAt });
      await this.repository.updateMany(em, addons, { deletedAt: null });
      record.deletedAt = null;
      return recordOf(await this.emit(em, caller, 'subscription.updated', [record.id, ...addons]), record.id);
    });
  }

  /** Active → Cancelled, with the record's active add-ons. */
  async cancel(caller: Caller, id: number): Promise<SubscriptionRecord> {
    return this.changeOf(id, async () => {
      const values: Partial<Subscription> = { status: Status.Cancelled, updatedAt: utcTimestamp() };
      const rows = await this.changeRead(caller, id, 'active', values);
      if (rows[0].status_before !== Status.Active)
        throw new AppError('CONFLICT', 'Only an active subscription can be cancelled');
      return recordOf(await this.writeChange(caller, 'subscription.canceled', rows), id);
    });
  }

  /**
   * Active or Cancelled → Refunded, whatever the date (the user records a refund the vendor granted;
   * refund_date is information), with the record's add-ons.
   */
  async refund(caller: Caller, id: number): Promise<SubscriptionRecord> {
    return this.changeOf(id, async () => {
      const values: Partial<Subscription> = { status: Status.Refunded, updatedAt: utcTimestamp() };
      const rows = await this.changeRead(caller, id, 'unrefunded', values);
      const before = rows[0].status_before;
      if (before === Status.Refunded) throw new AppError('CONFLICT', 'The subscription is already refunded');
      if (before !== Status.Active && before !== Status.Cancelled)
        throw new AppError('CONFLICT', 'Only an active or cancelled subscription can be refunded');
      return recordOf(await this.writeChange(caller, 'subscription.refunded', rows), id);
    });
  }

  async addAddon(caller: Caller, mainId: number, input: AddonInput): Promise<SubscriptionRecord> {
    const errors = validateSubscriptionInput({
      type: input.type,
      price: input.price,
      currency: input.currency,
      paymentDate: input.paymentDate,
      status: input.status,
      recurring: input.recurring,
    });
    if (input.refundDate !== undefined && input.refundDate !== null && !errors.payment_date) {
      const days = isCalendarDate(input.refundDate)
        ? epochDay(input.refundDate) - epochDay(input.paymentDate)
        : Number.NaN;
      if (Number.isNaN(days) || days < 0)
        (errors.refund_date ??= []).push('The refund_date must be a calendar date on or after the payment_date.');
      else if (days > MAX_REFUND_DAYS)
        (errors.refund_date ??= []).push(
          `The refund_date must be at most ${MAX_REFUND_DAYS} days after the payment_date.`,
        );
    }
    refuseFieldErrors(errors);
    return this.change(async (em) => {
      const main = await this.owned(em, caller, mainId);
      if (main.subAddon === 1) throw new AppError('CONFLICT', 'An add-on cannot have add-ons');
      await checkCurrency(em, input.currency);
      const addon = em.create(Subscription, {
        user: caller.userId,
        createdBy: caller.userId,
        product: main.product,
        productName: main.productName,
        brandname: main.brandname,
        productType: main.productType,
        image: main.image,
        favicon: main.favicon,
        homepage: main.homepage,
        folder: main.folder,
        category: main.category,
        alert: main.alert,
        paymentMode: main.paymentMode,
        billingType: main.billingType,
        billingFrequency: main.billingFrequency,
        billingCycle: main.billingCycle,
        timezone: main.timezone,
        mainRecord: main.id,
        subAddon: 1,
        type: input.type,
        price: input.price,
        priceType: input.currency,
        paymentDate: input.paymentDate,
        status: input.status ?? main.status,
        recurring: input.recurring,
        refundDays: input.refundDate ? epochDay(input.refundDate) - epochDay(input.paymentDate) : null,
      });
      await em.flush();
      return recordOf(await this.emit(em, caller, 'subscription.created', [addon.id]), addon.id);
    });
  }

  /**
   * A checked report period [from, to] (at most MAX_RANGE_DAYS; a missing bound from the current month in the
   * caller's zone) with the settings reports depend on.
   */
  async reportPeriod(
    caller: Caller,
    from?: string,
    to?: string,
  ): Promise<{ from: string; to: string; timezone: string; baseCurrency: string }> {
    const user = await this.ownerSettings(caller);
    [from, to] = await this.dateRange(caller, from, to, user);
    return { from, to, timezone: user.timezone, baseCurrency: user.baseCurrency };
  }

  private async ownerSettings(caller: Caller): Promise<{ timezone: string; baseCurrency: string }> {
    const settings = await this.repository.ownerSettings(caller.userId);
    if (!settings) throw AppError.notFound('User');
    return settings;
  }

  /** A checked [from, to] of at most MAX_RANGE_DAYS; a missing bound comes from the current month in the user's zone. */
  private async dateRange(
    caller: Caller,
    from?: string,
    to?: string,
    known?: { timezone: string },
  ): Promise<[string, string]> {
    if (from === undefined || to === undefined) {
      const user = known ?? (await this.ownerSettings(caller));
      const today = todayIn(user.timezone, this.clock());
      from ??= `${today.slice(0, 8)}01`;
      to ??= isCalendarDate(from) ? endOfMonth(from) : from;
    }
    const errors: Record<string, string[]> = {};
    if (!isCalendarDate(from)) errors.start = ['The start must be a calendar date (YYYY-MM-DD).'];
    if (!isCalendarDate(to)) errors.end = ['The end must be a calendar date (YYYY-MM-DD).'];
    else if (!errors.start && (to < from || epochDay(to) - epochDay(from) + 1 > MAX_RANGE_DAYS)) {
      errors.end = [`The end must be on or after the start, at most ${MAX_RANGE_DAYS} days in all.`];
    }
    if (Object.keys(errors).length > 0) throw AppError.badInput('The given data was invalid', errors);
    return [from, to];
  }

  /** One write: a transaction whose events commit with it; the relay hears of them afterwards. */
  private async change<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.orm.em.transactional(work);
    this.outbox.notify();
    return result;
  }

  /**
   * The caller's live record `id` (first) and the add-ons `addons` names, as `values` (after the copies of
   * `product`, when given) will leave them; "not found" when it has none.
   */
  private async changeRead(
    caller: Caller,
    id: number,
    addons: AddonScope,
    values: Partial<Subscription>,
    product?: Product,
  ): Promise<ChangeRow[]> {
    const copied = product ? { product, defaultImage: this.defaultImage } : undefined;
    const rows = await this.repository.changeRead(caller.userId, id, addons, values, copied);
    const main = rows.find((row) => row.id === id);
    if (!main) throw AppError.notFound('Subscription');
    return [main, ...rows.filter((row) => row !== main)];
  }

  /**
   * Writes the columns the read laid over the rows (the first with its new `tags` when given) with the topic's event for
   * each record and, when the change moves dates, their reminders and next payment dates: one statement, which
   * changes nothing if another write changed a row since it was read. Answers the records as written.
   */
  private async writeChange(
    caller: Caller,
    topic: SubscriptionTopic,
    rows: ChangeRow[],
    options: { tags?: LinkPlan['tags'] | null; movesDates?: boolean; parts?: StatementPart[] } = {},
  ): Promise<SubscriptionRecord[]> {
    const now = this.clock();
    const records = rows.map((row) => toRecord(row, now));
    const tagsOf = (index: number) => (index === 0 && options.tags ? options.tags : rows[index].tags);
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
            record: { ...record, alert_ids: rows[index].alert_ids },
            deleted: rows[index].deleted_at !== null,
          })),
          rows.flatMap((row) => row.definitions),
        ),
      );
    }
    const { due } = await this.repository.applyChange(
      records.map((record, index) => ({
        id: record.id,
        version: rows[index].row_version,
        columns: { ...rows[index].laid, next_payment_date: record.next_payment_date },
      })),
      options.tags ? { id: records[0].id, tagIds: options.tags.map((tag) => tag.id) } : null,
      parts,
    );
    if (due) this.outbox.notify();
    return records;
  }

  /** A change of record `id`: in its turn, and read again and rewritten while another write comes first. */
  private changeOf<T>(id: number, write: () => Promise<T>): Promise<T> {
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

  /**
   * Writes the topic's event for each record as it now stands, and its reminders, inside the write's
   * transaction; answers the records as read there (the answer needs no second read after the commit).
   */
  private async emit(
    em: EntityManager,
    caller: Caller,
    topic: SubscriptionTopic,
    ids: number[],
    options: { movesDates: boolean } = { movesDates: true },
  ): Promise<SubscriptionRecord[]> {
    await em.flush();
    const rows = await this.repository.byIds(em, caller.userId, ids);
    const now = this.clock();
    const records = rows.map((row) => toRecord(row, now));
    await writeRecordEvents(em, this.repository, caller.userId, topic, records);
    // A change that moves no date (a price, a note) leaves the stored next dates and the reminders as they are.
    if (options.movesDates) {
      await this.repository.storeNextPaymentDates(em, records);
      await this.reminders.reschedule(em, ids);
    }
    return records;
  }

  /**
   * The sweep's part: stored next payment dates that have passed (or were never stored) move forward, and the
   * records' reminders with them, in the same transaction: a payment reminder is owed for the next payment
   * only once the date has moved on to it. Small transactions, so a large installation is worked through.
   */
  async rollNextPaymentDates(limit = 1000): Promise<number> {
    const now = this.clock();
    const rows = await this.repository.staleNextPaymentDates(now, limit);
    const today = todayCache(now);
    for (let start = 0; start < rows.length; start += ROLL_BATCH) {
      const batch = rows.slice(start, start + ROLL_BATCH);
      await this.orm.em.transactional(async (em) => {
        await this.repository.storeNextPaymentDates(
          em,
          batch.map((row) => ({ id: row.id, next_payment_date: nextOnOrAfter(scheduleOf(row), today(row.timezone)) })),
        );
        await this.reminders.reschedule(
          em,
          batch.map((row) => row.id),
        );
      });
    }
    return rows.length;
  }

  /** The sweep's part: records whose price history has reached a new step take its price, with a subscription.updated event each. */
  async applyDuePrices(limit = 1000): Promise<number> {
    const due = await priceHistoryRepository.duePrices(pooled(this.orm), this.clock(), limit);
    for (const { id, user_id: userId, price } of due) {
      const caller = { userId, tokenId: null };
      await this.changeOf(id, async () => {
        const values: Partial<Subscription> = { price, updatedAt: utcTimestamp() };
        await this.writeChange(caller, 'subscription.updated', await this.changeRead(caller, id, 'none', values), {
          movesDates: false,
        });
      });
    }
    return due.length;
  }

  /**
   * The sweep's part: Active records whose expiry_date has passed in their own zone become Expired (4), each
   * with its subscription.updated event and its reminders cancelled, in one transaction per owner. The status
   * is re-checked in the update, so a record changed meanwhile is left alone.
   */
  async expireDue(limit = 1000): Promise<number> {
    const due = await this.repository.dueForExpiry(this.clock(), limit);
    const owners = new Map<number, typeof due>();
    for (const row of due) {
      const rows = owners.get(row.user_id);
      if (rows) rows.push(row);
      else owners.set(row.user_id, [row]);
    }
    let expired = 0;
    for (const [userId, rows] of owners) {
      await this.change(async (em) => {
        const changed = await this.repository.expire(
          em,
          rows.map((row) => row.id),
          utcTimestamp(this.clock()),
        );
        if (changed.length === 0) return;
        expired += changed.length;
        await this.emit(em, { userId, tokenId: null }, 'subscription.updated', changed);
      });
    }
    return expired;
  }

  /**
   * The caller's live record (another user's id is "not found"), locked for the rest of the transaction: concurrent writes to one record take
   * turns, and the second sees what the first did (a second cancel finds it cancelled, not Active).
   */
  /**
   * Runs `work` as the caller; when the record is not theirs (NOT_FOUND), as its owner if the caller is a member
   * of the household it is shared in (`edit`: with edit rights). The owner's own path costs nothing more.
   */
  private async asOwnerOrMember<T>(
    caller: Caller,
    id: number,
    need: 'read' | 'edit',
    work: (actor: Caller) => Promise<T>,
  ): Promise<T> {
    try {
      return await work(caller);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error;
      const owner = await this.sharedRecords.ownerFor(caller.userId, id, need);
      if (owner === null || owner === caller.userId) throw error;
      return work({ userId: owner, tokenId: null });
    }
  }

  private async owned(em: EntityManager, caller: Caller, id: number): Promise<Subscription> {
    const record = await this.repository.lockLive(em, caller.userId, id);
    if (!record) throw AppError.notFound('Subscription');
    return record;
  }
}

function assertValid(input: SubscriptionPatch): void {
  refuseFieldErrors(validateSubscriptionInput(input));
}

/** Stable per (record, date) and unique: the record id times ten million plus the date's day number. */
export function calendarEntryId(subscriptionId: number, date: string): number {
  return subscriptionId * 10_000_000 + epochDay(date);
}

/**
 * The fields a record's payment dates and reminders are computed from (its alerts too): an update that
 * changes none of them moves no date.
 */
const DATE_FIELDS: ReadonlyArray<keyof SubscriptionPatch> = [
  'type',
  'status',
  'recurring',
  'timezone',
  'paymentDate',
  'billingType',
  'billingCycle',
  'billingFrequency',
  'refundDays',
  'expiryDate',
  'alertId',
];

function uniqueById<T extends { id: number }>(items: readonly T[]): T[] {
  return [...new Map(items.map((item) => [item.id, item])).values()];
}

/** The record of this id among those a write emitted. */
function recordOf(records: SubscriptionRecord[], id: number): SubscriptionRecord {
  const record = records.find((candidate) => candidate.id === id);
  if (!record) throw new Error(`record ${id} was not read back in its own transaction`);
  return record;
}
