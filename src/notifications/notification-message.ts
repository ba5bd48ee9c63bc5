import ipaddr from 'ipaddr.js';

import type { ReminderKind } from '../alerts/alert.input';
import { epochDay } from '../platform/dates';
import { toMoneyString } from '../platform/money';
import { isPublicAddress } from '../platform/ssrf-guard';

/**
 * A reminder or a budget warning as notification targets send it (and the body of a json:// target's POST):
 * stored with its delivery when it fires, so every retry sends the same words.
 */
export type NotificationMessage = ReminderMessage | BudgetMessage;

interface MessageBase {
  /** Unique per message: a Matrix transaction id and a json:// target's webhook-id. */
  id: string;
  title: string;
  body: string;
  /** The record (or spending) in the dashboard, when BASE_URL is an address others can reach; else null. */
  link: string | null;
}

export interface ReminderMessage extends MessageBase {
  type: 'reminder' | 'test';
  reminder: { kind: ReminderKind; date: string; days_ahead: number };
  subscription: { id: number | null; product_name: string; price: string; currency: string };
}

/** A budget warning: next month's planned total over a monthly budget. */
export interface BudgetMessage extends MessageBase {
  type: 'budget';
  budget: BudgetWarningFacts;
}

/** What a budget warning says, in the user's base currency (decimal strings); also the budget.exceeded body. */
export interface BudgetWarningFacts {
  budget_id: number;
  /** null: the overall budget. */
  category_id: number | null;
  category_name: string | null;
  /** YYYY-MM: the month planned over the budget. */
  month: string;
  amount: string;
  planned: string;
  over_by: string;
  currency: string;
}

/** The message of a budget warning. */
export function budgetMessage(id: string, facts: BudgetWarningFacts, baseUrl: string): BudgetMessage {
  const what = facts.category_name === null ? 'Your monthly budget' : `Your ${facts.category_name} budget`;
  return {
    id,
    type: 'budget',
    title: `Subledger: ${facts.month} is over budget`,
    body: `${what} is ${facts.amount} ${facts.currency}; ${facts.month} plans ${facts.planned} ${facts.currency}, ${facts.over_by} over.`,
    link: isPublicBaseUrl(baseUrl) ? `${baseUrl}/#/spending` : null,
    budget: facts,
  };
}

export interface MessageFacts {
  id: string;
  test: boolean;
  kind: ReminderKind;
  /** The payment or refund date reminded of, and the owner's today when it fires. */
  date: string;
  today: string;
  record: { id: number | null; product_name: string; price: string; price_type: string };
  /** The owner's country (users.country): dates read as people there write them, in English. */
  country: string;
  baseUrl: string;
}

/** The message a reminder sends: product, amount with currency, the date in the owner's locale and how far ahead it is. */
export function reminderMessage(facts: MessageFacts): ReminderMessage {
  const { record, kind, date } = facts;
  const amount = `${toMoneyString(record.price)} ${record.price_type}`;
  const daysAhead = epochDay(date) - epochDay(facts.today);
  const when = `${localDate(date, facts.country)} (${daysAhead === 0 ? 'today' : daysAhead === 1 ? 'tomorrow' : daysAhead > 0 ? `in ${daysAhead} days` : `${-daysAhead} days ago`})`;
  const body = {
    payment: `${record.product_name}: ${amount} is due on ${when}.`,
    refund: `${record.product_name}: the refund window (${amount}) closes on ${when}.`,
    contract_notice: `${record.product_name}: the last day to cancel the contract (${amount}) is ${when}.`,
  }[kind];
  return {
    id: facts.id,
    type: facts.test ? 'test' : 'reminder',
    title: facts.test ? 'Subledger: test notification' : `Subledger reminder: ${record.product_name}`,
    body: facts.test ? `This is how reminders will read. ${body}` : body,
    link: record.id !== null && isPublicBaseUrl(facts.baseUrl) ? `${facts.baseUrl}/#/subscriptions/${record.id}` : null,
    reminder: { kind, date, days_ahead: daysAhead },
    subscription: {
      id: record.id,
      product_name: record.product_name,
      price: toMoneyString(record.price),
      currency: record.price_type,
    },
  };
}

/** `2027-03-01` as people in the country write it, in English (March 1, 2027 in the US; 1 March 2027 in Germany). */
export function localDate(date: string, country: string): string {
  const locale = /^[A-Z]{2}$/.test(country) ? `en-${country}` : 'en';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

/** Whether others can open links to this server: not localhost, a private address or a bare host name. */
function isPublicBaseUrl(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return isPublicAddress(host);
  return host.includes('.') && host !== 'localhost' && !host.endsWith('.localhost') && !host.endsWith('.local');
}
