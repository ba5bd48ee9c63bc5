import ical, { type VEvent } from 'node-ical';

import { addDays, addMonths, daysInMonth } from '../../src/platform/dates';
import { toGlobalId } from '../../src/platform/graphql/global-ids';
import { ENGINES } from '../support/ics-engines';
import { createSubscription } from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { dayOfMonthFromToday, today } from '../support/test-clock';

/**
 * Calendar feeds over HTTP, as a calendar app reads them: made and revoked through GraphQL, fetched by the
 * URL alone, read back with node-ical (a second iCalendar reader), and polled with ETag and Last-Modified.
 */
let testApp: TestApp;
let user: SignedUpUser;
let monthEnd: Record<string, unknown>;
let once: Record<string, unknown>;
let cancelled: Record<string, unknown>;

beforeAll(async () => {
  testApp = await startTestApp();
  user = await signUp(testApp, 'Feeds');
  monthEnd = await createSubscription(testApp, user.token, {
    payment_date: '2026-01-31',
    price: '15.49',
    price_type: 'USD',
  });
  once = await createSubscription(testApp, user.token, {
    recurring: '0',
    payment_date: '2026-03-05',
    price: '99.00',
    price_type: 'EUR',
  });
  cancelled = await createSubscription(testApp, user.token, { payment_date: '2025-11-10' });
  await testApp.http
    .post(`/api/v1/subscriptions/${String(cancelled.id)}/cancel`)
    .set('authorization', `Bearer ${user.token}`);
});
afterAll(() => testApp.close());

type NewFeed = {
  id: string;
  legacyId: number;
  url: string;
  name: string;
  includeReminders: boolean;
  createdAt: string;
  revokedAt: string | null;
};
/** A new feed: its fields, and its URL from the payload (shown this once). */
const createFeed = async (includeReminders: boolean): Promise<NewFeed> => {
  const { createCalendarFeed } = await graphqlData(
    testApp,
    user.token,
    `mutation($input: CreateCalendarFeedInput!) {
      createCalendarFeed(input: $input) {
        calendarFeed { id legacyId name includeReminders createdAt revokedAt }
        url
        userErrors { field code message }
      }
    }`,
    { input: { name: 'Payments', includeReminders } },
  );
  expect(createCalendarFeed.userErrors).toEqual([]);
  return { ...createCalendarFeed.calendarFeed, url: createCalendarFeed.url };
};
const pathOf = (url: string) => new URL(url).pathname;
const eventsOf = (text: string) =>
  Object.values(ical.sync.parseICS(text)).filter((item): item is VEvent => item.type === 'VEVENT');
const uidOf = (id: unknown) => `subscription-${String(id)}@${new URL(testApp.config.baseUrl).hostname}`;
const day = (date: Date) => date.toISOString().slice(0, 10);

it('makes a feed whose URL holds a token shown once and stored only as a hash', async () => {
  const feed = await createFeed(false);
  expect(feed).toEqual({
    id: toGlobalId('CalendarFeed', feed.legacyId),
    legacyId: expect.any(Number),
    url: expect.stringMatching(new RegExp(`^${testApp.config.baseUrl}/calendar/calf_[A-Za-z0-9_-]{20,80}\\.ics$`)),
    name: 'Payments',
    includeReminders: false,
    createdAt: expect.any(String),
    revokedAt: null,
  });
  const token = pathOf(feed.url).slice('/calendar/'.length, -'.ics'.length);
  const [stored] = await sql<{ token_hash: string }>(
    testApp,
    `select "token_hash" from "calendar_feeds" where "id" = ?`,
    [feed.legacyId],
  );
  expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
  expect(stored.token_hash).not.toContain(token);
  const listed = await graphqlData<{ calendarFeeds: Array<Record<string, unknown>> }>(
    testApp,
    user.token,
    '{ calendarFeeds { id legacyId name includeReminders revokedAt } }',
  );
  expect(listed.calendarFeeds).toContainEqual({
    id: feed.id,
    legacyId: feed.legacyId,
    name: 'Payments',
    includeReminders: false,
    revokedAt: null,
  });
  expect(JSON.stringify(listed)).not.toContain(token);
});

