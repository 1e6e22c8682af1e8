import { DateTimeScalar } from '../../src/resolve/scalars.js';

/** What DateTime gave before its shortcut for canonical text: the Date round trip, or an error. */
function throughDate(text: string): string {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new Error('not a date-time');
  return date.toISOString();
}

function outcome(run: () => unknown): { value?: unknown; fails?: true } {
  try {
    return { value: run() };
  } catch {
    return { fails: true };
  }
}

describe('DateTime', () => {
  it('gives for every text exactly what the Date round trip gives, canonical or not', () => {
    const texts = [
      '2026-01-31T12:00:00.000Z', '2026-01-31T12:00:00Z', '2026-01-31T12:00:00.5Z', '2026-01-31T13:00:00.000+01:00',
      '2024-02-29T00:00:00.000Z', '2023-02-29T00:00:00.000Z', '2000-02-29T23:59:59.999Z', '1900-02-29T00:00:00.000Z',
      '2026-04-31T00:00:00.000Z', '2026-12-31T23:59:59.999Z', '2026-13-01T00:00:00.000Z', '2026-00-10T00:00:00.000Z',
      '2026-01-00T00:00:00.000Z', '2026-01-01T24:00:00.000Z', '2026-01-01T23:60:00.000Z', '2026-01-01T23:59:60.000Z',
      '0000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z', '2026-01-01t00:00:00.000z',
      '2026-01-01 00:00:00.000Z', '2026-1-01T00:00:00.000Z', '2026-01-31T12:00:00.0a0Z', '20x6-01-31T12:00:00.000Z',
      '2026-01-31T12:0-:00.000Z', '2026-+1-31T12:00:00.000Z', 'yesterday', '',
    ];
    for (let day = 1; day <= 31; day++) {
      for (const month of ['01', '02', '04', '06', '09', '11']) texts.push(`2028-${month}-${String(day).padStart(2, '0')}T07:08:09.010Z`);
    }
    for (const text of texts) {
      expect({ text, ...outcome(() => DateTimeScalar.parseValue(text)) }).toEqual({ text, ...outcome(() => throughDate(text)) });
    }
  });
});
