/**
 * Words as bleve's `unicode` tokenizer finds them, which Dgraph's `term` and `fulltext` indexes use: the
 * word boundaries of Unicode's UAX #29 (https://unicode.org/reports/tr29/#Word_Boundaries), keeping the
 * segments that hold a letter or a digit. So "don't", "example.com", "3.14" and "1,000" are single words
 * (an apostrophe, period or colon between letters, a period or comma between digits, joins), "e-mail" is
 * two, and each Han ideograph or Hiragana character is a word of its own (no rule joins them).
 *
 * Character classes follow the standard's Word_Break property, approximated from Unicode's general
 * properties (JavaScript has no Word_Break class): ALetter is every alphabetic character that is not
 * ideographic, Hiragana or Katakana. Scripts written without spaces between words (Thai, Lao, Khmer,
 * Myanmar) therefore form one word per run of letters. Node's `Intl.Segmenter` implements the same rules
 * (with dictionaries for those scripts and for Chinese) but is two orders of magnitude slower.
 */

const enum WordBreak {
  Other = 0,
  ALetter,
  Numeric,
  Katakana,
  /** A word of one character: a Han ideograph or a Hiragana character. */
  Single,
  ExtendNumLet,
  MidLetter,
  MidNumLet,
  MidNum,
  /** Extend, Format and ZWJ: attach to the character before them (rule WB4). */
  Extend,
}

const MID_LETTER = new Set([0x3a, 0xb7, 0x387, 0x55f, 0x5f4, 0x2027, 0xfe13, 0xfe55, 0xff1a]);
const MID_NUM_LET = new Set([0x2e, 0x27, 0x2018, 0x2019, 0x2024, 0xfe52, 0xff07, 0xff0e]);
const MID_NUM = new Set([0x2c, 0x3b, 0x37e, 0x589, 0x60c, 0x60d, 0x66c, 0x7f8, 0x2044, 0xfe10, 0xfe14, 0xfe50, 0xfe54, 0xff0c, 0xff1b]);
/** Format characters that separate words instead of attaching (ZWSP, directional marks, line/paragraph separators). */
const NOT_FORMAT = new Set([0x200b, 0x200e, 0x200f, 0x2028, 0x2029]);
const KATAKANA_EXTRA = new Set([0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x309b, 0x309c, 0x30a0, 0x30fc, 0xff70]);

const IS_KATAKANA = /\p{Script=Katakana}/u;
const IS_SINGLE = /[\p{Ideographic}\p{Script=Hiragana}]/u;
const IS_LETTER = /\p{Alphabetic}/u;
const IS_DIGIT = /\p{Nd}/u;
const IS_CONNECTOR = /\p{Pc}/u;
const IS_EXTEND = /[\p{M}\p{Cf}]/u;

function classify(codePoint: number): WordBreak {
  if (MID_LETTER.has(codePoint)) return WordBreak.MidLetter;
  if (MID_NUM_LET.has(codePoint)) return WordBreak.MidNumLet;
  if (MID_NUM.has(codePoint)) return WordBreak.MidNum;
  if (KATAKANA_EXTRA.has(codePoint)) return WordBreak.Katakana;
  const char = String.fromCodePoint(codePoint);
  if (IS_DIGIT.test(char)) return WordBreak.Numeric;
  if (IS_KATAKANA.test(char)) return WordBreak.Katakana;
  if (IS_SINGLE.test(char)) return WordBreak.Single;
  if (IS_LETTER.test(char)) return WordBreak.ALetter;
  if (IS_CONNECTOR.test(char) || codePoint === 0x202f) return WordBreak.ExtendNumLet;
  if (IS_EXTEND.test(char) && !NOT_FORMAT.has(codePoint)) return WordBreak.Extend;
  return WordBreak.Other;
}

/** Classes of the Basic Multilingual Plane, computed on first sight (0: not yet known). */
const bmpClasses = new Uint8Array(0x10000);
const astralClasses = new Map<number, WordBreak>();

function classOf(codePoint: number): WordBreak {
  if (codePoint < 0x10000) {
    const known = bmpClasses[codePoint]!;
    if (known !== 0) return (known - 1) as WordBreak;
    const found = classify(codePoint);
    bmpClasses[codePoint] = found + 1;
    return found;
  }
  let found = astralClasses.get(codePoint);
  if (found === undefined) {
    found = classify(codePoint);
    astralClasses.set(codePoint, found);
  }
  return found;
}