it('answers text/calendar with one all-day event per record, recurring by an RRULE that keeps month ends', async () => {
  const feed = await createFeed(false);
  const response = await testApp.http.get(pathOf(feed.url));
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
  const events = eventsOf(response.text);
  expect(events.map((event) => event.uid).sort()).toEqual(
    [uidOf(monthEnd.id), uidOf(once.id), uidOf(cancelled.id)].sort(),
  );
  const monthly = events.find((event) => event.uid === uidOf(monthEnd.id))!;
  expect(monthly.datetype).toBe('date');
  expect(monthly.summary).toContain('15.49 USD');
  expect(monthly.rrule!.toString()).toContain('BYMONTHDAY=-1');
  expect(monthly.rrule!.between(new Date('2026-01-01'), new Date('2026-05-01'), true).map(day)).toEqual([
    '2026-01-31',
    '2026-02-28',
    '2026-03-31',
    '2026-04-30',
  ]);
  const single = events.find((event) => event.uid === uidOf(once.id))!;
  expect([single.rrule, day(single.start), single.summary]).toEqual([
    undefined,
    '2026-03-05',
    expect.stringContaining('99.00 EUR'),
  ]);
  // A cancelled record's payments end on the day it was cancelled.
  const ended = events.find((event) => event.uid === uidOf(cancelled.id))!;
  expect(ended.rrule!.toString()).toMatch(/UNTIL=\d{8}/);
  expect(ended.rrule!.between(new Date('2035-01-01'), new Date('2036-01-01'), true)).toEqual([]);
  // The same feed again is the same text (stable UIDs and stamps).
  expect((await testApp.http.get(pathOf(feed.url))).text).toBe(response.text);
});

it("gives Active records the calendar operation's dates, one by one, over three years", async () => {
  const feed = await createFeed(false);
  const events = eventsOf((await testApp.http.get(pathOf(feed.url))).text);
  const entries: Array<{ subscription_id: number; calendar_date: string }> = [];
  for (const year of [2026, 2027, 2028]) {
    const answer = await testApp.http
      .get(`/api/v1/calendar?start=${year}-01-01&end=${year}-12-31`)
      .set('authorization', `Bearer ${user.token}`);
    expect(answer.status).toBe(200);
    entries.push(...(answer.body as typeof entries));
  }
  for (const record of [monthEnd, once]) {
    const event = events.find((item) => item.uid === uidOf(record.id))!;
    const fromFeed = event.rrule
      ? event.rrule.between(new Date('2026-01-01'), new Date('2028-12-31'), true).map(day)
      : [day(event.start)];
    const fromCalendar = entries
      .filter((entry) => entry.subscription_id === record.id)
      .map((entry) => entry.calendar_date);
    expect(fromFeed).toEqual(fromCalendar);
  }
});

it('gives month ends the dates of the REST calendar in ical.js, node-ical and rrule alike, over five years', async () => {
  // A user of its own: records on the 28th to the 31st of this month and the six before it (months without
  // the day are left out), monthly, every 2 and every 3 months, and yearly on the last Feb 29 (and monthly from it).
  const owner = await signUp(testApp, 'Month ends');
  const records = new Map<number, string>();
  const add = async (payment_date: string, billing_cycle: string, billing_frequency: string) => {
    const record = await createSubscription(testApp, owner.token, { payment_date, billing_cycle, billing_frequency });
    records.set(
      Number(record.id),
      `${payment_date} every ${billing_frequency} ${billing_cycle === '3' ? 'month' : 'year'}(s)`,
    );
  };
  for (let months = -6; months <= 0; months++) {
    for (const day of [28, 29, 30, 31]) {
      const anchor = dayOfMonthFromToday(months, day);
      if (Number(anchor.slice(8)) !== day) continue;
      for (const frequency of ['1', '2', '3']) await add(anchor, '3', frequency);
    }
  }
  let leapYear = Number(today().slice(0, 4));
  while (daysInMonth(leapYear, 2) !== 29 || `${leapYear}-02-29` > today()) leapYear--;
  await add(`${leapYear}-02-29`, '4', '1');
  await add(`${leapYear}-02-29`, '3', '1');
  const feed = (
    await graphqlData<{ createCalendarFeed: { url: string } }>(
      testApp,
      owner.token,
      'mutation { createCalendarFeed(input: {name: "Month ends", includeReminders: false}) { url } }',
    )
  ).createCalendarFeed;
  const text = (await testApp.http.get(pathOf(feed.url))).text;
  // Five years from the first of the earliest anchors' month: a leap February and every month end.
  const from = dayOfMonthFromToday(-6, 1);
  const to = addDays(addMonths(from, 60), -1);
  const calendar = new Map<number, string[]>();
  for (let year = 0; year < 5; year++) {
    const [start, end] = [addMonths(from, 12 * year), addDays(addMonths(from, 12 * (year + 1)), -1)];
    const answer = await testApp.http
      .get(`/api/v1/calendar?start=${start}&end=${end}`)
      .set('authorization', `Bearer ${owner.token}`);
    expect(answer.status).toBe(200);
    for (const entry of answer.body as Array<{ subscription_id: number; calendar_date: string }>) {
      calendar.set(entry.subscription_id, [...(calendar.get(entry.subscription_id) ?? []), entry.calendar_date]);
    }
  }
  expect([...records.keys()].every((id) => calendar.get(id)?.length)).toBe(true);
  expect([...calendar.values()].flat().some((date) => date.endsWith('-02-29'))).toBe(true);
  for (const [engine, expansion] of Object.entries(ENGINES)) {
    const fromFeed = expansion(text, from, to);
    const mismatches = [...records]
      .filter(([id]) => JSON.stringify(fromFeed.get(id) ?? []) !== JSON.stringify(calendar.get(id) ?? []))
      .map(([id, record]) => ({
        engine,
        record,
        calendar: calendar.get(id)?.slice(0, 6),
        feed: fromFeed.get(id)?.slice(0, 6),
      }));
    expect(mismatches.slice(0, 3)).toEqual([]);
  }
});

