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
