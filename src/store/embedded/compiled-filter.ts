/**
 * A MongoDB query document compiled once into a plain JavaScript predicate, for the operators requests
 * use most (`$eq $ne $in $nin $gt $gte $lt $lte $exists $and $or $nor $not $all $size $elemMatch`, and
 * literal equality) with MongoDB's (and mingo's) semantics:
 *
 * - a condition on a field holding an array is met when the array itself or any element meets it
 *   (`$size`, `$exists` and `$elemMatch` look at the array itself);
 * - comparisons only compare values of the same type (a number is never `$gt` a string);
 * - `null` equals null and a missing field; `$ne`, `$nin` and `$not` negate the condition they wrap;
 * - `$all` is only met by arrays (mingo's reading: MongoDB also lets `{ $all: ["a"] }` match `"a"`).
 *
 * Whatever else appears (other operators, regular expressions, equality with objects or arrays, a `$gt`
 * on null or booleans, field names of Object.prototype) makes `compilePredicate` answer undefined, and the
 * caller uses mingo. A dotted path that meets an array on its way (where MongoDB fans out over the
 * elements) gives no verdict for that document, which the caller then hands to mingo.
 */
import type { Filter } from '../port.js';
import { MISSING } from './index-keys.js';
import { isPlainObject } from './json-values.js';

/** true / false, or undefined: this document needs the generic evaluator. */
export type Verdict = boolean | undefined;
export type Predicate = (document: Record<string, unknown>) => Verdict;
/** A condition on one field's value (MISSING when the field is absent). */
type ValueTest = (value: unknown) => Verdict;

const PROTOTYPE_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__']);
/** What a dotted path gives when it meets an array before its last segment. */
const UNDECIDED = Symbol('undecided');

type Literal = string | number | boolean | null;
const isLiteral = (value: unknown): value is Literal =>
  value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
const isComparable = (value: unknown): value is string | number =>
  typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** The predicate of `filter`, or undefined when some part of it is left to mingo. */
export function compilePredicate(filter: Filter): Predicate | undefined {
  return compileDocument(filter);
}

function compileDocument(filter: unknown): Predicate | undefined {
  if (!isPlainObject(filter)) return undefined;
  const tests: Predicate[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    const test = key.startsWith('$') ? compileLogical(key, condition) : compileField(key, condition);
    if (!test) return undefined;
    tests.push(test);
  }
  return allOf(tests);
}

function compileLogical(operator: string, operand: unknown): Predicate | undefined {
  if (operator !== '$and' && operator !== '$or' && operator !== '$nor') return undefined;
  if (!Array.isArray(operand) || operand.length === 0) return undefined;
  const parts: Predicate[] = [];
  for (const part of operand) {
    const test = compileDocument(part);
    if (!test) return undefined;
    parts.push(test);
  }
  if (operator === '$and') return allOf(parts);
  const any = anyOf(parts);
  return operator === '$or' ? any : (document) => not(any(document));
}

function compileField(path: string, condition: unknown): Predicate | undefined {
  const segments = path.split('.');
  if (segments.some((segment) => segment === '' || PROTOTYPE_NAMES.has(segment) || /^\d+$/.test(segment))) return undefined;
  const test = compileCondition(condition);
  if (!test) return undefined;
  if (segments.length === 1) {
    return (document) => {
      const value = document[path];
      return test(value === undefined ? MISSING : value);
    };
  }
  return (document) => {
    const value = valueAtPath(document, segments);
    return value === UNDECIDED ? undefined : test(value);
  };
}

function valueAtPath(document: Record<string, unknown>, segments: readonly string[]): unknown {
  let current: unknown = document;
  for (const segment of segments) {
    if (Array.isArray(current)) return UNDECIDED;
    if (current === null || typeof current !== 'object') return MISSING;
    current = (current as Record<string, unknown>)[segment];
    if (current === undefined) return MISSING;
  }
  return current;
}

/** A field's condition: a literal to equal, or an object of operators. */
function compileCondition(condition: unknown): ValueTest | undefined {
  if (isLiteral(condition)) return equals(condition);
  if (!isPlainObject(condition)) return undefined;
  const operators = Object.entries(condition);
  if (operators.length === 0 || !operators.every(([operator]) => operator.startsWith('$'))) return undefined;
  const tests: ValueTest[] = [];
  for (const [operator, operand] of operators) {
    const test = compileOperator(operator, operand);
    if (!test) return undefined;
    tests.push(test);
  }
  return allOf(tests);
}