it('carries an alarm per alert definition at the offset reminders use, when asked', async () => {
  const withReminders = eventsOf((await testApp.http.get(pathOf((await createFeed(true)).url))).text);
  // The default alert: 3 days before at 09:00, from the all-day event's midnight.
  expect(withReminders.find((event) => event.uid === uidOf(monthEnd.id))!.alarms).toEqual([
    expect.objectContaining({ action: 'DISPLAY', trigger: '-P2DT15H' }),
  ]);
  const without = eventsOf((await testApp.http.get(pathOf((await createFeed(false)).url))).text);
  expect(without.find((event) => event.uid === uidOf(monthEnd.id))!.alarms ?? []).toEqual([]);
});

it("leaves out a definition for another record type, as the reminder scheduler does, and adds the record's others", async () => {
  const define = async (subjects: number, weeks: number) =>
    (
      await sql<{ id: number }>(
        testApp,
        `insert into "alerts" ("user_id", "alert_name", "time_period", "time_cycle", "time", "alert_condition", "alert_type", "timezone", "alert_subs_type")
         values (?, 'Extra', ?, 2, '08:30', 1, 1, 'UTC', ?) returning "id"`,
        [user.id, weeks, subjects],
      )
    )[0].id;
  // monthEnd is a Subscription (type 1): a Trials-only definition (2) never reminds it.
  const [forSubscriptions, forTrials] = [await define(1, 1), await define(2, 2)];
  for (const [position, alertId] of [forSubscriptions, forTrials].entries()) {
    await sql(
      testApp,
      `insert into "subscription_alerts" ("subscription_id", "alert_id", "position") values (?, ?, ?)`,
      [monthEnd.id, alertId, position + 1],
    );
  }
  const events = eventsOf((await testApp.http.get(pathOf((await createFeed(true)).url))).text);
  // One week before at 08:30: 6 days and 15.5 hours before the payment date's midnight.
  expect(events.find((event) => event.uid === uidOf(monthEnd.id))!.alarms!.map((alarm) => alarm.trigger)).toEqual([
    '-P2DT15H',
    '-P6DT15H30M',
  ]);
});

it('answers 304 to a poll while nothing changed, and the new feed once a record changed', async () => {
  const path = pathOf((await createFeed(false)).url);
  const first = await testApp.http.get(path);
  expect(first.headers.etag).toMatch(/^".+"$/);
  expect(new Date(first.headers['last-modified']).getTime()).not.toBeNaN();
  const again = await testApp.http.get(path).set('if-none-match', first.headers.etag);
  expect([again.status, again.text]).toEqual([304, '']);
  const since = await testApp.http.get(path).set('if-modified-since', first.headers['last-modified']);
  expect(since.status).toBe(304);
  await testApp.http
    .put(`/api/v1/subscriptions/${String(monthEnd.id)}`)
    .set('authorization', `Bearer ${user.token}`)
    .type('form')
    .send({ price: '16.99' });
  const changed = await testApp.http.get(path).set('if-none-match', first.headers.etag);
  expect(changed.status).toBe(200);
  expect(changed.headers.etag).not.toBe(first.headers.etag);
  expect(eventsOf(changed.text).find((event) => event.uid === uidOf(monthEnd.id))!.summary).toContain('16.99 USD');
});

