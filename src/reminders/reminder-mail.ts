import type { Transporter } from 'nodemailer';

import type { NotificationMessage } from '../notifications/notification-message';
import type { ReminderKind } from './reminder-schedule';

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
    const amount = `${message.amount} ${message.currency}`;
    const { subject, text } = {
      payment: {
        subject: `${message.productName}: ${amount} is due on ${message.date}`,
        text: `Reminder: your ${message.productName} payment of ${amount} is due on ${message.date}.`,
      },
      refund: {
        subject: `${message.productName}: the refund window closes on ${message.date}`,
        text: `Reminder: the refund window of your ${message.productName} purchase (${amount}) closes on ${message.date}.`,
      },
      contract_notice: {
        subject: `${message.productName}: the last day to cancel is ${message.date}`,
        text: `Reminder: ${message.date} is the last day to give notice on your ${message.productName} contract (${amount}) before it renews.`,
      },
    }[message.kind];
    await this.sendText(message.to, subject, text);
  }

  /** A notification target's message (mailto://); answers the SMTP server's reply. */
  sendNotification(to: string[], message: NotificationMessage): Promise<string> {
    return this.sendText(to, message.title, [message.body, message.link].filter(Boolean).join('\n\n'));
  }

  /** A plain-text message (with its HTML part); answers the SMTP server's reply. */
  async sendText(to: string | string[], subject: string, text: string): Promise<string> {
    const info = (await this.transport.sendMail({ from: this.from, to, subject, text, html: htmlOf(text) })) as {
      response?: string;
    };
    return info.response ?? '';
  }

  close(): void {
    this.transport.close();
  }
}

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const htmlOf = (text: string) =>
  `<p>${escape(text).replace(/\n/g, '<br>')}</p><p style="color:#666">Sent by Subledger.</p>`;
