import { SMTPServer } from 'smtp-server';

/** An SMTP server on loopback that keeps every message it takes, and refuses (451) those `refuse` picks. */
export class FakeSmtp {
  readonly messages: string[] = [];
  /** Decides per message, by its recipients, whether to refuse it (and so have the sender retry). */
  refuse: (recipients: string[]) => boolean = () => false;
  port = 0;
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData: (stream, session, callback: (error?: Error | null) => void) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (this.refuse(session.envelope.rcptTo.map((recipient) => recipient.address))) {
          return callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
        }
        this.messages.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as { port: number }).port;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
