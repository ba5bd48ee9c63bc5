import type IcalJs from 'ical.js' with { 'resolution-mode': 'import' };
import nodeIcal, { type VEvent } from 'node-ical';
import { rrulestr } from 'rrule';

import { addDays } from '../../src/platform/dates';

/*
 * A calendar feed's text expanded as calendar programs expand it, by three iCalendar engines that share no
 * code: ical.js (Thunderbird's and Nextcloud's), node-ical (its own parser, over rrule's expansion), and
 * rrule fed the DTSTART and RRULE lines alone. Each gives, per record (the id in its events' UIDs, which a
 * split rule suffixes with -2, -3, …), the dates of all its events within [from, to], in order.
 */

/**
 * ical.js 2 is an ES module with a CommonJS build (UMD: the module object itself), which this CommonJS test
 * code loads; its types are the ES module's default export.
 */
const icalJsModule = jest.requireActual<typeof IcalJs | { default: typeof IcalJs }>('ical.js');
export const ICAL = 'default' in icalJsModule ? icalJsModule.default : icalJsModule;

export type FeedDates = Map<number, string[]>;

function recordOf(uid: string): number {
  const match = /^subscription-(\d+)(?:-\d+)?@/.exec(uid);
  if (!match) throw new Error(`not a record's UID: ${uid}`);
  return Number(match[1]);
}

function byRecord(events: Array<{ uid: string; dates: string[] }>, from: string, to: string): FeedDates {
  const dates: FeedDates = new Map();
  for (const event of events) {
    const list = dates.get(recordOf(event.uid)) ?? [];
    list.push(...event.dates.filter((date) => date >= from && date <= to));
    dates.set(recordOf(event.uid), list);
  }
  for (const list of dates.values()) list.sort();
  return dates;
}

/** ical.js: the whole calendar parsed, each VEVENT iterated (RRULE, RDATE and EXDATE, as its programs do). */
export function icalJsExpansion(text: string, from: string, to: string): FeedDates {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    const iterator = event.iterator();
    const dates: string[] = [];
    for (let next = iterator.next(); next && next.toString() <= to; next = iterator.next()) dates.push(next.toString());
    return { uid: event.uid, dates };
  });
  return byRecord(events, from, to);
}

/** A date node-ical gives for a DATE value: local midnight in the process's zone, or UTC midnight, by zone. */
const localDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** node-ical: its parsed VEVENTs, each one's rrule object asked for the window (a day wider, then cut). */
export function nodeIcalExpansion(text: string, from: string, to: string): FeedDates {
  const [after, before] = [new Date(`${addDays(from, -1)}T00:00:00Z`), new Date(`${addDays(to, 1)}T23:59:59Z`)];
  const events = Object.values(nodeIcal.sync.parseICS(text))
    .filter((item): item is VEvent => item?.type === 'VEVENT')
    .map((event) => ({
      uid: event.uid,
      dates: (event.rrule ? event.rrule.between(after, before, true) : [event.start]).map(localDay),
    }));
  return byRecord(events, from, to);
}

/** rrule: each VEVENT's UID, DTSTART;VALUE=DATE and RRULE lines (unfolded), expanded as a UTC rule. */
export function rruleExpansion(text: string, from: string, to: string): FeedDates {
  const unfolded = text.replace(/\r?\n[ \t]/g, '');
  const events = unfolded
    .split('BEGIN:VEVENT')
    .slice(1)
    .map((block) => {
      const line = (pattern: RegExp) => pattern.exec(block)?.[1];
      const start = line(/^DTSTART;VALUE=DATE:(\d{8})\r?$/m)!;
      const rule = line(/^RRULE:(.+?)\r?$/m);
      const startDay = `${start.slice(0, 4)}-${start.slice(4, 6)}-${start.slice(6)}`;
      if (!rule) return { uid: line(/^UID:(.+?)\r?$/m)!, dates: [startDay] };
      const expanded = rrulestr(`DTSTART:${start}T000000Z\nRRULE:${rule}`).between(
        new Date(`${from}T00:00:00Z`),
        new Date(`${to}T00:00:00Z`),
        true,
      );
      return { uid: line(/^UID:(.+?)\r?$/m)!, dates: expanded.map((date) => date.toISOString().slice(0, 10)) };
    });
  return byRecord(events, from, to);
}

export const ENGINES = { 'ical.js': icalJsExpansion, 'node-ical': nodeIcalExpansion, rrule: rruleExpansion } as const;
