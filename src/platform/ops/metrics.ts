import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one app instance (its own registry, so several instances can share a process). */
export class Metrics {
  readonly registry = new Registry();
  private readonly requestDuration: Histogram<'method' | 'route' | 'status'>;

  /** `deliveryCounts`: outbound webhook deliveries per status, from the delivery log. */
  constructor(deliveryCounts: () => Promise<Record<string, number>>) {
    collectDefaultMetrics({ register: this.registry });
    this.requestDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
    // Queue depth and delivery outcomes come from the delivery table, the one truth for both queue modes.
    new Gauge({
      name: 'webhook_deliveries',
      help: 'Outbound webhook deliveries by status (PENDING is the queue depth)',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        const counts = await deliveryCounts();
        this.reset();
        for (const status of ['PENDING', 'SUCCEEDED', 'FAILED']) this.set({ status }, counts[status] ?? 0);
      },
    });
  }

  /** Times every request, labelled by its route pattern (never the raw path, which would explode labels). */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const stop = this.requestDuration.startTimer();
      res.on('finish', () => {
        const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : req.path.startsWith('/graphql') ? '/graphql' : 'unmatched';
        stop({ method: req.method, route, status: String(res.statusCode) });
      });
      next();
    };
  }
}
