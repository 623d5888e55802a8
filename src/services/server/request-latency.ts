import type { Metric, Registry } from 'prom-client';

/** One (method, status) series: observations per bucket (not cumulative), their sum and count. */
interface Series {
  labels: { method: string; status: string };
  counts: number[];
  sum: number;
  count: number;
}

/** Methods kept as a label value; any other is counted as `OTHER`, so a client cannot grow the series without bound. */
const METHODS = new Set(['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'OPTIONS']);

/**
 * The request latency histogram of `/metrics`, in prom-client's histogram format. Each request
 * costs a Map lookup and a bucket search: prom-client's own Histogram validates and hashes the
 * label object on every observation, a measurable share of a cache GET.
 */
export class RequestLatency {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Map<number, Series>>();
  /** Every series in the order it first appeared (prom-client's order). */
  private readonly ordered: Series[] = [];

  constructor(readonly name: string, readonly help: string, private readonly buckets: readonly number[]) {}

  register(registry: Registry): void {
    registry.registerMetric(this as unknown as Metric);
  }

  observe(method: string, status: number, seconds: number): void {
    const m = METHODS.has(method) ? method : 'OTHER';
    let byStatus = this.series.get(m);
    if (!byStatus) this.series.set(m, (byStatus = new Map()));
    let s = byStatus.get(status);
    if (!s) {
      s = { labels: { method: m, status: String(status) }, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      byStatus.set(status, s);
      this.ordered.push(s);
    }
    const b = this.buckets.findIndex((upper) => seconds <= upper);
    if (b >= 0) s.counts[b]++;
    s.sum += seconds;
    s.count++;
  }

  /** What prom-client's registry prints: cumulative `_bucket` values, `+Inf`, `_sum` and `_count` per series. */
  async get() {
    const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
    for (const s of this.ordered) {
      let cumulative = 0;
      this.buckets.forEach((upper, i) => {
        cumulative += s.counts[i];
        values.push({ labels: { le: upper, ...s.labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...s.labels }, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.series.clear();
    this.ordered.length = 0;
  }
}
