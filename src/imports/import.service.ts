import type { Readable } from 'node:stream';

import type { AccountSources } from '../exports/account-export.service';
import type { Caller } from '../platform/caller';
import type { Transactions } from '../platform/db/data-source';
import { AppError, type FieldErrors } from '../platform/errors';
import { definedOnly } from '../platform/objects';
import type { ProfileService } from '../settings/profile.service';
import type { NewRecord } from '../subscriptions/subscription.service';
import { peek } from './file-reading';
import type { ImportRepository } from './import.repository';
import { type ImportMatch, type LinkKind, NameIndex, type ResolvedRow } from './import-resolution';
import type { ImportRow } from './import-row';
import type { DateOrder } from './import-values';
import { type ColumnMapping, csvRows, wallosRows } from './loose-formats';
import { type AccountParts, readAccountDocument } from './subledger-format';

export type ImportFormat = 'wallos' | 'csv' | 'subledger';

export interface ImportOptions {
  format: ImportFormat;
  /** Answer what would happen, row by row, and change nothing. */
  dryRun: boolean;
  /** Import the rows that pass and report the others, instead of refusing the whole file. */
  skipRefused: boolean;
  /** The currency of prices that name none, and of ambiguous symbols ($, ¥, kr); the user's base currency by default. */
  currency?: string;
  dateOrder?: DateOrder;
  mapping?: ColumnMapping;
}

export type ImportOutcome = 'WOULD_CREATE' | 'CREATED' | 'REFUSED';

export interface ImportRowReport {
  line: number;
  name: string;
  outcome: ImportOutcome;
  recordId: number | null;
  matches: ImportMatch[];
  notes: string[];
  problems: FieldErrors;
}

export interface ImportReport {
  format: ImportFormat;
  dryRun: boolean;
  total: number;
  created: number;
  refused: number;
  rows: ImportRowReport[];
  /** A Subledger export's webhook endpoints, made anew: their new signing secrets, shown this once. */
  webhookEndpoints: Array<{ id: number; url: string; secret: string }>;
}

/** The services an import writes through: the same rules as every other write. */
export interface ImportTargets extends AccountSources {
  profile: ProfileService;
}

/** Rows per import: far more than any household's records, few enough for one transaction and one report. */
const MAX_ROWS = 50_000;

const hasProblems = (row: ResolvedRow) => Object.keys(row.problems).length > 0;

/**
 * Imports records from another tracker's export, a spreadsheet's CSV or a Subledger account export: the file
 * is parsed as it streams in, each row is checked against the account (what it matches, what it would make,
 * why it is refused), and a real run writes every accepted row in one transaction through createMany (one
 * event and the reminders of each record, as any create).
 */
