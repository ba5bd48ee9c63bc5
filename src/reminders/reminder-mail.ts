import type { Transporter } from 'nodemailer';
import type { ReminderKind } from './reminder-schedule';
import type { NotificationMessage } from '../notifications/notification-message';

export interface ReminderMessage {
  to: string;
  productName: string;
  /** Decimal string. */
  amount: string;
  currency: string;
  kind: ReminderKind;
  date: string;
}

/** Sends reminder e-mails through SMTP_URL, with a plain-text and an HTML part. */
export class ReminderMailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    // Loaded only where SMTP is configured.
    const nodemailer = require('nodemailer') as typeof import('nodemailer');
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: ReminderMessage): Promise<void> {
    const what = message.kind === 'payment' ? `${message.amount} ${message.currency} is due` : 'the refund window closes';
    const subject = `${message.productName}: ${what} on ${message.date}`;
    const text =
      message.kind === 'payment'
        ? `Reminder: your ${message.productName} payment of ${message.amount} ${message.currency} is due on ${message.date}.`
        : `Reminder: the refund window of your ${message.productName} purchase (${message.amount} ${message.currency}) closes on ${message.date}.`;
    await this.transport.sendMail({ from: this.from, to: message.to, subject, text, html: htmlOf(text) });
  }

  /** A notification target's message (mailto://); answers the SMTP server's reply. */
  async sendNotification(to: string[], message: NotificationMessage): Promise<string> {
    const text = [message.body, message.link].filter(Boolean).join('\n\n');
    const info = (await this.transport.sendMail({ from: this.from, to, subject: message.title, text, html: htmlOf(text) })) as { response?: string };
    return info.response ?? '';
  }

  close(): void {
    this.transport.close();
  }
}

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const htmlOf = (text: string) => `<p>${escape(text).replace(/\n/g, '<br>')}</p><p style="color:#666">Sent by Subledger.</p>`;
