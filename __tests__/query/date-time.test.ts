import { isStoredForm, parseDateTime } from '../../src/query/date-time.js';

/** `DateTime` text as Dgraph's `types.ParseTime` reads it → the stored ISO-8601 UTC form, or what is wrong. */

describe('parseDateTime accepts the forms Dgraph reads', () => {
  test.each<[string, string, string]>([
    ['a year: its start', '2026', '2026-01-01T00:00:00.000Z'],
    ['a month: its start', '2026-02', '2026-02-01T00:00:00.000Z'],
    ['the first month', '2026-01', '2026-01-01T00:00:00.000Z'],
    ['the last month', '2026-12', '2026-12-01T00:00:00.000Z'],
    ['a date: its start', '2026-03-15', '2026-03-15T00:00:00.000Z'],
    ['the first day of a month', '2026-05-01', '2026-05-01T00:00:00.000Z'],
    ['the last day of a 31-day month', '2026-01-31', '2026-01-31T00:00:00.000Z'],
    ['the last day of a 30-day month', '2026-04-30', '2026-04-30T00:00:00.000Z'],
    ['February 28 of a common year', '2026-02-28', '2026-02-28T00:00:00.000Z'],
    ['February 29 of a year divisible by 4', '2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['February 29 of a year divisible by 400', '2000-02-29', '2000-02-29T00:00:00.000Z'],
    ['January 31 of a leap year', '2024-01-31', '2024-01-31T00:00:00.000Z'],
    ['December 31 of a leap year', '2024-12-31', '2024-12-31T00:00:00.000Z'],
    ['RFC 3339 in UTC', '2026-01-31T12:34:56Z', '2026-01-31T12:34:56.000Z'],
    ['without an offset: UTC', '2026-01-31T12:34:56', '2026-01-31T12:34:56.000Z'],
    ['the last second of a day', '2026-01-31T23:59:59Z', '2026-01-31T23:59:59.000Z'],
    ['midnight', '2026-01-31T00:00:00Z', '2026-01-31T00:00:00.000Z'],
    ['a fraction of one digit is tenths', '2026-01-31T12:00:00.5Z', '2026-01-31T12:00:00.500Z'],
    ['a fraction of two digits is hundredths', '2026-01-31T12:00:00.05Z', '2026-01-31T12:00:00.050Z'],
    ['a fraction of nine digits is cut to milliseconds', '2026-01-31T12:00:00.123456789Z', '2026-01-31T12:00:00.123Z'],
    ['a fraction without an offset', '2026-01-31T12:00:00.250', '2026-01-31T12:00:00.250Z'],
    ['a positive offset is subtracted', '2026-01-31T13:30:00+01:30', '2026-01-31T12:00:00.000Z'],
    ['a negative offset is added', '2026-01-31T10:15:00-01:45', '2026-01-31T12:00:00.000Z'],
    ['a zero offset', '2026-01-31T12:00:00+00:00', '2026-01-31T12:00:00.000Z'],
    ['the largest offset', '2026-01-31T23:59:00+23:59', '2026-01-31T00:00:00.000Z'],
    ['an offset that crosses into the previous day', '2026-03-01T00:30:00+01:00', '2026-02-28T23:30:00.000Z'],
    ['an offset that crosses into the next year', '2026-12-31T23:00:00-02:00', '2027-01-01T01:00:00.000Z'],
    ['a year below 100 stays as written', '0099-03-01', '0099-03-01T00:00:00.000Z'],
  ])('%s: %s → %s', (_name, text, iso) => {
    expect(parseDateTime(text)).toEqual({ ok: true, iso });
  });
});

describe('parseDateTime refuses fields out of range instead of rolling them over', () => {
  test.each<[string, string, string]>([
    ['month 00', '2026-00', 'month 00 is out of range (01-12)'],
    ['month 13', '2026-13-01', 'month 13 is out of range (01-12)'],
    ['day 00', '2026-01-00', 'day 00 is out of range (01-31 in 2026-01)'],
    ['day 32', '2026-01-32', 'day 32 is out of range (01-31 in 2026-01)'],
    ['April 31', '2026-04-31', 'day 31 is out of range (01-30 in 2026-04)'],
    ['February 29 of a common year', '2026-02-29T00:00:00Z', 'day 29 is out of range (01-28 in 2026-02)'],
    ['February 29 of a century not divisible by 400', '1900-02-29', 'day 29 is out of range (01-28 in 1900-02)'],
    ['February 30 of a leap year', '2024-02-30', 'day 30 is out of range (01-29 in 2024-02)'],
    ['hour 24', '2026-01-31T24:00:00Z', 'hour 24 is out of range (00-23)'],
    ['minute 60', '2026-01-31T12:60:00Z', 'minute 60 is out of range (00-59)'],
    ['second 60', '2026-01-31T12:00:60Z', 'second 60 is out of range (00-59)'],
    ['offset hour 24', '2026-01-31T12:00:00+24:00', 'offset hour 24 is out of range (00-23)'],
    ['offset minute 60', '2026-01-31T12:00:00-01:60', 'offset minute 60 is out of range (00-59)'],
  ])('%s: %s', (_name, text, problem) => {
    expect(parseDateTime(text)).toEqual({ ok: false, problem });
  });
});

describe('parseDateTime refuses other text, naming the forms', () => {
  const problem =
    'not a date-time; the forms are 2026-01-31T12:00:00Z (RFC 3339, optional fraction and ±hh:mm offset), 2026-01-31T12:00:00, 2026-01-31, 2026-01 or 2026';

  test.each<[string, string]>([
    ['words', 'yesterday'],
    ['the empty text', ''],
    ['a two-digit year', '26'],
    ['a one-digit month', '2026-1'],
    ['a one-digit day', '2026-01-1'],
    ['hours and minutes only', '2026-01-31T12:00Z'],
    ['a space instead of T', '2026-01-31 12:00:00'],
    ['a lower-case t', '2026-01-31t12:00:00Z'],
    ['an empty fraction', '2026-01-31T12:00:00.Z'],
    ['a fraction of ten digits', '2026-01-31T12:00:00.1234567890Z'],
    ['an offset without a colon', '2026-01-31T12:00:00+0100'],
    ['an offset of hours only', '2026-01-31T12:00:00+01'],
    ['a lower-case z', '2026-01-31T12:00:00z'],
    ['text before', ' 2026-01-31'],
    ['text after', '2026-01-31 '],
    ['a line after', '2026-01-31\n'],
  ])('%s: %j', (_name, text) => {
    expect(parseDateTime(text)).toEqual({ ok: false, problem });
  });
});

describe('isStoredForm: a valid text in the stored form, which parses to itself without the general parser', () => {
  test.each<[string, string, boolean]>([
    ['a stored value', '2026-01-01T00:00:00.000Z', true],
    ['the last millisecond of a year', '2026-12-31T23:59:59.999Z', true],
    ['February 29 of a leap year', '2024-02-29T12:00:00.000Z', true],
    ['year 0', '0000-01-01T00:00:00.000Z', true],
    ['year 9999', '9999-12-31T23:59:59.999Z', true],
    ['February 29 of a common year', '2026-02-29T00:00:00.000Z', false],
    ['February 29 of 1900', '1900-02-29T00:00:00.000Z', false],
    ['April 31', '2026-04-31T00:00:00.000Z', false],
    ['month 00', '2026-00-10T00:00:00.000Z', false],
    ['month 13', '2026-13-10T00:00:00.000Z', false],
    ['day 00', '2026-01-00T00:00:00.000Z', false],
    ['hour 24', '2026-01-01T24:00:00.000Z', false],
    ['minute 60', '2026-01-01T00:60:00.000Z', false],
    ['second 60', '2026-01-01T00:00:60.000Z', false],
    ['a letter among the digits', '2026-01-0aT00:00:00.000Z', false],
    ['a letter in the milliseconds', '2026-01-01T00:00:00.00xZ', false],
    ['a sign in the year', '-026-01-01T00:00:00.000Z', false],
    ['no milliseconds', '2026-01-01T00:00:00Z', false],
    ['two digits of milliseconds', '2026-01-01T00:00:00.00Z', false],
    ['an offset instead of Z', '2026-01-01T00:00:00.000+00:00', false],
    ['a lowercase z', '2026-01-01T00:00:00.000z', false],
    ['a space instead of T', '2026-01-01 00:00:00.000Z', false],
    ['slashes', '2026/01/01T00:00:00.000Z', false],
    ['a date only', '2026-01-01', false],
  ])('%s: %s → %s', (_name, text, stored) => {
    expect(isStoredForm(text)).toBe(stored);
    const parsed = parseDateTime(text);
    // What it parses to either way: the text itself, as Date reads and writes it, or a refusal.
    if (stored) expect(parsed).toEqual({ ok: true, iso: new Date(text).toISOString() });
    if (stored) expect(new Date(text).toISOString()).toBe(text);
    if (!stored && parsed.ok) expect(parsed.iso).not.toBe(text);
  });
});
