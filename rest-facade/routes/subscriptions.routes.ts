import { type Request, Router } from 'express';

import { isCalendarDate } from '../../src/platform/dates';
import { AppError } from '../../src/platform/errors';
import { definedOnly } from '../../src/platform/objects';
import type { Services } from '../../src/runtime/services';
import type { JsonArray } from '../../src/subscriptions/record-shape.sql';
import {
  RECORD_FIELDS,
  type RecordField,
  REQUIRED_ON_CREATE,
  type ValueField,
} from '../../src/subscriptions/subscription.fields';
import {
  type SubscriptionInput,
  type SubscriptionPatch,
  validateSubscriptionInput,
} from '../../src/subscriptions/subscription.input';
import {
  DEFAULT_LENGTH,
  DEFAULT_SORT,
  FILTER_KEYS,
  type ListQuery,
  MAX_LENGTH,
  SORT_FIELDS,
} from '../../src/subscriptions/subscription.list';
import { callerOf } from '../auth';
import { parseBody } from '../body';
import { FormReader } from '../form';
import { sendKeptJson, sendKeptJsonArray } from '../json-stream';
import { presentCalendarEntry, presentSubscription } from '../presenters/subscription.presenter';
import { pathId, readPagedQuery } from './params';

/** The reads whose own statement checks the caller's token (see identifyCaller): the list and upcoming. */
export function readChecksItsCaller(req: Request): boolean {
  return req.method === 'GET' && (req.path === '/subscriptions' || req.path === '/subscriptions/upcoming');
}

/** Operations 4-13: the record lifecycle, translated to SubscriptionService calls. */
export function subscriptionRoutes(services: Services): Router {
  const router = Router();
  const subscriptions = services.subscriptions;

  router.post('/subscriptions', parseBody, async (req, res) => {
    const record = await subscriptions.create(callerOf(req), readCreateForm(new FormReader(req.body)));
    res.json({ status: true, message: 'Subscription created successfully', subscription: presentSubscription(record) });
  });

  router.get('/subscriptions', async (req, res) => {
    const caller = callerOf(req);
    const query = readListQuery(req);
    await sendKeptJson(res, req, services.answers, caller, `list ${JSON.stringify(query)}`, async () =>
      arrayOfRecords(await subscriptions.listJson(caller, query), 'subscriptions'),
    );
  });

  router.get('/subscriptions/upcoming', async (req, res) => {
    const form = new FormReader(req.query);
    const days = form.integer('days');
    form.done();
    const caller = callerOf(req);
    await sendKeptJson(res, req, services.answers, caller, `upcoming ${days}`, async () =>
      arrayOfRecords(await subscriptions.upcomingJson(caller, days), 'upcoming payments'),
    );
  });

  router.get('/subscriptions/:id', async (req, res) => {
    const caller = callerOf(req);
    const id = pathId(req, 'Subscription');
    // A record shared by a household's owner is covered too: the owner's changes move every member's version.
    await sendKeptJson(res, req, services.answers, caller, `record ${id}`, async () =>
      JSON.stringify([presentSubscription(await subscriptions.get(caller, id))]),
    );
  });

  router.put('/subscriptions/:id', parseBody, async (req, res) => {
    const id = pathId(req, 'Subscription');
    const form = new FormReader(req.body);
    const bodyId = form.integer('id');
    if (bodyId !== undefined && bodyId !== id) form.fail('id', 'The id must match the subscription in the path.');
    await subscriptions.update(callerOf(req), id, readPatchForm(form));
    res.json({ status: true, message: 'Subscription updated successfully' });
  });

  router.delete('/subscriptions/:id', async (req, res) => {
    await subscriptions.remove(callerOf(req), pathId(req, 'Subscription'));
    res.json({ status: true, message: 'Subscription deleted successfully' });
  });

  router.post('/subscriptions/:id/cancel', parseBody, async (req, res) => {
    await subscriptions.cancel(callerOf(req), pathId(req, 'Subscription'));
    res.json({ status: true, message: 'Subscription cancelled successfully' });
  });

  router.post('/subscriptions/:id/refund', parseBody, async (req, res) => {
    await subscriptions.refund(callerOf(req), pathId(req, 'Subscription'));
    res.json({ status: true, message: 'Subscription refunded successfully' });
  });

  router.post('/subscriptions/:id/addon', parseBody, async (req, res) => {
    const mainId = pathId(req, 'Subscription');
    const form = new FormReader(req.body);
    const input = {
      type: form.requiredInteger('type'),
      price: form.decimal('price', { required: true }) ?? '',
      currency: (form.text('price_type', { required: true }) ?? '').toUpperCase(),
      paymentDate: form.text('payment_date', { required: true }) ?? '',
      status: form.switch('status'),
      recurring: form.switch('recurring') ?? 1,
      refundDate: form.text('refund_date'),
    };
    form.done();
    const record = await subscriptions.addAddon(callerOf(req), mainId, input);
    res.json({ status: true, message: 'Add-on created successfully', subscription: presentSubscription(record) });
  });

  router.get('/calendar', async (req, res) => {
    const form = new FormReader(req.query);
    const start = form.text('start');
    const end = form.text('end');
    form.done();
    const caller = callerOf(req);
    await sendKeptJsonArray(
      res,
      req,
      services.answers,
      caller,
      `calendar ${start} ${end}`,
      () => records(subscriptions.calendar(caller, start, end), 'payments'),
      presentCalendarEntry,
    );
  });

  return router;
}

