import { Long, ObjectId } from 'mongodb';
import { decodeDocument, encodeDocument } from '../../src/transfer/values';

/** The export line of a value, and the value it reads back as: exact for every type, plain JSON where JSON is exact. */

const roundTrips: Array<[string, unknown, string]> = [
  ['a string with any Unicode', 'a😀\u0000\ud800"\\\n\u2028', JSON.stringify('a😀\u0000\ud800"\\\n\u2028')],
  ['an Int at both ends', [-2147483648, 2147483647], '[-2147483648,2147483647]'],
  ['an Int64 at ±(2^53-1)', [-9007199254740991, 9007199254740991], '[-9007199254740991,9007199254740991]'],
  ['the largest and smallest floats', [1.7976931348623157e308, 5e-324, -1.7976931348623157e308], '[1.7976931348623157e+308,5e-324,-1.7976931348623157e+308]'],
  ['a float with a fraction', 0.1 + 0.2, '0.30000000000000004'],
  ['negative zero', -0, '{"$float":"-0"}'],
  ['NaN and the infinities (MongoDB can hold them)', [NaN, Infinity, -Infinity], '[{"$float":"NaN"},{"$float":"Infinity"},{"$float":"-Infinity"}]'],
  ['a bigint beyond 2^53', 9223372036854775807n, '{"$int64":"9223372036854775807"}'],
  ['the smallest int64', -9223372036854775808n, '{"$int64":"-9223372036854775808"}'],
  ['booleans and null', [true, false, null], '[true,false,null]'],
  ['a DateTime as Autograph stores it (text)', '2026-01-31T12:00:00.123Z', '"2026-01-31T12:00:00.123Z"'],
  ['nested objects and lists', { a: [{ b: [1, -0] }], c: {} }, '{"a":[{"b":[1,{"$float":"-0"}]}],"c":{}}'],
  ['an object with a key starting with $', { $set: 1, y: { $in: [-0] } }, '{"$object":{"$set":1,"y":{"$object":{"$in":[{"$float":"-0"}]}}}}'],
];

test.each(roundTrips)('%s', (_name, value, written) => {
  const line = encodeDocument({ _id: 'x', v: value });
  expect(line).toBe(`{"_id":"x","v":${written}}`);
  const back = decodeDocument(JSON.parse(line)).v;
  expect(back).toEqual(value);
  if (typeof value === 'number') expect(Object.is(back, value)).toBe(true);
});

test('BSON values another tool wrote: a Long beyond 2^53, a date and an ObjectId come back as such', () => {
  const id = new ObjectId('65a1b2c3d4e5f60718293a4b');
  const line = encodeDocument({ _id: 'x', long: Long.fromString('-9007199254740993'), date: new Date('2026-01-31T12:00:00.123Z'), ref: id });
  expect(line).toBe('{"_id":"x","long":{"$int64":"-9007199254740993"},"date":{"$date":"2026-01-31T12:00:00.123Z"},"ref":{"$oid":"65a1b2c3d4e5f60718293a4b"}}');
  const back = decodeDocument(JSON.parse(line));
  expect(back.long).toBe(-9007199254740993n);
  expect(back.date).toEqual(new Date('2026-01-31T12:00:00.123Z'));
  expect(back.ref).toEqual(id);
});

test('an int64 tag within ±(2^53-1) reads back as a number; a field named __proto__ stays a field', () => {
  const back = decodeDocument(JSON.parse('{"_id":"x","n":{"$int64":"42"},"__proto__":{"polluted":true}}'));
  expect(back.n).toBe(42);
  expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
  expect(Object.getOwnPropertyDescriptor(back, '__proto__')?.value).toEqual({ polluted: true });
  expect(JSON.parse(encodeDocument(back as { _id: string }))).toEqual(JSON.parse('{"_id":"x","n":42,"__proto__":{"polluted":true}}'));
});

test.each<[string, string, string]>([
  ['an unknown tag', '{"v":{"$numberDecimal":"1.5"}}', 'v has the key "$numberDecimal": keys starting with "$" are written inside {"$object": ...}'],
  ['a float tag with another word', '{"v":{"$float":"zero"}}', 'v has {"$float": "zero"}; expected "-0", "NaN", "Infinity" or "-Infinity"'],
  ['an int64 tag that is a number', '{"v":{"$int64":5}}', 'v has {"$int64": 5}; expected a decimal integer in a string'],
  ['an int64 tag past 64 bits', '{"v":{"$int64":"9223372036854775808"}}', 'v has {"$int64": "9223372036854775808"}, outside the 64-bit range'],
  ['a date tag that is no date', '{"v":[{"$date":"yesterday"}]}', 'v[0] has {"$date": "yesterday"}; expected an ISO-8601 date-time'],
  ['an ObjectId tag of the wrong length', '{"v":{"$oid":"abc"}}', 'v has {"$oid": "abc"}; expected 24 hexadecimal digits'],
  ['a $ key beside others', '{"a":{"b":{"$x":1,"c":2}}}', 'a.b has the key "$x": keys starting with "$" are written inside {"$object": ...}'],
])('refuses %s, naming where', (_name, line, message) => {
  expect(() => decodeDocument(JSON.parse(line))).toThrow(message);
});

test('a value the format cannot hold is refused with its path', () => {
  expect(() => encodeDocument({ _id: 'x', a: [{ f: () => 1 }] })).toThrow('a[0].f is a function, which an export cannot hold');
  expect(() => encodeDocument({ _id: 'x', m: new Map() })).toThrow('m is a non-JSON object, which an export cannot hold');
});