function compileOperator(operator: string, operand: unknown): ValueTest | undefined {
  switch (operator) {
    case '$eq':
      return isLiteral(operand) ? equals(operand) : undefined;
    case '$ne':
      return isLiteral(operand) ? negated(equals(operand)) : undefined;
    case '$in':
      return Array.isArray(operand) && operand.every(isLiteral) ? inList(operand) : undefined;
    case '$nin':
      return Array.isArray(operand) && operand.every(isLiteral) ? negated(inList(operand)) : undefined;
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return isComparable(operand) ? comparison(operator, operand) : undefined;
    case '$exists':
      return typeof operand === 'boolean' ? (value) => (value !== MISSING) === operand : undefined;
    case '$size':
      return Number.isInteger(operand) && (operand as number) >= 0 ? (value) => Array.isArray(value) && value.length === operand : undefined;
    case '$all':
      if (!Array.isArray(operand) || operand.length === 0 || !operand.every((item) => isLiteral(item) && item !== null)) return undefined;
      // mingo (unlike MongoDB) never matches a value that is not an array.
      return allOf([(value: unknown) => Array.isArray(value), ...operand.map((item: Literal) => equals(item))]);
    case '$not': {
      const inner = compileCondition(operand);
      return inner && isPlainObject(operand) ? negated(inner) : undefined;
    }
    case '$elemMatch':
      return compileElemMatch(operand);
    default:
      return undefined;
  }
}

/** Equality with a literal: the value itself, or an element of an array value; null also matches absence. */
function equals(literal: Literal): ValueTest {
  if (literal === null) {
    return (value) => value === MISSING || value === null || (Array.isArray(value) && value.includes(null));
  }
  return (value) => value === literal || (Array.isArray(value) && value.includes(literal));
}

function inList(list: readonly Literal[]): ValueTest {
  const wanted = new Set<unknown>(list);
  const withNull = wanted.has(null);
  return (value) => {
    if (wanted.has(value)) return true;
    if (withNull && value === MISSING) return true;
    if (!Array.isArray(value)) return false;
    for (const item of value) if (wanted.has(item)) return true;
    return false;
  };
}

function comparison(operator: '$gt' | '$gte' | '$lt' | '$lte', bound: string | number): ValueTest {
  const type = typeof bound;
  const meets =
    operator === '$gt' ? (item: unknown) => typeof item === type && (item as number) > (bound as number)
    : operator === '$gte' ? (item: unknown) => typeof item === type && (item as number) >= (bound as number)
    : operator === '$lt' ? (item: unknown) => typeof item === type && (item as number) < (bound as number)
    : (item: unknown) => typeof item === type && (item as number) <= (bound as number);
  return (value) => (Array.isArray(value) ? value.some(meets) : meets(value));
}

/**
 * `$elemMatch`: some element of an array value meets the operators (`{ $gt: 1 }`) or, as a document, the
 * query (`{ a: 1 }`). Elements that are themselves arrays, or non-documents against a query, get no verdict.
 */
function compileElemMatch(operand: unknown): ValueTest | undefined {
  if (!isPlainObject(operand) || Object.keys(operand).length === 0) return undefined;
  const keys = Object.keys(operand);
  const onValues = keys.every((key) => key.startsWith('$') && key !== '$and' && key !== '$or' && key !== '$nor');
  if (onValues) {
    const test = compileCondition(operand);
    if (!test) return undefined;
    return (value) => (Array.isArray(value) ? someOf(value, (item) => (Array.isArray(item) ? undefined : test(item))) : false);
  }
  const query = compileDocument(operand);
  if (!query) return undefined;
  return (value) => (Array.isArray(value) ? someOf(value, (item) => (isPlainObject(item) ? query(item) : undefined)) : false);
}

function not(verdict: Verdict): Verdict {
  return verdict === undefined ? undefined : !verdict;
}

function negated(test: ValueTest): ValueTest {
  return (value) => not(test(value));
}

/** Every test true: true; one false: false; else no verdict. */
function allOf<T>(tests: readonly ((input: T) => Verdict)[]): (input: T) => Verdict {
  if (tests.length === 1) return tests[0]!;
  return (input) => {
    let verdict: Verdict = true;
    for (const test of tests) {
      const one = test(input);
      if (one === false) return false;
      if (one === undefined) verdict = undefined;
    }
    return verdict;
  };
}

function anyOf<T>(tests: readonly ((input: T) => Verdict)[]): (input: T) => Verdict {
  return (input) => {
    let verdict: Verdict = false;
    for (const test of tests) {
      const one = test(input);
      if (one === true) return true;
      if (one === undefined) verdict = undefined;
    }
    return verdict;
  };
}

function someOf(items: readonly unknown[], test: ValueTest): Verdict {
  let verdict: Verdict = false;
  for (const item of items) {
    const one = test(item);
    if (one === true) return true;
    if (one === undefined) verdict = undefined;
  }
  return verdict;
}
