import { bodyPlaceholders, urlPathPlaceholders } from '../../src/sdl/template-placeholders.js';

/** The `$name` placeholders sdl/ reads out of `@custom(http:)` templates for its rules. */
describe('bodyPlaceholders', () => {
  it.each([
    ['{ id: $id, name: $name }', ['id', 'name']],
    ['{ author: { id: $id }, tags: [$tag, $tag] }', ['id', 'tag']],
    ['{ note: "costs $5 or $price", price: $price }', ['price']],
    ['{ quoted: "a \\" $inside", after: $after }', ['after']],
    ['{ "key": $value_1 }', ['value_1']],
    ['$whole', ['whole']],
    ['{ cost: $ }', []],
    ['{}', []],
  ])('%s → %j', (template, expected) => {
    expect(bodyPlaceholders(template)).toEqual(expected);
  });
});

describe('urlPathPlaceholders', () => {
  it.each([
    ['http://api.example/users/$id', ['id']],
    ['http://api.example/$org/repos/$repo?sort=$sort', ['org', 'repo']],
    ['http://api.example/search?q=$q&lang=$lang', []],
    ['http://api.example/$a/$a#$frag', ['a']],
  ])('%s → %j', (url, expected) => {
    expect(urlPathPlaceholders(url)).toEqual(expected);
  });
});
