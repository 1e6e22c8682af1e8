import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { buildSchemaModel } from '../../src/sdl/build.js';
import { errorLines, validModel } from './helpers.js';

const TYPES = 'type Task {\n  id: ID!\n  title: String\n}\n';

/** The PEM on one line with `\n` written as the two characters backslash-n, as users paste it. */
function oneLinePem(pem: string): string {
  return pem.trim().split('\n').join('\\n');
}

const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = publicKey.export({ type: 'spki', format: 'pem' }).toString();

describe('the authorization line', () => {
  it('reads an RS256 configuration with the PEM on one line', () => {
    const line = `# Autograph.Authorization {"VerificationKey":"${oneLinePem(PEM)}","Header":"X-Auth-Token","Namespace":"https://example.com/claims","Algo":"RS256","Audience":["client-1","client-2"]}`;
    const model = validModel(`${TYPES}\n${line}\n\n`);
    expect(model.authorization).toEqual({
      verificationKey: PEM.trim(),
      header: 'X-Auth-Token',
      namespace: 'https://example.com/claims',
      algo: 'RS256',
      audience: ['client-1', 'client-2'],
      closedByDefault: false,
    });
    const key = createPublicKey(model.authorization!.verificationKey);
    expect(key.asymmetricKeyType).toBe('rsa');
  });

  it('accepts the Dgraph marker and an HS256 shared secret', () => {
    const line = '# Dgraph.Authorization {"VerificationKey":"a-shared-secret","Header":"Authorization","Namespace":"ns","Algo":"HS256","ClosedByDefault":true}';
    const model = validModel(`${TYPES}${line}`);
    expect(model.authorization).toEqual({
      verificationKey: 'a-shared-secret', header: 'Authorization', namespace: 'ns', algo: 'HS256', audience: [], closedByDefault: true,
    });
  });

  it('leaves authorization unset when the schema has no such line', () => {
    expect(validModel(`${TYPES}# just a comment\n`).authorization).toBeUndefined();
  });

  it('keeps the source exactly, authorization line included', () => {
    const source = `${TYPES}# Autograph.Authorization {"VerificationKey":"s","Header":"H","Namespace":"n","Algo":"HS256"}\r\n`;
    expect(validModel(source).source).toBe(source);
  });

  const hs = (json: string) => `${TYPES}# Autograph.Authorization ${json}`;
  // The authorization line is line 5 below; its JSON starts at column 27.
  const L = 5;

  it.each<[string, string, string[]]>([
    ['malformed JSON', hs('{"Header": "H",}'), [`${L}:42 Authorization line: the JSON object is malformed`]],
    ['not an object', hs('["Header"]'), [`${L}:27 Authorization line: expected a JSON object after the marker`]],
    ['unknown key', hs('{"VerificationKey":"s","Header":"H","Namespace":"n","Algo":"HS256","JWKUrl":"x"}'),
      [`${L}:94 Authorization line: unknown key "JWKUrl"`]],
    ['missing Header', hs('{"VerificationKey":"s","Namespace":"n","Algo":"HS256"}'), [`${L}:27 Authorization line: "Header" is required`]],
    ['missing Namespace and Algo', hs('{"VerificationKey":"s","Header":"H"}'),
      [`${L}:27 Authorization line: "Namespace" is required`, `${L}:27 Authorization line: "Algo" is required`]],
    ['missing VerificationKey', hs('{"Header":"H","Namespace":"n","Algo":"HS256"}'), [`${L}:27 Authorization line: "VerificationKey" is required`]],
    ['empty Header', hs('{"VerificationKey":"s","Header":"","Namespace":"n","Algo":"HS256"}'),
      [`${L}:50 Authorization line: "Header" must be a non-empty string`]],
    ['empty HS256 secret', hs('{"VerificationKey":"","Header":"H","Namespace":"n","Algo":"HS256"}'),
      [`${L}:28 Authorization line: "VerificationKey" must be a non-empty string`]],
    ['unknown Algo', hs('{"VerificationKey":"s","Header":"H","Namespace":"n","Algo":"ES256"}'),
      [`${L}:79 Authorization line: "Algo" must be RS256 or HS256, found "ES256"`]],
    ['RS256 key that is not a PEM', hs('{"VerificationKey":"not a key","Header":"H","Namespace":"n","Algo":"RS256"}'),
      [`${L}:28 Authorization line: "VerificationKey" is not an RSA public key in PEM form, as RS256 needs`]],
    ['Audience not a list of strings', hs('{"VerificationKey":"s","Header":"H","Namespace":"n","Algo":"HS256","Audience":"a"}'),
      [`${L}:94 Authorization line: "Audience" must be an array of strings`]],
    ['ClosedByDefault not a boolean', hs('{"VerificationKey":"s","Header":"H","Namespace":"n","Algo":"HS256","ClosedByDefault":"yes"}'),
      [`${L}:94 Authorization line: "ClosedByDefault" must be true or false`]],
    ['unknown marker', `${TYPES}# Acme.Authorization {"Header":"H"}`,
      [`${L}:1 Authorization line: unknown authorization marker # Acme.Authorization (use # Autograph.Authorization or # Dgraph.Authorization)`]],
    ['marker not on the last line', `# Autograph.Authorization {"VerificationKey":"s","Header":"H","Namespace":"n","Algo":"HS256"}\n${TYPES}`,
      ['1:1 Authorization line: # Autograph.Authorization must be the last line of the schema']],
  ])('%s', (_, source, expected) => {
    const lines = errorLines(source);
    expect(lines).toHaveLength(expected.length);
    // Messages may end with detail from JSON.parse or node:crypto; the location and our wording must match.
    expected.forEach((prefix, index) => expect(lines[index].slice(0, prefix.length)).toBe(prefix));
  });

  it('rejects an EC key for RS256, naming VerificationKey', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const { errors } = buildSchemaModel(hs(`{"VerificationKey":"${oneLinePem(ec)}","Header":"H","Namespace":"n","Algo":"RS256"}`));
    expect(errors.map((error) => error.message)).toEqual([
      'Authorization line: "VerificationKey" is not an RSA public key in PEM form, as RS256 needs (it is a ec key)',
    ]);
  });

  it('reports authorization errors together with schema errors', () => {
    const source = 'type Task {\n  id: ID!\n  title: Strin\n}\n# Autograph.Authorization {"Header":"H","Namespace":"n","Algo":"HS256"}';
    expect(errorLines(source)).toEqual([
      '3:10 Type Task; field title: unknown type Strin',
      '5:27 Authorization line: "VerificationKey" is required',
    ]);
  });

  it('reports an authorization error even when the schema does not parse', () => {
    const source = 'type Task {\n  id: ID!\n\n# Autograph.Authorization {"Header":"H","Namespace":"n","Algo":"HS256"}';
    expect(errorLines(source)).toEqual([
      '4:27 Authorization line: "VerificationKey" is required',
      '4:72 Syntax Error: Expected Name, found <EOF>.',
    ]);
  });
});
