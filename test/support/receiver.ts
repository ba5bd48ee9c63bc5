import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** The path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback that records what arrives and answers with the status it is told. */
export class Receiver {
  readonly received: ReceivedRequest[] = [];
  /** Status for the next requests; one per request from the front of `script`, then `status`. */
  status = 200;
  script: number[] = [];
  /** Milliseconds to wait before answering (a slow receiver). */
  delayMs = 0;
  /** The body of every answer. */
  answerBody = 'received';
  /** When set, every answer is a 302 to this address. */
  redirectTo: string | null = null;
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.received.push({
          method: req.method!,
          url: req.url!,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const status = this.redirectTo ? 302 : (this.script.shift() ?? this.status);
        const headers = this.redirectTo ? { location: this.redirectTo } : {};
        setTimeout(
          () => res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(this.answerBody),
          this.delayMs,
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves once `count` requests have arrived in all; fails after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${this.received.length}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return this.received;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
