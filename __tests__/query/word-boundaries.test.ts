import { wordsOf, wordsOfUnicode } from '../../src/query/word-boundaries.js';

/**
 * Words on UAX #29 boundaries. The expected words below were checked against ICU (Node's `Intl.Segmenter`),
 * except the Han and Hiragana ones, where ICU uses a dictionary and bleve makes each character a word.
 */

describe('wordsOf / wordsOfUnicode: exact words by character class', () => {
  test.each<[string, string, string[]]>([
    ['a MidLetter colon joins letters', 'é:b', ['é:b']],
    ['a MidLetter middle dot joins letters', 'é·b é', ['é·b', 'é']],
    ['a MidLetter does not join digits', '1:2é', ['1', '2é']],
    ['a MidNumLet period joins letters', 'é.b', ['é.b']],
    ['a MidNumLet period joins digits', '1.2é', ['1.2é']],
    ['a typographic apostrophe is MidNumLet', 'don’t é', ['don’t', 'é']],
    ['a MidNum comma does not join letters', 'é,b', ['é', 'b']],
    ['a MidNum comma joins digits', '1,2é', ['1,2é']],
    ['a MidNum semicolon joins digits', '1;2é', ['1;2é']],
    ['a period between a digit and a letter separates', '1.x é', ['1', 'x', 'é']],
    ['two middle characters in a row separate', 'a..b é', ['a', 'b', 'é']],
    ['a MidNumLet then a MidLetter separate', 'a.:b é', ['a', 'b', 'é']],
    ['a trailing period is not in the word', 'é.', ['é']],
    ['a leading period is not in the word', '.é', ['é']],
    ['a trailing comma is not in the word', 'é,', ['é']],
    ['a zero-width space separates', 'a\u200bb é', ['a', 'b', 'é']],
    ['a soft hyphen (Format) attaches', 'a\u00adb é', ['a\u00adb', 'é']],
    ['a zero-width joiner attaches', 'a\u200db é', ['a\u200db', 'é']],
    ['a word joiner (Format) attaches', 'x\u2060y é', ['x\u2060y', 'é']],
    ['a combining mark attaches', 'é\u0301b', ['é\u0301b']],
    ['a combining mark at the start is no word', '\u0301é', ['é']],
    ['an astral combining mark attaches', 'é\u{1D167}b', ['é\u{1D167}b']],
    ['an astral letter is a letter', 'a𝒜b é', ['a𝒜b', 'é']],
    ['the last BMP code point (a noncharacter) separates', 'a\uffffb é', ['a', 'b', 'é']],
    ['the first astral code point is a letter', 'a\u{10000}b é', ['a\u{10000}b', 'é']],
    ['astral digits are digits', '𝟘𝟙 é', ['𝟘𝟙', 'é']],
    ['Arabic-Indic digits join across a period', '٣.٤', ['٣.٤']],
    ['Greek letters join across a period', 'Ω.ω', ['Ω.ω']],
    ['Katakana run', 'カタカナ', ['カタカナ']],
    ['the prolonged sound mark is Katakana', 'カーテン', ['カーテン']],
    ['Katakana and a letter are two words', 'カé', ['カ', 'é']],
    ['a connector joins Katakana', 'カ_カ', ['カ_カ']],
    ['a narrow no-break space is a connector', 'é\u202fb', ['é\u202fb']],
    ['a connector before a letter', '_é', ['_é']],
    ['a connector after a letter', 'é_', ['é_']],
    ['a connector before a digit', '_1 é', ['_1', 'é']],
    ['connectors alone are no word', '__ é', ['é']],
    ['each Han ideograph is a word', '東京', ['東', '京']],
    ['each Hiragana character is a word', 'ひらがな', ['ひ', 'ら', 'が', 'な']],
    ['a Han ideograph between letters', 'é東b', ['é', '東', 'b']],
    ['a Han ideograph after a digit', '1東', ['1', '東']],
    ['a connector after a Han ideograph starts a new word', '東_a', ['東', '_a']],
    ['a connector before a Han ideograph is no word', '_東', ['東']],
    ['punctuation and spaces only', '¡¿ — «»', []],
    ['the empty text', '', []],
  ])('%s: %j', (_name, text, words) => {
    expect(wordsOf(text)).toEqual(words);
    expect(wordsOfUnicode(text)).toEqual(words);
  });

  test.each<[string, string[]]>([
    ['a:b 1:2', ['a:b', '1', '2']],
    ["a'b 1'2", ["a'b", "1'2"]],
    ['a.b 1.2', ['a.b', '1.2']],
    ['a,b 1,2', ['a', 'b', '1,2']],
    ['a;b 1;2', ['a', 'b', '1;2']],
    ['a.1 1.a', ['a', '1', '1', 'a']],
    ['A.B.C x.', ['A.B.C', 'x']],
    ['_a._b', ['_a', '_b']],
    ['a_1 ab12 _ __', ['a_1', 'ab12']],
    ['a-b a b', ['a', 'b', 'a', 'b']],
    ['\t\n!?', []],
  ])('ASCII text: %j', (text, words) => {
    expect(wordsOf(text)).toEqual(words);
    expect(wordsOfUnicode(text)).toEqual(words);
  });

  test('non-ASCII text keeps its non-ASCII words', () => {
    expect(wordsOf('café au lait')).toEqual(['café', 'au', 'lait']);
  });
});

describe('the walk finds the words ICU finds, over every character class but Han and Hiragana', () => {
  const segmenter = new Intl.Segmenter('und', { granularity: 'word' });
  const icuWords = (text: string) => [...segmenter.segment(text)].filter((part) => part.isWordLike && /[\p{L}\p{N}]/u.test(part.segment)).map((part) => part.segment);
  const alphabet = [
    'a', 'é', 'Ω', '𝒜', '1', '٣', '𝟘', 'カ', 'ー', '_', '\u202f', ':', '·', '.', '’', ',', ';', '\u0301', '\u00ad', '\u200d', '\u200b', '\u{1D167}', ' ', '-',
  ];

  it('on random texts', () => {
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      let text = '';
      for (let j = 0; j < 8; j++) {
        seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
        text += alphabet[seed % alphabet.length];
      }
      expect({ text, words: wordsOfUnicode(text) }).toEqual({ text, words: icuWords(text) });
    }
  });
});
