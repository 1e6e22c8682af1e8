import { QueryArgumentError } from '../../src/query/errors.js';
import { fulltextTokensOf, ngramQueryTokensOf, ngramTokensOf, searchFieldsFor, termsOf } from '../../src/query/text-index.js';
import { wordsOf, wordsOfUnicode } from '../../src/query/word-boundaries.js';
import { f, model, schemaModel } from './fixtures.js';

const task = model.types.get('Task')!;

describe('termsOf: words on Unicode word boundaries (bleve\'s unicode tokenizer), lowercased, NFKC', () => {
  test.each<[string, string[]]>([
    ["don't panic", ["don't", 'panic']],
    ['don t panic', ['don', 't', 'panic']],
    ['Visit example.com today', ['visit', 'example.com', 'today']],
    ['pi is 3.14', ['pi', 'is', '3.14']],
    ['1,000.50 dollars', ['1,000.50', 'dollars']],
    ['e-mail me', ['e', 'mail', 'me']],
    ["'quoted' words", ['quoted', 'words']],
    ["‘Größe’ 'naïve'", ['größe', 'naïve']],
    ["the '90s", ['the', '90s']],
    ['a:b but 1:2', ['a:b', 'but', '1', '2']],
    ['snake_case _ __', ['snake_case']],
    ['U.S.A. and x..y', ['u.s.a', 'and', 'x', 'y']],
    ['a1.b2 3.x', ['a1', 'b2', '3', 'x']],
    ['Buy Milk, buy eggs!', ['buy', 'milk', 'eggs']],
    ['one two three four five six seven eight nine ten One TWO eleven twelve thirteen fourteen fifteen sixteen seventeen',
      ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen']],
    ['GraphQL-over-HTTP v2', ['graphql', 'over', 'http', 'v2']],
    ['Ünïcode straße', ['ünïcode', 'straße']],
    ['ΟΔΟΣ', ['οδοσ']],
    ['cafe\u0301 au lait', ['café', 'au', 'lait']],
    ['ﬁne Ａ１', ['fine', 'a1']],
    ['東京 ひらがな カタカナ', ['東', '京', 'ひ', 'ら', 'が', 'な', 'カタカナ']],
    ['Alice’s', ['alice’s']],
    ['  ...  ', []],
    ['', []],
  ])('%j → %j', (text, terms) => {
    expect(termsOf(text)).toEqual(terms);
  });
});

describe('word boundaries against independent implementations', () => {
  const segmenter = new Intl.Segmenter('und', { granularity: 'word' });
  /** ICU's UAX #29 words (Node's Intl.Segmenter), without the segments made only of connectors. */
  const icuWords = (text: string) => [...segmenter.segment(text)].filter((part) => part.isWordLike && /[\p{L}\p{N}]/u.test(part.segment)).map((part) => part.segment);

  function randomTexts(alphabet: string[], count: number, length: number): string[] {
    let seed = 11;
    return Array.from({ length: count }, () => {
      let text = '';
      for (let j = 0; j < length; j++) {
        seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
        text += alphabet[seed % alphabet.length];
      }
      return text;
    });
  }

  it('the ASCII shortcut finds the words the walk over character classes finds', () => {
    const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));
    for (const text of randomTexts(ascii, 3000, 12)) expect({ text, words: wordsOf(text) }).toEqual({ text, words: wordsOfUnicode(text) });
  });

  it('the walk finds the words ICU finds, over letters, digits and the joining punctuation of several scripts', () => {
    const alphabet = ['a', 'Z', 'é', 'ß', 'я', 'Ω', '0', '9', '٣', '.', "'", '’', ':', ',', ';', '-', '_', ' '];
    for (const text of randomTexts(alphabet, 3000, 10)) expect({ text, words: wordsOfUnicode(text) }).toEqual({ text, words: icuWords(text) });
  });
});

describe('ngramTokensOf: what Dgraph\'s ngram index stores (tok.NGramTokenizer.Tokens)', () => {
  test.each<[string, string[]]>([
    ['Running', ['run']],
    ['Running for Cardiovascular Health', ['run', 'cardiovascular', 'health', 'run cardiovascular', 'cardiovascular health', 'run cardiovascular health']],
    ['How to eat: nutrition and healthy eating habits', [
      'eat', 'nutrit', 'healthi', 'habit',
      'eat nutrit', 'nutrit healthi', 'healthi eat', 'eat habit',
      'eat nutrit healthi', 'nutrit healthi eat', 'healthi eat habit',
      'eat nutrit healthi eat', 'nutrit healthi eat habit',
    ]],
    ['a b c d e', ['b', 'c', 'd', 'e', 'b c', 'c d', 'd e', 'b c d', 'c d e', 'b c d e']],
    ['It is what it is', []],
    ['', []],
  ])('%j → %j', (text, tokens) => {
    expect(ngramTokensOf(text)).toEqual(tokens);
  });
});