export class ImportService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repository: ImportRepository,
    private readonly targets: ImportTargets,
  ) {}

  async import(caller: Caller, file: Readable, options: ImportOptions): Promise<ImportReport> {
    const peeked = await peek(file);
    const names = await this.repository.accountNames(caller.userId);
    const reading = { currency: options.currency?.toUpperCase() ?? names.baseCurrency, dateOrder: options.dateOrder };
    let rows: ImportRow[] = [];
    let parts: AccountParts | null = null;
    if (options.format === 'subledger') ({ rows, parts } = await readAccountDocument(peeked));
    else {
      for await (const row of options.format === 'wallos'
        ? wallosRows(peeked, reading)
        : csvRows(peeked, reading, options.mapping)) {
        if (rows.push(row) > MAX_ROWS) break;
      }
    }
    if (rows.length > MAX_ROWS)
      throw AppError.badInput(`An import takes at most ${MAX_ROWS.toLocaleString('en')} rows; split the file.`);

    const products = await this.repository.products(
      caller.userId,
      [...new Set(rows.map((row) => row.name).filter((name) => name !== ''))],
      rows.flatMap((row) => (row.restore?.productId ? [row.restore.productId] : [])),
    );
    const index = new NameIndex(names, products, new Map((parts?.alerts ?? []).map((alert) => [alert.id, alert.name])));
    const resolved = rows.map((row) => index.resolve(row));
    refuseOrphanAddons(resolved);
    const refused = resolved.filter(hasProblems);
    const report = (
      outcomeOf: (row: ResolvedRow) => [ImportOutcome, number | null],
      endpoints: ImportReport['webhookEndpoints'] = [],
    ): ImportReport => ({
      format: options.format,
      dryRun: options.dryRun,
      total: resolved.length,
      created: options.dryRun ? 0 : resolved.length - refused.length,
      refused: refused.length,
      rows: resolved.map((row) => {
        const [outcome, recordId] = outcomeOf(row);
        return {
          line: row.row.line,
          name: row.row.name,
          outcome,
          recordId,
          matches: row.matches,
          notes: row.row.notes,
          problems: row.problems,
        };
      }),
      webhookEndpoints: endpoints,
    });
    if (options.dryRun) return report((row) => [hasProblems(row) ? 'REFUSED' : 'WOULD_CREATE', null]);
    if (refused.length > 0 && !options.skipRefused) {
      const errors = Object.fromEntries(
        refused.slice(0, 100).map((row) => [`line ${row.row.line}`, Object.values(row.problems).flat()]),
      );
      throw AppError.badInput(
        `${refused.length} of ${resolved.length} rows are refused, so nothing was imported: fix them, or import with skipRefused.`,
        errors,
      );
    }
    const accepted = resolved.filter((row) => !hasProblems(row));
    const { recordIds, endpoints } = await this.transactions.transaction(() => this.write(caller, accepted, parts));
    return report((row) => (hasProblems(row) ? ['REFUSED', null] : ['CREATED', recordIds.get(row)!]), endpoints);
  }

  /** Every accepted row written, with what it links and (from a Subledger export) the account's other parts. */
  private async write(caller: Caller, rows: ResolvedRow[], parts: AccountParts | null) {
    const alertIds = parts ? await this.restoreParts(caller, parts) : new Map<number, number>();
    // The links there are now (a Subledger export's were just made), and those this import makes, by name.
    const existing = new NameIndex(await this.repository.accountNames(caller.userId), []);
    const made: Record<LinkKind, Map<string, number>> = {
      category: new Map(),
      folder: new Map(),
      paymentMode: new Map(),
    };
    const { categories, folders, paymentModes } = this.targets;
    for (const row of rows) {
      for (const [kind, service] of [
        ['category', categories],
        ['folder', folders],
        ['paymentMode', paymentModes],
      ] as const) {
        const name = row.pending[kind];
        if (name === undefined) continue;
        const key = name.toLowerCase();
        const id = existing.find(kind, name)?.id ?? made[kind].get(key) ?? (await service.create(caller, { name })).id;
        made[kind].set(key, id);
        Object.assign(row.input, { [`${kind}Id`]: id });
      }
      if (row.row.restore && row.input.alertId)
        row.input.alertId = alertIds.get(row.input.alertId) ?? row.input.alertId;
    }

    const recordIds = new Map<ResolvedRow, number>();
    const byFileId = new Map<number, number>();
    const create = async (batch: ResolvedRow[], mainOf: (row: ResolvedRow) => number | undefined) => {
      const records: NewRecord[] = batch.map((row) => ({
        input: row.input,
        createdAt: row.row.restore?.createdAt ?? undefined,
        mainRecordId: mainOf(row),
        extraAlertIds: row.row.restore?.alertIds.slice(1).map((id) => alertIds.get(id) ?? id),
      }));
      const created = await this.targets.subscriptions.createMany(caller, records);
      batch.forEach((row, index) => {
        recordIds.set(row, created[index].id);
        if (row.row.restore) byFileId.set(row.row.restore.id, created[index].id);
      });
    };
    // In the file's order, so the records' ids keep it: runs of main records, then of add-ons (which need their main record's new id).
    const isAddon = (row: ResolvedRow) => Boolean(row.row.restore?.mainId);
    for (let start = 0; start < rows.length;) {
      let end = start + 1;
      while (end < rows.length && isAddon(rows[end]) === isAddon(rows[start])) end += 1;
      await create(rows.slice(start, end), (row) =>
        isAddon(row) ? byFileId.get(row.row.restore!.mainId!) : undefined,
      );
      start = end;
    }
    await this.restoreMoney(caller, rows, parts, alertIds, byFileId);
    // Endpoints come last: the import's own events are not sent to them.
    const endpoints = [];
    for (const endpoint of parts?.webhookEndpoints ?? []) {
      const { endpoint: created, secret } = await this.targets.endpoints.create(caller, {
        url: endpoint.url,
        events: endpoint.events,
      });
      if (!endpoint.enabled) await this.targets.endpoints.update(caller, created.id, { enabled: false });
      endpoints.push({ id: created.id, url: created.url, secret });
    }
    return { recordIds, endpoints };
  }

  /**
   * A Subledger export's money parts, once its records are made: their price histories and settled payments,
   * the budgets (their categories and alerts as made here), and the household with the records' sharing.
   */
  private async restoreMoney(
    caller: Caller,
    rows: ResolvedRow[],
    parts: AccountParts | null,
    alertIds: Map<number, number>,
    byFileId: Map<number, number>,
  ) {
    const { subscriptions, ledger, spending, households } = this.targets;
    const restored = rows.flatMap(({ row }) =>
      row.restore ? [{ line: row.line, id: byFileId.get(row.restore.id)!, restore: row.restore }] : [],
    );
    for (const { id, restore } of restored)
      if (restore.priceHistory.length > 0) await subscriptions.restorePriceSteps(caller, id, restore.priceHistory);
    await ledger.restore(
      caller,
      restored.flatMap(({ id, restore }) => restore.payments.map((payment) => ({ ...payment, subscription_id: id }))),
    );
    if (!parts) return;
    const names = await this.repository.accountNames(caller.userId);
    for (const budget of parts.budgets) {
      const fileCategory = parts.categories.find((category) => category.id === budget.categoryId);
      const categoryId = fileCategory
        ? (names.categories.find(
            (category) => category.own && category.name.toLowerCase() === fileCategory.name.toLowerCase(),
          )?.id ?? null)
        : budget.categoryId;
      const alertId = budget.alertId === null ? null : (alertIds.get(budget.alertId) ?? budget.alertId);
      await spending.setBudget(caller, { amount: budget.amount, categoryId, alertId });
    }
    if (!parts.household) return;
    const members = await households.restore(caller, parts.household);
    for (const { line, id, restore } of restored) {
      if (!restore.sharing) continue;
      const { payer_member_id: payer, mode, shares } = restore.sharing;
      const sharing = {
        payerId: members.get(payer) ?? 0,
        mode,
        shares: shares.map((share) => ({ memberId: members.get(share.member_id) ?? 0, value: share.value })),
      };
      await households.share(caller, id, sharing).catch((error: unknown) => {
        // The whole import rolls back; the line says which record's split the file got wrong.
        throw error instanceof AppError
          ? new AppError(error.code, `line ${line}: ${error.message}`, error.fieldErrors)
          : error;
      });
    }
  }

  /**
   * A Subledger export's account parts: profile (base currency and zone), settings, and its folders, tags,
   * payment methods, categories and alert definitions (a name the account has already is that row).
   * Answers the new id of each of the file's alert definitions.
   */
  private async restoreParts(caller: Caller, parts: AccountParts): Promise<Map<number, number>> {
    const { profile, settings, folders, tags, paymentModes, categories, alerts } = this.targets;
    if (parts.profile)
      await profile.update(caller, { baseCurrency: parts.profile.baseCurrency, timezone: parts.profile.timezone });
    // The settings the file gives, by name: the caller's own row is the one written, whatever else the file's object holds.
    const { autoDetectSubscriptions, browserNotifications, notifyBefore } = parts.settings ?? {};
    const change = definedOnly({ autoDetectSubscriptions, browserNotifications, notifyBefore });
    if (Object.keys(change).length > 0) await settings.update(caller, change);
    const names = await this.repository.accountNames(caller.userId);
    const missing = (existing: Array<{ name: string }>, name: string) =>
      !existing.some((row) => row.name.toLowerCase() === name.toLowerCase());
    for (const folder of parts.folders) {
      if (missing(names.folders, folder.name))
        await folders.create(caller, { name: folder.name, color: folder.color, isDefault: folder.isDefault ? 1 : 0 });
    }
    for (const tag of parts.tags) if (missing(names.tags, tag.name)) await tags.create(caller, { name: tag.name });
    for (const mode of parts.paymentModes)
      if (missing(names.paymentModes, mode.name)) await paymentModes.create(caller, { name: mode.name });
    const own = names.categories.filter((category) => category.own);
    for (const category of parts.categories)
      if (missing(own, category.name)) await categories.create(caller, { name: category.name });
    const alertIds = new Map<number, number>();
    for (const alert of parts.alerts) {
      const created = await alerts.create(caller, {
        alertName: alert.name,
        timePeriod: alert.timePeriod,
        timeCycle: alert.timeCycle,
        time: alert.time,
        timezone: alert.timezone,
        alertCondition: alert.condition,
        alertType: alert.channel,
        alertContact: alert.contact,
        alertSubsType: alert.subjects,
      });
      alertIds.set(alert.id, created.id);
    }
    return alertIds;
  }
}

/** An add-on whose main record is not imported with it has nothing to hang from. */
function refuseOrphanAddons(rows: ResolvedRow[]): void {
  const accepted = new Set(
    rows
      .filter((row) => !hasProblems(row) && row.row.restore && !row.row.restore.mainId)
      .map((row) => row.row.restore!.id),
  );
  for (const row of rows) {
    const mainId = row.row.restore?.mainId;
    if (mainId && !accepted.has(mainId))
      (row.problems.sub_id ??= []).push(`The add-on's main record ${mainId} is not imported with it.`);
  }
}
