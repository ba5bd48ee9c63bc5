import type { Product } from '../catalogue/product.entity';
import type { Caller } from '../platform/caller';
import { epochDay, isCalendarDate, todayIn } from '../platform/dates';
import { utcTimestamp } from '../platform/db/timestamps';
import { AppError, type FieldErrors, refuseFieldErrors } from '../platform/errors';
import { definedOnly } from '../platform/objects';
import type { SharedRecordAccess } from '../platform/shared-records';
import { Status } from './codes';
import { priceOn, stepsAfterChange } from './price-history';
import type { PriceHistoryRepository } from './price-history.repository';
import type { Subscription } from './subscription.entity';
import { entityFields, MAX_REFUND_DAYS } from './subscription.fields';
import {
  type SubscriptionInput,
  type SubscriptionPatch,
  validateRefundWindow,
  validateSubscriptionInput,
} from './subscription.input';
import type { Loaders } from './subscription.loaders';
import { SubscriptionReads } from './subscription.reads';
import { asSeenBy, type SubscriptionRecord } from './subscription.record';
import type { AddonScope, ChangeRow, LinkPlan, SubscriptionRepository } from './subscription.repository';
import type { SubscriptionSweep } from './subscription.sweep';
import type { NewRecord, SubscriptionWrites } from './subscription.writes';
import { type LinkChecks, linkValues, namesLinks } from './subscription-links';

export type { NewRecord };
export { type CalendarEntry, DEFAULT_UPCOMING_DAYS, MAX_RANGE_DAYS } from './subscription.reads';

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

/** Records per statement of a createMany (an import's): a few hundred kilobytes of rows, events and reminders. */
const CREATE_BATCH = 500;
/** Alert definitions per record: its alert_id and those kept beside it. */
const MAX_ALERTS = 10;
/**
 * What a record can go through: created (alone, many, as an add-on), updated, repriced, given alerts, removed
 * and restored, cancelled and refunded, and the sweep's changes; reads are SubscriptionReads'. Every change is
 * written by SubscriptionWrites.
 */
export class SubscriptionService extends SubscriptionReads {
  constructor(
    repository: SubscriptionRepository,
    priceHistory: PriceHistoryRepository,
    private readonly writes: SubscriptionWrites,
    private readonly sweep: SubscriptionSweep,
    private readonly links: LinkChecks,
    loaders: () => Loaders,
    sharedRecords: SharedRecordAccess,
    clock: () => Date = () => new Date(),
  ) {
    super(repository, priceHistory, loaders, sharedRecords, clock);
  }

