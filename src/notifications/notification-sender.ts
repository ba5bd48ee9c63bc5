import type { Config } from '../platform/config';
import type { SecretBox } from '../platform/secret-box';
import { sendOnce } from '../webhooks/http-post';
import { signWebhook } from '../webhooks/signature';
import type { NotificationMessage } from './notification-message';
import { parseTargetUrl } from './target-url';

/** Sends a mailto:// target's message through SMTP_URL; answers the server's reply. */
export interface NotificationMailer {
  sendNotification(to: string[], message: NotificationMessage): Promise<string>;
}

/** A target as its deliveries carry it: the sealed URL and (json://) signing secret. */
export interface SealedTarget {
  sealed_url: string;
  sealed_secret: string | null;
}

/** Sends one message to one notification target, as the service at the other end expects it. */
export class NotificationSender {
  constructor(
    private readonly box: SecretBox | null,
    private readonly config: Pick<Config, 'notifyApis' | 'webhookAllowPrivate'>,
    private readonly mailer: NotificationMailer | null,
  ) {}

  /** The service's status code and the start of its answer (an e-mail: the SMTP server's reply, and no code). */
  async send(
    target: SealedTarget,
    message: NotificationMessage,
    timeoutMs: number,
  ): Promise<{ statusCode: number | null; excerpt: string }> {
    if (!this.box) throw new Error('NOTIFY_SECRET_KEY is not set, so the target cannot be read');
    // Checked when the target was saved; the connection is checked again below, at connect time.
    const send = parseTargetUrl(this.box.open(target.sealed_url), true).send(message, this.config.notifyApis);
    if (send.kind === 'mail') {
      if (!this.mailer) throw new Error('mailto targets need SMTP_URL to be set on the server');
      return { statusCode: null, excerpt: await this.mailer.sendNotification(send.to, message) };
    }
    const headers = { ...send.headers };
    if (target.sealed_secret !== null) {
      const timestamp = Math.floor(Date.now() / 1000);
      Object.assign(headers, {
        'webhook-id': message.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(this.box.open(target.sealed_secret), message.id, timestamp, send.body),
      });
    }
    // The hosted services' addresses are the operator's; a self-hosted one's follow the webhook address rule.
    return sendOnce(send.url, headers, send.body, {
      timeoutMs,
      allowPrivate: send.configured || this.config.webhookAllowPrivate,
      method: send.method,
    });
  }
}