it('changes both validators with anything the feed shows: an alert definition answers If-Modified-Since with the new feed too', async () => {
  const {
    createAlert: { alert },
  } = await graphqlData<{ createAlert: { alert: { id: string; legacyId: number } } }>(
    testApp,
    user.token,
    'mutation { createAlert(input: {name: "Feed", timePeriod: 2, time: "07:00", timezone: "UTC", channel: ALL}) { alert { id legacyId } } }',
  );
  await testApp.http
    .put(`/api/v1/subscriptions/${String(once.id)}`)
    .set('authorization', `Bearer ${user.token}`)
    .type('form')
    .send({ alert_id: String(alert.legacyId) });
  const path = pathOf((await createFeed(true)).url);
  const triggerOf = (text: string) =>
    eventsOf(text)
      .find((event) => event.uid === uidOf(once.id))!
      .alarms!.map((alarm) => alarm.trigger);
  const first = await testApp.http.get(path);
  expect(triggerOf(first.text)).toEqual(['-P1DT17H']);
  expect((await testApp.http.get(path).set('if-modified-since', first.headers['last-modified'])).status).toBe(304);
  await graphqlData(
    testApp,
    user.token,
    `mutation { updateAlert(input: {id: "${alert.id}", time: "06:30"}) { alert { id } } }`,
  );
  // A client that keeps only Last-Modified, and one that keeps only the ETag, both get the new feed.
  const since = await testApp.http.get(path).set('if-modified-since', first.headers['last-modified']);
  expect(since.status).toBe(200);
  expect(triggerOf(since.text)).toEqual(['-P1DT17H30M']);
  expect(new Date(since.headers['last-modified']).getTime()).toBeGreaterThan(
    new Date(first.headers['last-modified']).getTime(),
  );
  expect(since.headers.etag).not.toBe(first.headers.etag);
  expect((await testApp.http.get(path).set('if-none-match', first.headers.etag)).status).toBe(200);
  // Unchanged since: 304 to either validator, the same ones again.
  const again = await testApp.http.get(path).set('if-modified-since', since.headers['last-modified']);
  expect([again.status, again.headers['last-modified'], again.headers.etag]).toEqual([
    304,
    since.headers['last-modified'],
    since.headers.etag,
  ]);
  expect((await testApp.http.get(path).set('if-none-match', since.headers.etag)).status).toBe(304);
});

it('answers 404 once revoked, and to unknown or malformed tokens; another user cannot revoke it', async () => {
  const feed = await createFeed(false);
  const stranger = await signUp(testApp, 'Stranger');
  const REVOKE =
    'mutation($input: RevokeCalendarFeedInput!) { revokeCalendarFeed(input: $input) { calendarFeed { id revokedAt } userErrors { field code } } }';
  const refused = await graphql(testApp, stranger.token, REVOKE, { input: { id: feed.id } });
  expect(refused.body.data.revokeCalendarFeed).toEqual({
    calendarFeed: null,
    userErrors: [{ field: [], code: 'NOT_FOUND' }],
  });
  expect(refused.body.errors[0].extensions.code).toBe('NOT_FOUND');
  expect((await graphqlData(testApp, stranger.token, `{ node(id: "${feed.id}") { id } }`)).node).toBeNull();
  expect(
    (await graphqlData(testApp, user.token, `{ node(id: "${feed.id}") { __typename ... on CalendarFeed { name } } }`))
      .node,
  ).toEqual({ __typename: 'CalendarFeed', name: 'Payments' });
  expect((await testApp.http.get(pathOf(feed.url))).status).toBe(200);
  const revoked = await graphqlData(testApp, user.token, REVOKE, { input: { id: feed.id } });
  expect(revoked.revokeCalendarFeed).toEqual({
    calendarFeed: { id: feed.id, revokedAt: expect.any(String) },
    userErrors: [],
  });
  for (const path of [
    pathOf(feed.url),
    '/calendar/calf_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics',
    '/calendar/nonsense.ics',
    pathOf(feed.url).replace('.ics', '.txt'),
  ]) {
    const response = await testApp.http.get(path);
    expect([path, response.status, response.body.status]).toEqual([path, 404, false]);
  }
  const bad = await graphql(
    testApp,
    user.token,
    'mutation { createCalendarFeed(input: {name: "  "}) { calendarFeed { id } url userErrors { field code } } }',
  );
  expect(bad.body.data.createCalendarFeed).toEqual({
    calendarFeed: null,
    url: null,
    userErrors: [{ field: ['input', 'name'], code: 'BAD_USER_INPUT' }],
  });
  expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
});