const isAHLetterOrNumeric = (kind: WordBreak): boolean => kind === WordBreak.ALetter || kind === WordBreak.Numeric;

/** Whether two word characters with nothing between them stay in one word (WB5, WB8-WB10, WB13-WB13b). */
function joins(before: WordBreak, after: WordBreak): boolean {
  if (isAHLetterOrNumeric(before) && isAHLetterOrNumeric(after)) return true;
  if (before === WordBreak.Katakana && after === WordBreak.Katakana) return true;
  if (after === WordBreak.ExtendNumLet) return before !== WordBreak.Single && before !== WordBreak.Other;
  if (before === WordBreak.ExtendNumLet) return after === WordBreak.ALetter || after === WordBreak.Numeric || after === WordBreak.Katakana;
  return false;
}

/** Whether a middle character between `before` and `after` keeps them in one word (WB6/WB7, WB11/WB12). */
function joinsAcross(before: WordBreak, middle: WordBreak, after: WordBreak): boolean {
  if (before === WordBreak.ALetter && after === WordBreak.ALetter) return middle === WordBreak.MidLetter || middle === WordBreak.MidNumLet;
  if (before === WordBreak.Numeric && after === WordBreak.Numeric) return middle === WordBreak.MidNum || middle === WordBreak.MidNumLet;
  return false;
}

const isWordCharacter = (kind: WordBreak): boolean =>
  kind === WordBreak.ALetter || kind === WordBreak.Numeric || kind === WordBreak.Katakana || kind === WordBreak.Single || kind === WordBreak.ExtendNumLet;

/** The next code point's class and where the code point after it starts, skipping Extend/Format characters (WB4). */
function nextCharacter(text: string, index: number): { kind: WordBreak; end: number } | undefined {
  if (index >= text.length) return undefined;
  const codePoint = text.codePointAt(index)!;
  let end = index + (codePoint > 0xffff ? 2 : 1);
  const kind = classOf(codePoint);
  while (end < text.length) {
    const following = text.codePointAt(end)!;
    if (classOf(following) !== WordBreak.Extend) break;
    end += following > 0xffff ? 2 : 1;
  }
  return { kind, end };
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/**
 * The same rules for ASCII text, where the classes are few (letters, digits, `_`; `:` and `.` `'` join
 * letters; `.` `'` `,` `;` join digits): one regular expression, several times faster than the walk.
 */
const ASCII_WORD = /[A-Za-z0-9_]+(?:(?:(?<=[A-Za-z])[.':](?=[A-Za-z])|(?<=[0-9])[.',;](?=[0-9]))[A-Za-z0-9_]+)*/g;
const HAS_LETTER_OR_DIGIT = /[A-Za-z0-9]/;

/** The words of `text` in order, as written (not lowercased, not normalised); a word made only of connectors (`_`) is left out. */
export function wordsOf(text: string): string[] {
  if (ASCII_ONLY.test(text)) return (text.match(ASCII_WORD) ?? []).filter((word) => HAS_LETTER_OR_DIGIT.test(word));
  return wordsOfUnicode(text);
}

/** `wordsOf` for any text: a walk over the characters' classes. Exported so tests can hold the ASCII shortcut to it. */
export function wordsOfUnicode(text: string): string[] {
  const words: string[] = [];
  let index = 0;
  while (index < text.length) {
    const first = nextCharacter(text, index)!;
    if (!isWordCharacter(first.kind)) {
      index = first.end;
      continue;
    }
    const start = index;
    let last = first.kind;
    let hasLetterOrDigit = first.kind !== WordBreak.ExtendNumLet;
    index = first.end;
    while (last !== WordBreak.Single) {
      const next = nextCharacter(text, index);
      if (!next) break;
      if (joins(last, next.kind)) {
        last = next.kind;
        hasLetterOrDigit ||= next.kind !== WordBreak.ExtendNumLet;
        index = next.end;
        continue;
      }
      const after = nextCharacter(text, next.end);
      if (after && joinsAcross(last, next.kind, after.kind)) {
        last = after.kind;
        index = after.end;
        continue;
      }
      break;
    }
    if (hasLetterOrDigit) words.push(text.slice(start, index));
  }
  return words;
}
