import { Histogram, Registry } from 'prom-client';
import { BucketHistogram } from '../../src/observe/bucket-histogram.js';

/**
 * BucketHistogram counts without prom-client's per-observation label work; a scrape must read exactly what
 * prom-client's own Histogram gives for the same observations.
 */

const BOUNDS = [0.001, 0.01, 0.1, 1];

function both(labelNames: string[]) {
  const theirs = new Registry();
  const ours = new Registry();
  const histogram = new Histogram({ name: 'x_seconds', help: 'help "text"\\', labelNames, buckets: BOUNDS, registers: [theirs] });
  const bucketed = new BucketHistogram('x_seconds', 'help "text"\\', labelNames, BOUNDS, ours);
  return { theirs, ours, histogram, bucketed };
}

describe('BucketHistogram prints what prom-client Histogram prints', () => {
  it.each([
    { name: 'nothing observed', observations: [] as Array<[string[], number]> },
    { name: 'one value in each bucket, on a bound, and above the last', observations: [[['find'], 0.0005], [['find'], 0.001], [['find'], 0.05], [['find'], 1], [['find'], 7.5]] as Array<[string[], number]> },
    { name: 'two label sets, interleaved', observations: [[['find'], 0.002], [['count'], 0.2], [['find'], 0.0001], [['count'], 0.3]] as Array<[string[], number]> },
    { name: 'label values that need escaping', observations: [[['a "quoted" \\ value\nwith a line'], 0.02]] as Array<[string[], number]> },
    { name: 'zero and tiny values', observations: [[['find'], 0], [['find'], 1e-9]] as Array<[string[], number]> },
  ])('$name', async ({ observations }) => {
    const { theirs, ours, histogram, bucketed } = both(['method']);
    const children = new Map<string, ReturnType<BucketHistogram['child']>>();
    for (const [labels, value] of observations) {
      histogram.labels(...labels).observe(value);
      const key = labels.join('\0');
      if (!children.has(key)) children.set(key, bucketed.child(...labels));
      children.get(key)!.observe(value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('two labels, and a reset (no series until observed again)', async () => {
    const { theirs, ours, histogram, bucketed } = both(['operation_type', 'operation_name']);
    const child = bucketed.child('query', 'GetTask');
    histogram.labels('query', 'GetTask').observe(0.003);
    child.observe(0.003);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    theirs.resetMetrics();
    ours.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    histogram.labels('query', 'GetTask').observe(0.5);
    child.observe(0.5);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('refuses a child with the wrong number of label values, and a value that is not a finite number', () => {
    const { bucketed } = both(['method']);
    expect(() => bucketed.child('find', 'extra')).toThrow('x_seconds has the labels method: got 2 values');
    expect(() => bucketed.child('find').observe(Number.NaN)).toThrow(TypeError);
  });
});