describe('ngramQueryTokensOf: what an ngram filter looks for (tok.NGramTokenizer.QueryTokens)', () => {
  test.each<[string, string[]]>([
    ['RUNNING', ['run']],
    ['weight training', ['weight train']],
    [' beginners advanced', ['beginn advanc']],
    ['eat nutrition healthy', ['eat nutrit healthi']],
    ['Weight Training and Muscle', ['weight train muscl']],
    ['weight training muscle building', ['weight train muscl', 'train muscl build']],
    ['the and of', []],
  ])('%j → %j', (text, tokens) => {
    expect(ngramQueryTokensOf(text)).toEqual(tokens);
  });
});

describe('fulltextTokensOf', () => {
  test.each([
    ['The runner runs while running', ['runner', 'run']],
    ['Connections connected connecting', ['connect']],
    ["Alice's cats don't sleep", ['alic', 'cat', 'sleep']],
    ['Alice’s cats don’t sleep', ['alic', 'cat', 'sleep']],
    ["'Running' quoted", ['run', 'quot']],
    ['It is what it is', []],
    ['Generously HAPPY', ['generous', 'happi']],
    ['version 3.14 of example.com', ['version', '3.14', 'example.com']],
  ])('%j → %j', (text, tokens) => {
    expect(fulltextTokensOf(text)).toEqual(tokens);
  });
});

describe('searchFieldsFor', () => {
  test('term and fulltext fields get their derived arrays; other fields none', () => {
    expect(searchFieldsFor(task, { title: 'Running the Tests', notes: 'ignored', priority: 3 })).toEqual({
      _term_title: ['running', 'the', 'tests'],
      _fulltext_title: ['run', 'test'],
    });
  });

  test('a list of strings gives the union of its tokens', () => {
    expect(searchFieldsFor(task, { tags: ['Home work', 'work', null] })).toEqual({ _term_tags: ['home', 'work'] });
  });

  test('null values map to undefined so callers can $unset them', () => {
    expect(searchFieldsFor(task, { title: null, tags: null })).toStrictEqual({ _term_title: undefined, _fulltext_title: undefined, _term_tags: undefined });
  });

  test('undefined values map to undefined too', () => {
    expect(searchFieldsFor(task, { title: undefined })).toStrictEqual({ _term_title: undefined, _fulltext_title: undefined });
  });

  test('a non-string value of a text-indexed field is an error naming the field', () => {
    expect(() => searchFieldsFor(task, { title: 42 })).toThrow('Task.title has a text index, so its value must be a string or a list of strings, got 42');
  });
});

describe('full-text tokens of words with apostrophes, and of non-ASCII words', () => {
  test.each<[string, string[], string[]]>([
    ["O'Sullivan's", ["o'sullivan's"], ['osullivan']],
    ["rock'n'roll", ["rock'n'roll"], ['rocknrol']],
    ["boss's o'clock", ["boss's", "o'clock"], ['boss', 'oclock']],
    ["the cats' toys", ['the', 'cats', 'toys'], ['cat', 'toy']],
    ['ÉCOLE ﬁnale', ['école', 'finale'], ['école', 'final']],
    ['ΣΟΦΌΣ', ['σοφόσ'], ['σοφόσ']],
    ['Ａ１ v2 3.14', ['a1', 'v2', '3.14'], ['a1', 'v2', '3.14']],
    ["Don't STOP", ["don't", 'stop'], ['stop']],
    // Letters mixed with digits never reach the stemmer, whichever end the digits are on.
    ["rock'n2 2rock'n", ["rock'n2", "2rock'n"], ["rock'n2", "2rock'n"]],
  ])('%j: terms %j, full-text %j', (text, terms, fulltext) => {
    expect(termsOf(text)).toEqual(terms);
    expect(fulltextTokensOf(text)).toEqual(fulltext);
  });
});

describe('searchFieldsFor: what is written', () => {
  test('keys that are not fields of the type add nothing', () => {
    expect(searchFieldsFor(task, { nope: 'Buy milk', title: 'Milk' })).toEqual({ _term_title: ['milk'], _fulltext_title: ['milk'] });
  });

  test('a fulltext-only field gets only its full-text tokens; nested lists and nulls flatten', () => {
    const notes = schemaModel([{ name: 'Note', fields: [f('id', 'ID!'), f('body', '[String]', { search: ['fulltext'] })] }]).types.get('Note')!;
    expect(searchFieldsFor(notes, { body: ['Running dogs', [null, 'dogs ran'], undefined] })).toEqual({ _fulltext_body: ['run', 'dog', 'ran'] });
  });

  test('the derived fields follow the stored name of the field', () => {
    const renamed = schemaModel([{ name: 'Note', fields: [f('id', 'ID!'), f('body', 'String', { search: ['term'], storedName: 'Note.body' })] }]).types.get('Note')!;
    expect(searchFieldsFor(renamed, { body: 'Hello World' })).toEqual({ '_term_Note.body': ['hello', 'world'] });
  });

  test('a list holding a non-string is an error naming the field and the item', () => {
    expect(() => searchFieldsFor(task, { tags: ['home', 3] })).toThrow(new QueryArgumentError('Task.tags has a text index, so its value must be a string or a list of strings, got 3'));
  });
});
