import { customHttpProblems, lambdaFieldsOf, missingLambdaResolvers, resolverNameFor } from '../../src/custom/index.js';
import { FEDERATION_1, type CustomHttpConfig, type FieldModel, type SchemaModel, type TypeModel } from '../../src/sdl/model.js';

let line = 0;

function field(name: string, extra: Partial<FieldModel> = {}): FieldModel {
  line += 1;
  return {
    name, typeText: 'String', namedType: 'String', of: { kind: 'scalar', scalar: 'String' }, list: false, nonNull: false,
    itemNonNull: false, isIdField: false, isUniqueId: false, search: [], external: false, lambda: false, args: [],
    loc: { line, column: 3 }, ...extra,
  };
}

function type(name: string, fields: FieldModel[], kind: TypeModel['kind'] = 'type'): TypeModel {
  return {
    name, kind, fields, fieldsByName: new Map(fields.map((f) => [f.name, f])), implements: [], keys: [], extended: false, loc: { line: 1, column: 1 },
  };
}

function model(types: TypeModel[], customQueries: FieldModel[] = [], customMutations: FieldModel[] = []): SchemaModel {
  return { types: new Map(types.map((t) => [t.name, t])), enums: new Map(), customQueries, customMutations, federation: FEDERATION_1, source: '' };
}

const http = (partial: Partial<CustomHttpConfig>): CustomHttpConfig => ({
  url: 'http://api.test/x', method: 'GET', forwardHeaders: [], secretHeaders: [], mode: 'SINGLE', ...partial,
});

describe('lambda fields of a schema', () => {
  const named = field('named', { lambda: true, inheritedFrom: 'Named' });
  const fullName = field('fullName', { lambda: true });
  const schema = model(
    [
      type('Named', [field('named', { lambda: true })], 'interface'),
      type('User', [field('id', { isIdField: true }), named, fullName, field('plain')]),
    ],
    [field('search', { lambda: true }), field('remote', { custom: http({}) })],
    [field('addThing', { lambda: true })],
  );

  it('lists type, query and mutation lambda fields with their candidate resolver names', () => {
    expect(lambdaFieldsOf(schema).map((f) => [f.typeName, f.candidates])).toEqual([
      ['User', ['User.named', 'Named.named']],
      ['User', ['User.fullName']],
      ['Query', ['Query.search']],
      ['Mutation', ['Mutation.addThing']],
    ]);
  });

  it('prefers the type-specific resolver and falls back to the interface one', () => {
    const [inherited] = lambdaFieldsOf(schema);
    expect(resolverNameFor(inherited!, new Set(['Named.named', 'User.named']))).toBe('User.named');
    expect(resolverNameFor(inherited!, new Set(['Named.named']))).toBe('Named.named');
    expect(resolverNameFor(inherited!, new Set())).toBeUndefined();
  });

  it('reports every lambda field the script does not serve, with its location', () => {
    expect(missingLambdaResolvers(schema, new Set(['Named.named', 'Query.search']))).toEqual([
      {
        message: 'User.fullName has @lambda, but the lambda script registers no resolver for it (expected "User.fullName")',
        locations: [fullName.loc],
      },
      {
        message: 'Mutation.addThing has @lambda, but the lambda script registers no resolver for it (expected "Mutation.addThing")',
        locations: [schema.customMutations[0]!.loc],
      },
    ]);
  });
});

describe('@custom(http:) schema checks', () => {
  const problemsOf = (config: CustomHttpConfig, args: string[] = [], secretNames?: Set<string>) => {
    const custom = field('remote', { custom: config, args: args.map((name) => ({ name, typeText: 'String', namedType: 'String' })) });
    const schema = model([type('Post', [field('id', { isIdField: true }), field('title'), field('score', { lambda: true }), custom])]);
    return customHttpProblems(schema, { secretNames }).map((p) => p.message.replace('Post.remote @custom(http:): ', ''));
  };

  it('accepts placeholders that name arguments or stored fields of the type', () => {
    expect(problemsOf(http({ url: 'http://api.test/p/$id?q=$q', method: 'POST', body: '{ t: $title, q: $q }' }), ['q'])).toEqual([]);
  });

  it('reports each problem of a configuration', () => {
    expect(problemsOf(http({ url: 'api.test/$nope', method: 'FETCH', body: '{ a: $score, b: $id' }))).toEqual([
      'the method FETCH is not one of GET, POST, PUT, PATCH, DELETE',
      'the url "api.test/$nope" is not an absolute URL',
      'the url placeholder $nope is not an argument or a field of the type',
      'expected "," or "}" but found the end of the template at column 20 of the body template',
    ]);
    expect(problemsOf(http({ url: 'ftp://api.test/', body: '{ a: $score }' }))).toEqual([
      'the url must use http or https, not ftp',
      'the body placeholder $score is not an argument or a field of the type',
    ]);
  });

  it('applies the BATCH rules', () => {
    expect(problemsOf(http({ url: 'http://api.test/$id', method: 'POST', mode: 'BATCH' }))).toEqual([
      'the url placeholder $id is not an argument (in mode BATCH the url sees only arguments)',
      'mode BATCH needs a body template (one entry per parent is sent as a JSON array)',
    ]);
  });

  it('checks secret headers against the configured secret names when given', () => {
    const config = http({ secretHeaders: ['X-Key', 'X-Token:TOKEN'] });
    expect(problemsOf(config)).toEqual([]);
    expect(problemsOf(config, [], new Set(['X-Key']))).toEqual(['the secret header X-Token:TOKEN needs a configured secret named TOKEN: set the environment variable CUSTOM_SECRET_TOKEN for the service']);
  });
});
