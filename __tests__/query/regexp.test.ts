import { linearRegexp, parseRegexp, RegexpArgumentError, withPcreEnd } from '../../src/query/regexp.js';

const WHERE = 'Item.pattern regexp';

describe('parseRegexp: /pattern/flags under RE2 rules', () => {
  test.each<[string, unknown, { pattern: string; flags: string }]>([
    ['a plain pattern', '/^buy.*milk$/', { pattern: '^buy.*milk$', flags: '' }],
    ['the i flag', '/milk/i', { pattern: 'milk', flags: 'i' }],
    ['inner slashes stay in the pattern', '/a\\/b/', { pattern: 'a\\/b', flags: '' }],
    ['a slash without escape before the last one', '/a/b/', { pattern: 'a/b', flags: '' }],
    ['the exponential pattern of a backtracking engine', '/(a+)+$/', { pattern: '(a+)+$', flags: '' }],
    ['unicode classes', '/\\p{Greek}+/', { pattern: '\\p{Greek}+', flags: '' }],
    ['POSIX classes', '/[[:alpha:]]+/', { pattern: '[[:alpha:]]+', flags: '' }],
    ['inline flags', '/(?i)abc/', { pattern: '(?i)abc', flags: '' }],
    ['a counted repeat just under the program size limit', '/[a-z]{990}/', { pattern: '[a-z]{990}', flags: '' }],
    ['a newline in the pattern', '/a\nb/', { pattern: 'a\nb', flags: '' }],
  ])('accepts %s', (_name, value, expected) => {
    expect(parseRegexp(WHERE, value)).toEqual(expected);
  });

  test.each<[string, unknown, string]>([
    ['no slashes', 'milk', `${WHERE}: expected a regular expression written /pattern/ or /pattern/i, got "milk"`],
    ['not a string', 42, `${WHERE}: expected a regular expression written /pattern/ or /pattern/i, got 42`],
    ['only one slash', '/milk', `${WHERE}: expected a regular expression written /pattern/ or /pattern/i, got "/milk"`],
    ['text before the first slash', 'a/b/', `${WHERE}: expected a regular expression written /pattern/ or /pattern/i, got "a/b/"`],
    ['a list holding a literal', ['/a/'], `${WHERE}: expected a regular expression written /pattern/ or /pattern/i, got ["/a/"]`],
    ['an empty pattern', '//i', `${WHERE}: the pattern is empty`],
    ['an empty pattern without flags', '//', `${WHERE}: the pattern is empty`],
    ['the g flag', '/milk/g', `${WHERE}: flag "g" is not allowed (the only flag is i, for case-insensitive)`],
    ['the m flag (Dgraph has only i)', '/milk/m', `${WHERE}: flag "m" is not allowed (the only flag is i, for case-insensitive)`],
    ['an upper-case I', '/milk/I', `${WHERE}: flag "I" is not allowed (the only flag is i, for case-insensitive)`],
    ['a repeated flag', '/milk/ii', `${WHERE}: flag "i" is given twice`],
    ['a backreference', '/(a)\\1/', `${WHERE}: /(a)\\1/ is not a regular expression RE2 can run: invalid escape sequence: \`\\1\``],
    ['a lookahead', '/a(?=b)/', `${WHERE}: /a(?=b)/ is not a regular expression RE2 can run: invalid or unsupported Perl syntax: \`(?=\``],
    ['a negative lookbehind', '/(?<!a)b/', `${WHERE}: /(?<!a)b/ is not a regular expression RE2 can run: invalid named capture: \`(?<!a)b\``],
    ['a possessive quantifier', '/a++/', `${WHERE}: /a++/ is not a regular expression RE2 can run: invalid nested repetition operator: \`++\``],
    ['a repeat count above 1000', '/a{1001}/', `${WHERE}: /a{1001}/ is not a regular expression RE2 can run: invalid repeat count: \`{1001}\``],
    ['an unclosed group', '/a(b/', `${WHERE}: /a(b/ is not a regular expression RE2 can run: missing closing ): \`a(b\``],
    ['a program over the size limit', '/[a-z]{1000}/', `${WHERE}: /[a-z]{1000}/ is too large: it compiles to 1002 instructions, more than the limit of 1000 (each repetition of a counted repeat such as {100} adds its own)`],
    ['a long pattern, shown cut short', `/${'[a-z]{999}'.repeat(20)}/`, `${WHERE}: /${'[a-z]{999}'.repeat(7)}[a-z]{... is too large: it compiles to 19982 instructions, more than the limit of 1000 (each repetition of a counted repeat such as {100} adds its own)`],
    ['an unclosed class', '/[a-/', `${WHERE}: /[a-/ is not a regular expression RE2 can run: missing closing ]: \`[a-\``],
  ])('refuses %s', (_name, value, message) => {
    let thrown: unknown;
    try {
      parseRegexp(WHERE, value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RegexpArgumentError);
    expect((thrown as RegexpArgumentError).name).toBe('RegexpArgumentError');
    expect((thrown as RegexpArgumentError).message).toBe(message);
    expect((thrown as RegexpArgumentError).extensions).toEqual({ code: 'BAD_USER_INPUT' });
  });
});

describe('linearRegexp: what a pattern matches', () => {
  test.each<[string, string, string[], string[]]>([
    ['unanchored search', '/milk/', ['buy milk', 'milk', 'milky way'], ['MILK', 'mil k', '']],
    ['case-insensitive', '/^hello/i', ['Hello world', 'HELLO', 'hello'], ['say hello', 'hell']],
    ['anchors at both ends', '/^ab$/', ['ab'], ['abc', 'cab', 'a\nb']],
    ['dot does not match a newline', '/a.b/', ['axb', 'a-b'], ['a\nb', 'ab']],
    ['a non-ASCII letter is one character', '/^caf.$/', ['café', 'cafe'], ['caf', 'cafés']],
    ['an astral character is one character', '/^x.y$/', ['x😀y'], ['xy', 'x😀😀y']],
    ['case folding beyond ASCII', '/^ÉTÉ$/i', ['été', 'ÉTÉ', 'Été'], ['ete']],
    ['\\w is ASCII only, as in MongoDB', '/^\\w+$/', ['abc_123'], ['été', 'a b']],
    ['\\d and repetition counts', '/^\\d{3}-\\d{4}$/', ['555-1234'], ['55-1234', '555-12345']],
    ['classes and negated classes', '/^[a-c][^0-9]$/', ['ax', 'c!'], ['dx', 'a1']],
    ['alternation', '/^(cat|dog)s?$/', ['cat', 'dogs'], ['cow', 'catss']],
    ['unicode property classes', '/^\\p{Greek}+$/', ['αβγ'], ['abc']],
    ['the exponential pattern answers without backtracking', '/(a+)+$/', ['aaaa', 'b a'], ['a'.repeat(40) + '!', '']],
  ])('%s: %s', (_name, literal, matching, notMatching) => {
    const matcher = linearRegexp(parseRegexp(WHERE, literal));
    expect(matching.filter((text) => matcher.test(text))).toEqual(matching);
    expect(notMatching.filter((text) => matcher.test(text))).toEqual([]);
  });

  test('the MongoDB flags m and s are understood when the store receives them', () => {
    expect(linearRegexp({ pattern: '^b$', flags: 'm' }).test('a\nb\nc')).toBe(true);
    expect(linearRegexp({ pattern: '^b$', flags: '' }).test('a\nb\nc')).toBe(false);
    expect(linearRegexp({ pattern: 'a.b', flags: 's' }).test('a\nb')).toBe(true);
    expect(() => linearRegexp({ pattern: 'a', flags: 'x' })).toThrow('regular expression flag "x" is not supported (known: i, m, s)');
  });
});

describe('withPcreEnd: `$` as MongoDB (PCRE) reads it', () => {
  test.each<[string, string]>([
    ['^ab$', '^ab(?:\\n?\\z)'],
    ['a\\$b$', 'a\\$b(?:\\n?\\z)'],
    ['[$]x', '[$]x'],
    ['[^]$]$', '[^]$](?:\\n?\\z)'],
    ['[[:alpha:]$]+$', '[[:alpha:]$]+(?:\\n?\\z)'],
    ['(?m)^b$', '(?m)^b$'],
    ['(?im)^b$', '(?im)^b$'],
    ['no anchor', 'no anchor'],
  ])('%s becomes %s', (pattern, translated) => {
    expect(withPcreEnd(pattern)).toBe(translated);
  });

  test.each<[string, string, boolean]>([
    ['/^ab$/', 'ab\n', true],
    ['/^ab$/', 'ab\n\n', false],
    ['/^ab$/', 'ab\nc', false],
    ['/b$/i', 'AB\n', true],
    ['/[$]$/', '$\n', true],
    ['/a$|^b/', 'a\n', true],
  ])('%s against %j matches: %s (as PCRE answers)', (literal, text, expected) => {
    expect(linearRegexp(parseRegexp(WHERE, literal)).test(text)).toBe(expected);
  });
});

describe('parseRegexp at its limits', () => {
  const longest = `/(${'a'.repeat(77)}/`;
  const tooLongToShow = `/(${'a'.repeat(78)}/`;

  test.each<[string, string, string]>([
    ['a literal of 80 characters is shown whole', longest, `${WHERE}: ${longest} is not a regular expression RE2 can run: missing closing ): \`(${'a'.repeat(77)}\``],
    ['a literal of 81 characters is cut to 77 and ...', tooLongToShow, `${WHERE}: /(${'a'.repeat(75)}... is not a regular expression RE2 can run: missing closing ): \`(${'a'.repeat(78)}\``],
    ['a program of 1001 instructions', '/[a-z]{999}/', `${WHERE}: /[a-z]{999}/ is too large: it compiles to 1001 instructions, more than the limit of 1000 (each repetition of a counted repeat such as {100} adds its own)`],
    ['a flag before an unknown one', '/a/ig', `${WHERE}: flag "g" is not allowed (the only flag is i, for case-insensitive)`],
  ])('%s', (_name, value, message) => {
    expect(() => parseRegexp(WHERE, value)).toThrow(new RegexpArgumentError(message));
    expect(longest).toHaveLength(80);
  });

  test('a program of exactly 1000 instructions is accepted', () => {
    expect(parseRegexp(WHERE, '/[a-z]{998}/')).toEqual({ pattern: '[a-z]{998}', flags: '' });
  });

  test('a pattern that is only a slash', () => {
    expect(parseRegexp(WHERE, '///')).toEqual({ pattern: '/', flags: '' });
  });

  test('patterns compiled one after another keep their own matchers', () => {
    const first = linearRegexp(parseRegexp(WHERE, '/^x$/'));
    const second = linearRegexp(parseRegexp(WHERE, '/^y$/'));
    const caseless = linearRegexp(parseRegexp(WHERE, '/^x$/i'));
    expect([first.test('x'), first.test('y'), second.test('y'), second.test('x'), first.test('X'), caseless.test('X')]).toEqual([true, false, true, false, false, true]);
  });
});

describe('withPcreEnd at the edges of its syntax', () => {
  test.each<[string, string, string]>([
    ['a trailing backslash stays as it is', 'a\\', 'a\\'],
    ['an escaped dollar before the end anchor', '\\$$', '\\$(?:\\n?\\z)'],
    ['[: without a name is no POSIX class', '[[:]$]', '[[:](?:\\n?\\z)]'],
    ['a colon after a member is no POSIX class', '[a:b:]$]$', '[a:b:](?:\\n?\\z)](?:\\n?\\z)'],
    ['a [ not followed by : is a member, even before a :]', '[[a:]$]$', '[[a:](?:\\n?\\z)](?:\\n?\\z)'],
    ['a ] right after [ is a member', '[]$]$', '[]$](?:\\n?\\z)'],
    ['an escaped ] inside a class', '[a\\]$]$', '[a\\]$](?:\\n?\\z)'],
    ['an inline flag group without m', '(?i)a$', '(?i)a(?:\\n?\\z)'],
    ['multiline turned on later in the pattern', 'x(?m)$', 'x(?m)$'],
    ['multiline among several inline flags', '(?Usm)^b$', '(?Usm)^b$'],
  ])('%s: %s → %s', (_name, pattern, translated) => {
    expect(withPcreEnd(pattern)).toBe(translated);
  });
});
