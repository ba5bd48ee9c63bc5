import type { AlertRepository } from '../alerts/alert.repository';
import type { Caller } from '../platform/caller';
import type { Config } from '../platform/config';
import { todayIn } from '../platform/dates';
import type { Transactions } from '../platform/db/data-source';
import { AppError } from '../platform/errors';
import { hasLength } from '../platform/objects';
import type { SecretBox } from '../platform/secret-box';
import { toRecord } from '../subscriptions/subscription.record';
import type { SubscriptionRepository } from '../subscriptions/subscription.repository';
import type { DeliveryRepository, DeliveryRow } from '../webhooks/delivery.repository';
import type { DeliveryService } from '../webhooks/delivery.service';
import { newEventId } from '../webhooks/outbox';
import { newEndpointSecret } from '../webhooks/signature';
import { reminderMessage } from './notification-message';
import type { NotificationTarget } from './notification-target.entity';
import type { NotificationTargetRepository } from './notification-target.repository';
import { parseTargetUrl } from './target-url';

export interface TargetInput {
  name?: string;
  url?: string;
}

/** Targets per user: plenty for every phone and chat of a household. */
const MAX_TARGETS = 50;

/**
 * The caller's notification targets: made from an Apprise-style URL (kept sealed, read back masked), set on
 * alert definitions, and tried with a test message through the delivery machinery.
 */
export class NotificationTargetService {
  constructor(
    private readonly transactions: Transactions,
    private readonly targets: NotificationTargetRepository,
    private readonly alerts: AlertRepository,
    private readonly config: Pick<Config, 'webhookAllowPrivate' | 'smtpUrl' | 'baseUrl'>,
    private readonly box: SecretBox | null,
    private readonly subscriptions: SubscriptionRepository,
    private readonly deliveries: DeliveryService,
    private readonly deliveryLog: DeliveryRepository,
  ) {}

  async list(caller: Caller): Promise<NotificationTarget[]> {
    return this.targets.ofUser(caller.userId);
  }

  /** A new target; a json:// target's signing secret is answered this once. */
  async create(
    caller: Caller,
    input: Required<TargetInput>,
  ): Promise<{ target: NotificationTarget; secret: string | null }> {
    return this.transactions.transaction(async () => {
      if ((await this.targets.count(caller.userId)) >= MAX_TARGETS) {
        throw new AppError('CONFLICT', `A user has at most ${MAX_TARGETS} notification targets.`);
      }
      const name = checkName(input.name);
      const sealed = this.sealed(input.url);
      const secret = sealed.scheme === 'json' ? newEndpointSecret() : null;
      const target = await this.targets.create({
        user: caller.userId,
        name,
        ...sealed,
        sealedSecret: secret === null ? null : this.box!.seal(secret),
      });
      return { target, secret };
    });
  }

  async update(caller: Caller, id: number, change: TargetInput): Promise<NotificationTarget> {
    return this.transactions.transaction(async () => {
      const target = await this.owned(caller, id);
      if (change.name !== undefined) target.name = checkName(change.name);
      if (change.url !== undefined) {
        const sealed = this.sealed(change.url);
        if (sealed.scheme !== target.scheme)
          throw AppError.field(
            'url',
            `The url must stay a ${target.scheme} URL; make a new target for another service.`,
          );
        Object.assign(target, sealed);
      }
      await this.targets.save(target);
      return target;
    });
  }

  async remove(caller: Caller, id: number): Promise<void> {
    if (!(await this.targets.remove(caller.userId, id))) throw AppError.notFound('Notification target');
  }

  /** The targets of the caller's an alert definition (theirs, or the system's) sends to; answers their ids. */
  async setAlertTargets(caller: Caller, alertId: number, targetIds: number[]): Promise<number[]> {
    const unique = [...new Set(targetIds)].sort((a, b) => a - b);
    return this.transactions.transaction(async () => {
      await this.usableAlert(caller, alertId);
      if ((await this.targets.count(caller.userId, unique)) !== unique.length) {
        throw AppError.field('target_ids', 'The selected target_ids do not exist.');
      }
      await this.targets.replaceForAlert(caller.userId, alertId, unique);
      return unique;
    });
  }

  /** The caller's targets an alert definition sends to. */
  async ofAlert(caller: Caller, alertId: number): Promise<number[]> {
    await this.usableAlert(caller, alertId);
    return this.targets.ofAlert(caller.userId, alertId);
  }

  /** A page of the deliveries to one of the caller's targets, newest first, with how many it has had. */
  async deliveryPage(
    caller: Caller,
    id: number,
    offset: number,
    limit: number,
  ): Promise<{ rows: DeliveryRow[]; total: number }> {
    const target = await this.owned(caller, id);
    const total = await this.targets.deliveryCount(caller.userId, target.id);
    const rows = limit === 0 ? [] : await this.deliveryLog.list(caller.userId, { offset, limit, targetId: target.id });
    return { rows, total };
  }

  /**
   * A sample reminder (the caller's first record, or a made-up one) sent to the target now through the delivery
   * machinery: answers its delivery after the first attempt (retried on the schedule if that failed).
   */
  async sendTest(caller: Caller, id: number): Promise<DeliveryRow> {
    const target = await this.owned(caller, id);
    const owner = (await this.subscriptions.ownerSettings(caller.userId))!;
    const row = await this.subscriptions.firstLive(caller.userId);
    const record = row ? toRecord(row, new Date()) : null;
    const today = todayIn(owner.timezone);
    const message = reminderMessage({
      id: 'test',
      test: true,
      kind: 'payment',
      date: record?.next_payment_date ?? today,
      today,
      record: record ?? { id: null, product_name: 'Your subscription', price: '9.99', price_type: owner.baseCurrency },
      country: owner.country,
      baseUrl: this.config.baseUrl,
    });
    const deliveryId = await this.deliveryLog.insertTest(caller.userId, newEventId(), target.id, message);
    await this.deliveries.attempt([{ deliveryId, attemptsMade: 0 }]);
    return (await this.deliveryLog.owned(caller.userId, deliveryId))!;
  }

  /** A target URL checked and sealed, with its scheme and masked form. */
  private sealed(url: string): Pick<NotificationTarget, 'scheme' | 'sealedUrl' | 'maskedUrl'> {
    const address = parseTargetUrl(url, this.config.webhookAllowPrivate);
    if (address.scheme === 'mailto' && !this.config.smtpUrl)
      throw AppError.field('url', 'mailto targets need SMTP_URL to be set on the server.');
    if (!this.box)
      throw new AppError(
        'CONFLICT',
        'Notification targets need NOTIFY_SECRET_KEY (at least 32 characters) set on the server; see the README.',
      );
    return { scheme: address.scheme, sealedUrl: this.box.seal(url.trim()), maskedUrl: address.masked };
  }

  /** The alert definition the caller may use (theirs, or the system's), else not found. */
  private async usableAlert(caller: Caller, alertId: number): Promise<void> {
    if ((await this.alerts.usableDefinitions(caller.userId, [alertId])).length === 0) throw AppError.notFound('Alert');
  }

  private async owned(caller: Caller, id: number): Promise<NotificationTarget> {
    const target = await this.targets.own(caller.userId, id);
    if (!target) throw AppError.notFound('Notification target');
    return target;
  }
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!hasLength(trimmed, 1, 100)) throw AppError.field('name', 'The name must be from 1 to 100 characters.');
  return trimmed;
}
