/**
 * Bounds the distinct values of one metric label whose values clients choose (operation names, `@custom`
 * hosts): the first `maxValues` distinct values are kept as they are, later ones and over-long ones are
 * reported as `other`. A client sending a fresh operation name with every request then adds one series,
 * not millions.
 */
export const OVERFLOW_LABEL = 'other';

export class LabelCap {
  private readonly admitted = new Set<string>();

  constructor(
    private readonly maxValues: number,
    private readonly maxLength: number,
  ) {}

  /** `value` itself while it fits in the cap (the empty value always does), else `other`. */
  label(value: string): string {
    if (value === '' || this.admitted.has(value)) return value;
    if (value.length > this.maxLength || this.admitted.size >= this.maxValues) return OVERFLOW_LABEL;
    this.admitted.add(value);
    return value;
  }
}
