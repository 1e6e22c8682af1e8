import { DateTimeScalar } from '../../src/resolve/scalars.js';

function outcome(run: () => unknown): { value: unknown } | { error: string } {
  try {
    return { value: run() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * DateTime against a fixed table: Dgraph's forms (types.ParseTime: RFC 3339, the same without an offset,
 * a date, a month, a year), every field range checked as Go's parser checks it.
 */
describe('DateTime', () => {
  test.each<[string, string]>([
    ['2026-01-31T12:00:00.000Z', '2026-01-31T12:00:00.000Z'],
    ['2026-01-31T12:00:00Z', '2026-01-31T12:00:00.000Z'],
    ['2026-01-31T12:00:00.5Z', '2026-01-31T12:00:00.500Z'],
    ['2026-01-31T12:00:00.123456789Z', '2026-01-31T12:00:00.123Z'],
    ['2026-01-31T13:00:00+01:00', '2026-01-31T12:00:00.000Z'],
    ['2026-01-01T00:30:00-02:30', '2026-01-01T03:00:00.000Z'],
    ['2026-01-01T01:00:00+02:00', '2025-12-31T23:00:00.000Z'],
    ['2026-01-31T12:00:00', '2026-01-31T12:00:00.000Z'],
    ['2026-01-31', '2026-01-31T00:00:00.000Z'],
    ['2026-02', '2026-02-01T00:00:00.000Z'],
    ['2026', '2026-01-01T00:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2000-02-29', '2000-02-29T00:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', '2026-12-31T23:59:59.999Z'],
    ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
    ['0099-06-01', '0099-06-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59Z', '9999-12-31T23:59:59.000Z'],
  ])('%s → %s', (text, stored) => {
    expect(outcome(() => DateTimeScalar.parseValue(text))).toEqual({ value: stored });
  });

  const FORMS = '2026-01-31T12:00:00Z (RFC 3339, optional fraction and ±hh:mm offset), 2026-01-31T12:00:00, 2026-01-31, 2026-01 or 2026';
  test.each<[string, string]>([
    ['2026-02-30', 'day 30 is out of range (01-28 in 2026-02)'],
    ['2023-02-29T00:00:00Z', 'day 29 is out of range (01-28 in 2023-02)'],
    ['1900-02-29', 'day 29 is out of range (01-28 in 1900-02)'],
    ['2026-04-31T00:00:00Z', 'day 31 is out of range (01-30 in 2026-04)'],
    ['2026-01-00', 'day 00 is out of range (01-31 in 2026-01)'],
    ['2026-13-01', 'month 13 is out of range (01-12)'],
    ['2026-00', 'month 00 is out of range (01-12)'],
    ['2026-01-01T24:00:00Z', 'hour 24 is out of range (00-23)'],
    ['2026-01-01T24:00:00', 'hour 24 is out of range (00-23)'],
    ['2026-01-01T23:60:00Z', 'minute 60 is out of range (00-59)'],
    ['2026-01-01T23:59:60Z', 'second 60 is out of range (00-59)'],
    ['2026-01-01T00:00:00+24:00', 'offset hour 24 is out of range (00-23)'],
    ['2026-01-01T00:00:00+01:60', 'offset minute 60 is out of range (00-59)'],
    ['2026-01-01t00:00:00z', `not a date-time; the forms are ${FORMS}`],
    ['2026-01-01 00:00:00Z', `not a date-time; the forms are ${FORMS}`],
    ['2026-1-01', `not a date-time; the forms are ${FORMS}`],
    ['2026-01-31T12:00Z', `not a date-time; the forms are ${FORMS}`],
    ['2026-01-31T12', `not a date-time; the forms are ${FORMS}`],
    ['2026-01-31Z', `not a date-time; the forms are ${FORMS}`],
    ['2026-01-31T12:00:00.Z', `not a date-time; the forms are ${FORMS}`],
    ['Jan 31 2026', `not a date-time; the forms are ${FORMS}`],
    ['yesterday', `not a date-time; the forms are ${FORMS}`],
    ['', `not a date-time; the forms are ${FORMS}`],
  ])('%j is refused: %s', (text, problem) => {
    expect(outcome(() => DateTimeScalar.parseValue(text))).toEqual({ error: `DateTime cannot represent ${JSON.stringify(text)}: ${problem}` });
  });

  test('a number is refused; a Date serialises as UTC', () => {
    expect(outcome(() => DateTimeScalar.parseValue(1767182400000))).toEqual({ error: 'DateTime must be a string like "2026-01-31T12:00:00Z", got 1767182400000' });
    expect(DateTimeScalar.serialize(new Date('2026-01-31T12:00:00Z'))).toBe('2026-01-31T12:00:00Z');
  });

  /** Answers as Dgraph writes them (Go's time.RFC3339 in graphql/schema/completion.go): UTC, whole seconds. */
  test.each<[unknown, string]>([
    ['2026-01-31T12:00:00.000Z', '2026-01-31T12:00:00Z'],
    ['2026-01-31T12:00:00.500Z', '2026-01-31T12:00:00Z'],
    ['2026-12-31T23:59:59.999Z', '2026-12-31T23:59:59Z'],
    ['2026-01-31T13:00:00+01:00', '2026-01-31T12:00:00Z'],
    ['2000-01-01', '2000-01-01T00:00:00Z'],
    ['0099-06-01T00:00:00.000Z', '0099-06-01T00:00:00Z'],
    [new Date('2026-01-31T12:00:00.750Z'), '2026-01-31T12:00:00Z'],
  ])('%j is answered as %s', (value, answered) => {
    expect(DateTimeScalar.serialize(value)).toBe(answered);
  });
});