/** An answer's JSON array of records, as the bytes of its parts; none is the original's "no results" answer. */
function arrayOfRecords(array: JsonArray, what: string): Buffer[] {
  if (array.count === 0) throw AppError.noResults(what);
  return array.parts;
}

/** The records of an answer; none is the original's "no results" answer. */
async function records<T>(found: Promise<T[]>, what: string): Promise<T[]> {
  const items = await found;
  if (items.length === 0) throw AppError.noResults(what);
  return items;
}

/** brand_id: an integer names a catalogue product; anything else is a product name. */
function readProduct(form: FormReader, required: boolean): SubscriptionInput['product'] | undefined {
  const value = form.text('brand_id', { required })?.trim();
  if (value === undefined || value === '') return undefined;
  // Digits always name a product id (one past the id range names no product); anything else is a name.
  return /^\d+$/.test(value) ? { id: /^\d{1,10}$/.test(value) ? Number(value) : 0 } : { name: value };
}

/** The links of operation 4 (ids of the caller's rows) and its tags. */
function readLinks(form: FormReader): SubscriptionPatch {
  return {
    folderId: form.integer('folder_id'),
    alertId: form.integer('alert_id'),
    categoryId: form.integer('category_id'),
    paymentModeId: form.integer('payment_mode_id'),
    tags: form.list('tags'),
  };
}

/** One value field of the field table, read by its kind (syntax only: the domain checks the rules). */
function readValue(form: FormReader, field: RecordField, required: boolean): unknown {
  const options = { required };
  switch (field.rule.kind) {
    case 'code':
      return field.rule.switch ? form.switch(field.rest, options) : form.integer(field.rest, options);
    case 'integer':
      return form.integer(field.rest, options);
    case 'money':
      return form.decimal(field.rest, options);
    case 'currency':
      return form.text(field.rest, options)?.toUpperCase();
    default:
      return form.text(field.rest, options);
  }
}

/** The value fields of the field table, but those `skip` names; those `optional` names are not required on create. */
function readValues(
  form: FormReader,
  requiredOnCreate: boolean,
  skip: ValueField[] = [],
  optional: ValueField[] = [],
): SubscriptionPatch {
  const values: Record<string, unknown> = {};
  for (const field of RECORD_FIELDS) {
    const required = requiredOnCreate && REQUIRED_ON_CREATE.has(field.name) && !optional.includes(field.name);
    if (!skip.includes(field.name)) values[field.name] = readValue(form, field, required);
  }
  return values as SubscriptionPatch;
}

