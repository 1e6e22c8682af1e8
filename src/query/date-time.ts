/**
 * `DateTime` text as Dgraph reads it (`types.ParseTime`): RFC 3339 (`2026-01-31T12:00:00Z`, a fraction of
 * a second and an offset `±hh:mm` allowed), the same without an offset (UTC), or only a date, a month or
 * a year (`2026-01-31`, `2026-01`, `2026`: the start of it, UTC). Go's parser refuses fields out of range,
 * so February 30, hour 24, minute 60 and second 60 are refused too, never rolled over. A value is stored
 * as `Date#toISOString()` (UTC, milliseconds), so string order is time order on every backend.
 */

const FORM = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export const DATE_TIME_FORMS = '2026-01-31T12:00:00Z (RFC 3339, optional fraction and ±hh:mm offset), 2026-01-31T12:00:00, 2026-01-31, 2026-01 or 2026';

export type DateTimeParse = { ok: true; iso: string } | { ok: false; problem: string };

const isLeapYear = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

function daysIn(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

const outOfRange = (what: string, value: string, range: string): DateTimeParse => ({ ok: false, problem: `${what} ${value} is out of range (${range})` });

/** The ISO-8601 UTC form of a DateTime text, or what is wrong with it. */
export function parseDateTime(text: string): DateTimeParse {
  if (isStoredForm(text)) return { ok: true, iso: text };
  const parts = FORM.exec(text);
  if (!parts) return { ok: false, problem: `not a date-time; the forms are ${DATE_TIME_FORMS}` };
  const [, yearText, monthText = '01', dayText = '01', hourText = '00', minuteText = '00', secondText = '00', fraction = '', zone = 'Z'] = parts;
  const year = Number(yearText);
  const month = Number(monthText);
  const day = Number(dayText);
  const hour = Number(hourText);
  const minute = Number(minuteText);
  const second = Number(secondText);
  if (month < 1 || month > 12) return outOfRange('month', monthText, '01-12');
  const days = daysIn(year, month);
  if (day < 1 || day > days) return outOfRange('day', dayText, `01-${days} in ${yearText}-${monthText}`);
  if (hour > 23) return outOfRange('hour', hourText, '00-23');
  if (minute > 59) return outOfRange('minute', minuteText, '00-59');
  if (second > 59) return outOfRange('second', secondText, '00-59');
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const offsetHours = Number(zone.slice(1, 3));
    const offsetMinutesPart = Number(zone.slice(4, 6));
    if (offsetHours > 23) return outOfRange('offset hour', zone.slice(1, 3), '00-23');
    if (offsetMinutesPart > 59) return outOfRange('offset minute', zone.slice(4, 6), '00-59');
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutesPart);
  }
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, leaves years 0-99 as they are.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute - offsetMinutes, second, Number(fraction.slice(0, 3).padEnd(3, '0')));
  return { ok: true, iso: date.toISOString() };
}

const ZERO = 0x30;

/** The number written by the `length` digits of `text` from `start`, or -1 if one is not a digit. */
function digitsAt(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Whether `text` is a valid DateTime already in the stored form (`YYYY-MM-DDTHH:MM:SS.sssZ`, what
 * `Date#toISOString()` writes for years 0-9999), which parses to itself: a client sending back what it
 * read, or a batch of objects made by a program, costs no regular expression and no Date per value.
 */
export function isStoredForm(text: string): boolean {
  if (text.length !== 24 || text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':' || text[19] !== '.' || text[23] !== 'Z') return false;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  if (year < 0 || digitsAt(text, 20, 3) < 0 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysIn(year, month) && hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;
}
