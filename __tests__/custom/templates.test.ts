import {
  BodyTemplateError,
  bodyTemplateVariables,
  isHostAllowed,
  parseBodyTemplate,
  renderBodyTemplate,
  renderUrlTemplate,
  urlTemplateVariables,
  UrlTemplateError,
} from '../../src/custom/index.js';

const from = (values: Record<string, unknown>) => (name: string) => values[name];

describe('body templates', () => {
  it.each([
    ['{ id: $id, name: $name }', { id: 'x1', name: 'Ada' }, { id: 'x1', name: 'Ada' }],
    ['{ "quoted key": $n, nested: { list: [$n, 2, "s", true, null] } }', { n: 3 }, { 'quoted key': 3, nested: { list: [3, 2, 's', true, null] } }],
    ['{ keep: $a, drop: $missing, nullable: $nothing }', { a: [1, 2], nothing: null }, { keep: [1, 2], nullable: null }],
    ['[$missing, $a]', { a: { deep: true } }, [null, { deep: true }]],
    ['$whole', { whole: { any: 'value' } }, { any: 'value' }],
    ['{ a: -1.5e2, b: false, }', {}, { a: -150, b: false }],
    ['{}', { x: 1 }, {}],
  ])('renders %s', (template, values, expected) => {
    expect(renderBodyTemplate(parseBodyTemplate(template), from(values))).toEqual(expected);
  });

  it('lists the variables a template uses', () => {
    expect(bodyTemplateVariables(parseBodyTemplate('{ a: $x, b: [$y, { c: $x }] }'))).toEqual(['x', 'y']);
  });

  it.each([
    ['{ id: $id', 'expected "," or "}" but found the end of the template at column 10'],
    ['{ id $id }', 'expected ":" but found "$" at column 6'],
    ['{ id: id }', 'expected a value ($name, object, array, string, number, true, false or null) but found "i" at column 7'],
    ['{ a: $a, a: $b }', 'the key "a" appears twice at column 10'],
    ['{ a: $ }', 'expected a name but found " " at column 7'],
    ['{ a: "open }', 'unterminated string at column 6'],
    ['{ a: 1 } extra', 'unexpected "e" after the end of the template at column 10'],
    ['[1 2]', 'expected "," or "]" but found "2" at column 4'],
  ])('refuses %s', (template, message) => {
    expect(() => parseBodyTemplate(template)).toThrow(BodyTemplateError);
    expect(() => parseBodyTemplate(template)).toThrow(`${message} of the body template`);
  });
});

describe('url templates', () => {
  it('fills placeholders in the path and query, URL-encoded', () => {
    expect(renderUrlTemplate('http://h/users/$id/posts?q=$q&x=1', from({ id: 'a/b c', q: 'ü&=' })))
      .toBe('http://h/users/a%2Fb%20c/posts?q=%C3%BC%26%3D&x=1');
  });

  it('drops a query parameter whose value is absent and repeats one for a list', () => {
    expect(renderUrlTemplate('http://h/s?a=$a&b=$b&tag=$tags#top', from({ a: 1, b: null, tags: ['x', 'y z'] })))
      .toBe('http://h/s?a=1&tag=x&tag=y%20z#top');
    expect(renderUrlTemplate('http://h/s?b=$b', from({}))).toBe('http://h/s');
  });

  it('refuses a missing or non-scalar value in the path', () => {
    expect(() => renderUrlTemplate('http://h/$id', from({}))).toThrow(new UrlTemplateError('the url placeholder $id has no value'));
    expect(() => renderUrlTemplate('http://h/$id', from({ id: { a: 1 } })))
      .toThrow('the url placeholder $id needs a scalar value, not object');
    expect(() => renderUrlTemplate('http://h/x?a=pre-$id', from({ id: [1] })))
      .toThrow('the url placeholder $id needs a scalar value, not a list');
  });

  it('lists the variables of a url', () => {
    expect(urlTemplateVariables('http://h/$a/$b?c=$a')).toEqual(['a', 'b']);
  });
});

describe('host allow-list', () => {
  const allowed = (url: string, list: string[]) => isHostAllowed(new URL(url), list);

  it('refuses everything with an empty list and allows everything with *', () => {
    expect(allowed('http://example.com/', [])).toBe(false);
    expect(allowed('http://example.com/', ['*'])).toBe(true);
  });

  it('matches host, host:port, subdomain wildcards and IPv6, case-insensitively', () => {
    expect(allowed('http://API.example.com:8080/x', ['api.example.com'])).toBe(true);
    expect(allowed('http://api.example.com:8080/x', ['api.example.com:8080'])).toBe(true);
    expect(allowed('http://api.example.com:8081/x', ['api.example.com:8080'])).toBe(false);
    expect(allowed('https://api.example.com/x', ['api.example.com:443'])).toBe(true);
    expect(allowed('http://a.b.example.com/', ['*.example.com'])).toBe(true);
    expect(allowed('http://example.com/', ['*.example.com'])).toBe(false);
    expect(allowed('http://evil-example.com/', ['*.example.com'])).toBe(false);
    expect(allowed('http://[::1]:9000/', ['[::1]:9000'])).toBe(true);
    expect(allowed('http://127.0.0.2/', ['127.0.0.1'])).toBe(false);
  });

  it('allows only http and https', () => {
    expect(allowed('file:///etc/passwd', ['*'])).toBe(false);
    expect(allowed('ftp://example.com/', ['example.com'])).toBe(false);
  });
});
