import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one app instance (its own registry, so several instances can share a process). */
export class Metrics {
  readonly registry = new Registry();
  private readonly requestDuration: Histogram<'method' | 'route' | 'status'>;

  /**
   * `deliveryCounts`: outbound webhook deliveries per status, from the delivery log; `ratesHealth`: the age of
   * the exchange rates in days and whether their last refresh failed.
   */
  constructor(
    deliveryCounts: () => Promise<Record<string, number>>,
    ratesHealth: () => Promise<{ ageDays: number | null; failing: boolean }>,
  ) {
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
    new Gauge({
      name: 'exchange_rates_age_days',
      help: 'Days since the as-of date of the newest exchange rate',
      registers: [this.registry],
      async collect() {
        const { ageDays } = await ratesHealth();
        if (ageDays !== null) this.set(ageDays);
      },
    });
    new Gauge({
      name: 'exchange_rates_refresh_failing',
      help: '1 when the last scheduled exchange-rate refresh failed (the old rates stay), else 0',
      registers: [this.registry],
      async collect() {
        this.set((await ratesHealth()).failing ? 1 : 0);
      },
    });
  }

  /** Times every request, labelled by its route pattern (never the raw path, which would explode labels). */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const stop = this.requestDuration.startTimer();
      res.on('finish', () => {
        const route = req.route?.path
          ? `${req.baseUrl}${String(req.route.path)}`
          : req.path.startsWith('/graphql')
            ? '/graphql'
            : 'unmatched';
        stop({ method: req.method, route, status: String(res.statusCode) });
      });
      next();
    };
  }
}