/** Operation 4; a field `defaults` names may be left out and takes its value there (the inbound webhook's created). */
export function readCreateForm(
  form: FormReader,
  defaults: Partial<Record<ValueField, number>> = {},
): SubscriptionInput {
  const input = {
    product: readProduct(form, true) ?? { name: '' },
    ...defaults,
    ...definedOnly(readValues(form, true, [], Object.keys(defaults) as ValueField[])),
    ...definedOnly(readLinks(form)),
  } as SubscriptionInput;
  form.merge(validateSubscriptionInput(input));
  form.done();
  return input;
}

/** Operation 11: every field optional; currency_code (or price_type) sets the price's currency. */
export function readPatchForm(form: FormReader): SubscriptionPatch {
  const [currencyCode, priceType] = [form.text('currency_code'), form.text('price_type')];
  if (currencyCode !== undefined && priceType !== undefined && currencyCode.toUpperCase() !== priceType.toUpperCase()) {
    form.fail('currency_code', 'The currency_code and price_type name one currency; send one, or the same in both.');
    form.fail('price_type', 'The currency_code and price_type name one currency; send one, or the same in both.');
  }
  const patch: SubscriptionPatch = definedOnly({
    product: readProduct(form, false),
    currency: (currencyCode ?? priceType)?.toUpperCase(),
    ...readValues(form, false, ['currency']),
    ...readLinks(form),
  });
  form.merge(validateSubscriptionInput(patch));
  form.done();
  return patch;
}

/** q, start, length, sort and filters of operation 8; a malformed value is a 400 naming it. */
function readListQuery(req: Request): ListQuery {
  const form = new FormReader(req.query);
  const paged = readPagedQuery(form, [...SORT_FIELDS], DEFAULT_SORT, { default: DEFAULT_LENGTH, max: MAX_LENGTH });
  const filters = readFilters(form, form.text('filters', { max: 2000 }));
  form.done();
  return { ...paged, filters };
}

const FILTERS = new Map(Object.entries(FILTER_KEYS));

/**
 * `{"subscription": {"folder_id": ["3"], "type": ["1"], "payment_date": "2026-06-01"}}`, or an empty string.
 * Unknown keys are ignored, as the original does; a malformed value of a known one is a 400.
 */
function readFilters(form: FormReader, text: string | undefined): ListQuery['filters'] {
  const filters: ListQuery['filters'] = {};
  if (text === undefined || text.trim() === '') return filters;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return form.fail('filters', 'The filters must be JSON.') ?? filters;
  }
  const fields = (parsed as { subscription?: unknown } | null)?.subscription;
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    Array.isArray(parsed) ||
    (fields !== undefined && (typeof fields !== 'object' || fields === null || Array.isArray(fields)))
  ) {
    return form.fail('filters', 'The filters must look like {"subscription": {"folder_id": ["1"]}}.') ?? filters;
  }
  for (const [field, values] of Object.entries((fields ?? {}) as Record<string, unknown>)) {
    if (field === 'payment_date') {
      const date = Array.isArray(values) ? values[0] : values;
      if (date === null || date === undefined || date === '') continue;
      if (typeof date !== 'string' || !isCalendarDate(date))
        form.fail('filters', 'The payment_date filter takes a date (YYYY-MM-DD).');
      else filters.paymentDate = date;
      continue;
    }
    const filter = FILTERS.get(field);
    if (!filter) continue;
    const list = Array.isArray(values) ? values : [values];
    if (!list.every((value) => /^\d{1,9}$/.test(String(value)))) {
      form.fail('filters', `The ${field} filter takes whole numbers.`);
      continue;
    }
    filters[filter] = list.map(Number);
  }
  return filters;
}
