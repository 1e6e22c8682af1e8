import type { Metric, MetricValueWithName, Registry } from 'prom-client';

/**
 * A Prometheus histogram that counts into plain numbers, read only when scraped. prom-client's own
 * `Histogram` checks and hashes the label values on every `observe`, even through a child made by
 * `labels()` (which also allocates a closure per call): with every store call timed, that was a cost on
 * the request path. This one is registered in the same registry and printed by it, in the same form
 * (`_bucket` per `le` and `+Inf`, cumulative; `_sum`; `_count`; one series per label set observed).
 */
export class BucketHistogram {
  readonly type = 'histogram';
  /** How prom-client's cluster support merges it across workers, as for its own histograms. */
  readonly aggregator = 'sum';
  private readonly children: BucketCounts[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly upperBounds: readonly number[],
    registry: Registry,
  ) {
    // prom-client prints any object with its metrics' `get()`; its types list only its own classes.
    registry.registerMetric(this as unknown as Metric);
  }

  /** The counts of one label set (values in the order of the label names); make it once and keep it. */
  child(...labelValues: string[]): BucketCounts {
    if (labelValues.length !== this.labelNames.length) {
      throw new Error(`${this.name} has the labels ${this.labelNames.join(', ')}: got ${labelValues.length} values`);
    }
    const labels: Record<string, string> = {};
    this.labelNames.forEach((name, i) => (labels[name] = labelValues[i]!));
    const counts = new BucketCounts(this.upperBounds, labels);
    this.children.push(counts);
    return counts;
  }

  /** What prom-client's registry prints (the shape of its own metrics' `get()`). */
  get(): { name: string; help: string; type: 'histogram'; values: MetricValueWithName<string>[]; aggregator: 'sum' } {
    const values: MetricValueWithName<string>[] = [];
    for (const child of this.children) {
      if (child.count === 0) continue;
      let cumulative = 0;
      this.upperBounds.forEach((bound, i) => {
        cumulative += child.buckets[i]!;
        values.push({ labels: { le: bound, ...child.labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...child.labels }, value: child.count, metricName: `${this.name}_bucket` });
      values.push({ labels: child.labels, value: child.sum, metricName: `${this.name}_sum` });
      values.push({ labels: child.labels, value: child.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: 'histogram', values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const child of this.children) child.reset();
  }
}

export class BucketCounts {
  /** Observations per bucket (not cumulative); one above the last bound count only in `count`. */
  readonly buckets: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    private readonly upperBounds: readonly number[],
    readonly labels: Readonly<Record<string, string>>,
  ) {
    this.buckets = new Float64Array(upperBounds.length);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
    const bounds = this.upperBounds;
    for (let i = 0; i < bounds.length; i += 1) {
      if (value <= bounds[i]!) {
        this.buckets[i]! += 1;
        break;
      }
    }
    this.sum += value;
    this.count += 1;
  }

  reset(): void {
    this.buckets.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}