  /**
   * A create in two round trips: one read plans it (links, product, tags, alert definition) and previews the
   * new row (its id drawn), and one statement inserts the columns previewed with the record's tags, event,
   * deliveries and reminders, committing all or none. The answer and the event body come from the preview,
   * which reads the row as the record read will.
   */
  async create(caller: Caller, input: SubscriptionInput): Promise<SubscriptionRecord> {
    assertValid(input);
    const [record] = await this.writes.create(caller, [{ input }]);
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
      created.push(...(await this.writes.create(caller, records.slice(start, start + CREATE_BATCH))));
    }
    return created;
  }

  /**
   * An add-on: a create under the caller's main record, which gives it its product, folder, category, alert,
   * payment method, billing and zone; the add-on's own fields obey the field table's rules.
   */
  async addAddon(caller: Caller, mainId: number, addon: AddonInput): Promise<SubscriptionRecord> {
    const { type, price, currency, paymentDate, status, recurring } = addon;
    const errors = validateSubscriptionInput({ type, price, currency, paymentDate, status, recurring });
    const refundDays = addonRefundDays(addon, errors);
    refuseFieldErrors(errors);
    const main = await this.repository.live(caller.userId, mainId);
    if (!main) throw AppError.notFound('Subscription');
    if (main.sub_addon === 1) throw new AppError('CONFLICT', 'An add-on cannot have add-ons');
    const input: SubscriptionInput = {
      product: main.product_id !== null ? { id: main.product_id } : { name: main.product_name ?? '' },
      type: addon.type,
      price: addon.price,
      currency: addon.currency,
      paymentDate: addon.paymentDate,
      status: addon.status ?? main.status,
      recurring: addon.recurring,
      refundDays,
      billingType: main.billing_type,
      billingFrequency: main.billing_frequency,
      billingCycle: main.billing_cycle,
      timezone: main.timezone,
      folderId: main.folder_id,
      categoryId: main.category_id,
      alertId: main.alert_id,
      paymentModeId: main.payment_mode_id,
    };
    assertValid(input);
    const [record] = await this.writes.create(caller, [{ input, mainRecordId: mainId }]);
    return record;
  }

  /** An imported record's price history, in the import's transaction. */
  async restorePriceSteps(
    caller: Caller,
    id: number,
    steps: ReadonlyArray<{ effective_from: string; price: string }>,
  ): Promise<void> {
    await this.priceHistory.restore(caller.userId, id, steps);
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
    return this.writes.changeOf(id, async () => {
      const values: Partial<Subscription> = {};
      let tags: LinkPlan['tags'] | null = null;
      let product: Product | undefined;
      if (namesLinks(patch)) {
        const [{ ask, plan }] = await this.writes.planned(caller, [patch], false, async ([only]) => {
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
          : [this.priceHistory.correctionPart(id, todayIn(rows[0].timezone, this.clock()), patch.price)];
      return recordOf(
        await this.writes.writeChange(caller, 'subscription.updated', rows, { tags, movesDates, parts }),
        id,
      );
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
    const changed = await this.asOwnerOrMember(caller, id, 'edit', (actor) => this.changePriceAs(actor, id, change));
    return asSeenBy(changed, caller.userId);
  }

  private changePriceAs(
    caller: Caller,
    id: number,
    change: { price: string; effectiveFrom: string },
  ): Promise<SubscriptionRecord> {
    return this.writes.changeOf(id, async () => {
      const [record] = await this.changeRead(caller, id, 'none', {});
      if (record.recurring !== 1)
        throw AppError.field('price', 'A one-time purchase has one price: edit the record instead.');
      if (change.effectiveFrom < record.payment_date)
        throw AppError.field('effective_from', 'The effective date must be on or after the payment date.');
      const steps = stepsAfterChange(record, await this.priceHistory.of([id]), change);
      const values: Partial<Subscription> = {
        price: priceOn({ current: record.price, steps }, todayIn(record.timezone, this.clock())),
        updatedAt: utcTimestamp(),
      };
      const rows = await this.changeRead(caller, id, 'none', values);
      const parts = [this.priceHistory.stepsPart(steps)];
      return recordOf(
        await this.writes.writeChange(caller, 'subscription.updated', rows, { movesDates: false, parts }),
        id,
      );
    });
  }

  /** Sets the record's alert definitions: the first is its alert_id, the others are kept beside it. */
  async setAlerts(caller: Caller, id: number, alertIds: number[]): Promise<number[]> {
    const ids = [...new Set(alertIds)];
    if (ids.length === 0 || ids.length > MAX_ALERTS)
      throw AppError.field('alert_ids', `Give from 1 to ${MAX_ALERTS} alert ids.`);
    await this.writes.changeOf(id, async () => {
      const rows = await this.changeRead(caller, id, 'none', { alert: ids[0], updatedAt: utcTimestamp() });
      const definitions = await this.links.usableAlerts(caller.userId, ids);
      await this.writes.writeChange(caller, 'subscription.updated', rows, { alerts: { ids, definitions } });
    });
    return ids;
  }

  /** Soft delete: the record and its add-ons disappear from every read and can be restored. */
  async remove(caller: Caller, id: number): Promise<void> {
    await this.writes.changeOf(id, async () => {
      const deletedAt = utcTimestamp(this.clock());
      const values: Partial<Subscription> = { deletedAt, updatedAt: deletedAt };
      await this.writes.writeChange(caller, 'subscription.deleted', await this.changeRead(caller, id, 'live', values));
    });
  }

  /** Brings back a deleted record with the add-ons deleted along with it. */
  async restore(caller: Caller, id: number): Promise<SubscriptionRecord> {
    return this.writes.changeOf(id, async () => {
      const values: Partial<Subscription> = { deletedAt: null, updatedAt: utcTimestamp(this.clock()) };
      const rows = await this.writes.changeRead(caller, id, 'deletedWith', values);
      if (rows.length === 0) throw AppError.notFound('Deleted subscription');
      return recordOf(await this.writes.writeChange(caller, 'subscription.updated', rows), id);
    });
  }

  /** Active → Cancelled, with the record's active add-ons. */
  async cancel(caller: Caller, id: number): Promise<SubscriptionRecord> {
    return this.writes.changeOf(id, async () => {
      const values: Partial<Subscription> = { status: Status.Cancelled, updatedAt: utcTimestamp() };
      const rows = await this.changeRead(caller, id, 'active', values);
      if (rows[0].status_before !== Status.Active)
        throw new AppError('CONFLICT', 'Only an active subscription can be cancelled');
      return recordOf(await this.writes.writeChange(caller, 'subscription.canceled', rows), id);
    });
  }

  /**
   * Active or Cancelled → Refunded, whatever the date (the user records a refund the vendor granted;
   * refund_date is information), with the record's add-ons.
   */
  async refund(caller: Caller, id: number): Promise<SubscriptionRecord> {
    return this.writes.changeOf(id, async () => {
      const values: Partial<Subscription> = { status: Status.Refunded, updatedAt: utcTimestamp() };
      const rows = await this.changeRead(caller, id, 'unrefunded', values);
      const before = rows[0].status_before;
      if (before === Status.Refunded) throw new AppError('CONFLICT', 'The subscription is already refunded');
      if (before !== Status.Active && before !== Status.Cancelled)
        throw new AppError('CONFLICT', 'Only an active or cancelled subscription can be refunded');
      return recordOf(await this.writes.writeChange(caller, 'subscription.refunded', rows), id);
    });
  }

  /** The sweep's parts (see SubscriptionSweep). */
  rollNextPaymentDates(limit?: number): Promise<number> {
    return this.sweep.rollNextPaymentDates(limit);
  }

  applyDuePrices(limit?: number): Promise<number> {
    return this.sweep.applyDuePrices(limit);
  }

  expireDue(limit?: number): Promise<number> {
    return this.sweep.expireDue(limit);
  }

  /** The caller's live record `id` and its add-ons in `addons` as the change will leave them; "not found" without it. */
  private async changeRead(
    caller: Caller,
    id: number,
    addons: AddonScope,
    values: Partial<Subscription>,
    product?: Product,
  ): Promise<ChangeRow[]> {
    const rows = await this.writes.changeRead(caller, id, addons, values, product);
    if (rows.length === 0) throw AppError.notFound('Subscription');
    return rows;
  }
}

function assertValid(input: SubscriptionPatch): void {
  refuseFieldErrors(validateSubscriptionInput(input));
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

/** The record of this id among those a write emitted. */
function recordOf(records: SubscriptionRecord[], id: number): SubscriptionRecord {
  const record = records.find((candidate) => candidate.id === id);
  if (!record) throw new Error(`record ${id} was not read back in its own transaction`);
  return record;
}

/** An add-on's refund_date as days from its payment date (null without one); a bad one is a refund_date error. */
function addonRefundDays(addon: AddonInput, errors: FieldErrors): number | null {
  if (addon.refundDate === undefined || addon.refundDate === null || errors.payment_date) return null;
  const days = isCalendarDate(addon.refundDate) ? epochDay(addon.refundDate) - epochDay(addon.paymentDate) : Number.NaN;
  if (Number.isNaN(days) || days < 0)
    (errors.refund_date ??= []).push('The refund_date must be a calendar date on or after the payment_date.');
  else if (days > MAX_REFUND_DAYS)
    (errors.refund_date ??= []).push(`The refund_date must be at most ${MAX_REFUND_DAYS} days after the payment_date.`);
  return days;
}
