import { fulltextTokensOf, searchFieldsFor, termsOf } from '../../src/query/text-index.js';
import { model } from './fixtures.js';

const task = model.types.get('Task')!;

describe('termsOf', () => {
  test.each([
    ['Buy Milk, buy eggs!', ['buy', 'milk', 'eggs']],
    ['GraphQL-over-HTTP v2', ['graphql', 'over', 'http', 'v2']],
    ['Ünïcode straße 東京', ['ünïcode', 'straße', '東京']],
    ['  ...  ', []],
    ['', []],
  ])('%j → %j', (text, terms) => {
    expect(termsOf(text)).toEqual(terms);
  });

  it('splits ASCII text (taken apart without Unicode classes) exactly as the Unicode rule does', () => {
    const unicodeRule = (text: string) => [...new Set(text.normalize('NFC').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((term) => term.length > 0))];
    const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));
    const texts = ascii.map((char) => `Ab${char}9z${char}`);
    let seed = 11;
    for (let i = 0; i < 300; i++) {
      let text = '';
      for (let j = 0; j < 12; j++) {
        seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
        text += ascii[seed % 128];
      }
      texts.push(text);
    }
    for (const text of texts) expect({ text, terms: termsOf(text) }).toEqual({ text, terms: unicodeRule(text) });
  });
});

describe('fulltextTokensOf', () => {
  test.each([
    ['The runner runs while running', ['runner', 'run']],
    ['Connections connected connecting', ['connect']],
    ["Alice's cats don't sleep", ['alic', 'cat', 'sleep']],
    ['It is what it is', []],
    ['Generously HAPPY', ['generous', 'happi']],
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
    expect(searchFieldsFor(task, { title: null, tags: null })).toEqual({ _term_title: undefined, _fulltext_title: undefined, _term_tags: undefined });
  });

  test('a non-string value of a text-indexed field is an error naming the field', () => {
    expect(() => searchFieldsFor(task, { title: 42 })).toThrow('Task.title has a text index, so its value must be a string or a list of strings, got 42');
  });
});
