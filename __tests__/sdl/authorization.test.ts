import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
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
    const key = createPublicKey(model.authorization!.verificationKey!);
    expect(key.asymmetricKeyType).toBe('rsa');
  });

  it('accepts the Dgraph marker and an HS256 shared secret', () => {
    const line = '# Dgraph.Authorization {"VerificationKey":"a-shared-secret","Header":"Authorization","Namespace":"ns","Algo":"HS256","ClosedByDefault":true}';
    const model = validModel(`${TYPES}${line}`);
    expect(model.authorization).toEqual({
      verificationKey: 'a-shared-secret', header: 'Authorization', namespace: 'ns', algo: 'HS256', audience: [], closedByDefault: true,
    });
  });

  it.each<[string, KeyObject]>([
    ['ES256', generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey],
    ['EdDSA', generateKeyPairSync('ed25519').publicKey],
  ])('reads an %s configuration with its public key', (algo, publicKey) => {
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const model = validModel(`${TYPES}# Autograph.Authorization {"VerificationKey":"${oneLinePem(pem)}","Header":"H","Namespace":"n","Algo":"${algo}"}`);
    expect(model.authorization).toEqual({ verificationKey: pem.trim(), header: 'H', namespace: 'n', algo, audience: [], closedByDefault: false });
  });

  it('rejects an Ed448 key for EdDSA (Ed25519 only) and a P-384 key for ES256', () => {
    const ed448 = generateKeyPairSync('ed448').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(buildSchemaModel(hs(`{"VerificationKey":"${oneLinePem(ed448)}","Header":"H","Namespace":"n","Algo":"EdDSA"}`)).errors.map((e) => e.message)).toEqual([
      'Authorization line: "VerificationKey" is not an Ed25519 public key in PEM form, as EdDSA needs (it is a ed448 key)',
    ]);
    expect(buildSchemaModel(hs(`{"VerificationKey":"${oneLinePem(p384)}","Header":"H","Namespace":"n","Algo":"ES256"}`)).errors.map((e) => e.message)).toEqual([
      'Authorization line: "VerificationKey" is not an EC P-256 public key in PEM form, as ES256 needs (its curve is secp384r1)',
    ]);
  });

  it.each<[string, string, string[]]>([
    ['JWKUrl', '"JWKUrl":"https://issuer.example/.well-known/jwks.json"', ['https://issuer.example/.well-known/jwks.json']],
    ['JWKUrls', '"JWKUrls":["https://a.example/jwks.json","http://127.0.0.1:9000/keys"]', ['https://a.example/jwks.json', 'http://127.0.0.1:9000/keys']],
  ])('reads %s as a list of key set URLs, without VerificationKey or Algo', (_name, urls, expected) => {
    const model = validModel(`${TYPES}# Dgraph.Authorization {${urls},"Header":"H","Namespace":"n","Audience":["aud"]}`);
    expect(model.authorization).toEqual({ jwkUrls: expected, header: 'H', namespace: 'n', audience: ['aud'], closedByDefault: false });
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
    ['unknown key', hs('{"VerificationKey":"s","Header":"H","Namespace":"n","Algo":"HS256","Issuer":"x"}'),
      [`${L}:94 Authorization line: unknown key "Issuer"`]],
    ['missing Header', hs('{"VerificationKey":"s","Namespace":"n","Algo":"HS256"}'), [`${L}:27 Authorization line: "Header" is required`]],
    ['missing Namespace and Algo', hs('{"VerificationKey":"s","Header":"H"}'),
      [`${L}:27 Authorization line: "Namespace" is required`, `${L}:27 Authorization line: "Algo" is required`]],
    ['missing VerificationKey', hs('{"Header":"H","Namespace":"n","Algo":"HS256"}'),
      [`${L}:27 Authorization line: "VerificationKey" is required (or JWKUrl/JWKUrls instead of VerificationKey and Algo)`]],
    ['empty Header', hs('{"VerificationKey":"s","Header":"","Namespace":"n","Algo":"HS256"}'),
      [`${L}:50 Authorization line: "Header" must be a non-empty string`]],
    ['empty HS256 secret', hs('{"VerificationKey":"","Header":"H","Namespace":"n","Algo":"HS256"}'),
      [`${L}:28 Authorization line: "VerificationKey" must be a non-empty string`]],
    ['unknown Algo', hs('{"VerificationKey":"s","Header":"H","Namespace":"n","Algo":"PS256"}'),
      [`${L}:79 Authorization line: "Algo" must be RS256, HS256, ES256 or EdDSA, found "PS256"`]],
    ['ES256 key that is not a PEM', hs('{"VerificationKey":"not a key","Header":"H","Namespace":"n","Algo":"ES256"}'),
      [`${L}:28 Authorization line: "VerificationKey" is not an EC P-256 public key in PEM form, as ES256 needs`]],
    ['JWKUrl and JWKUrls together', hs('{"JWKUrl":"https://a.example/k","JWKUrls":["https://b.example/k"],"Header":"H","Namespace":"n","Audience":["a"]}'),
      [`${L}:59 Authorization line: give either "JWKUrl" or "JWKUrls", not both`]],
    ['JWKUrl with VerificationKey and Algo', hs('{"JWKUrl":"https://a.example/k","VerificationKey":"s","Algo":"HS256","Header":"H","Namespace":"n","Audience":["a"]}'),
      [`${L}:59 Authorization line: "VerificationKey" is not used with JWKUrl/JWKUrls: the key set's keys name their algorithms`,
        `${L}:81 Authorization line: "Algo" is not used with JWKUrl/JWKUrls: the key set's keys name their algorithms`]],
    ['JWKUrl without Audience', hs('{"JWKUrl":"https://a.example/k","Header":"H","Namespace":"n"}'),
      [`${L}:28 Authorization line: "Audience" is required with JWKUrl or JWKUrls`]],
    ['JWKUrl that is not an http(s) URL', hs('{"JWKUrl":"file:///etc/keys.json","Header":"H","Namespace":"n","Audience":["a"]}'),
      [`${L}:28 Authorization line: "JWKUrl" must hold http:// or https:// URLs, found "file:///etc/keys.json"`]],
    ['JWKUrl without Audience, and with Algo', hs('{"JWKUrl":"https://a.example/k","Algo":"EdDSA","Header":"H","Namespace":"n"}'),
      [`${L}:28 Authorization line: "Audience" is required with JWKUrl or JWKUrls`, `${L}:59 Authorization line: "Algo" is not used with JWKUrl/JWKUrls`]],
    ['JWKUrls empty', hs('{"JWKUrls":[],"Header":"H","Namespace":"n","Audience":["a"]}'),
      [`${L}:28 Authorization line: "JWKUrls" must be a non-empty array of URLs`]],
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
      '5:27 Authorization line: "VerificationKey" is required (or JWKUrl/JWKUrls instead of VerificationKey and Algo)',
    ]);
  });

  it('reports an authorization error even when the schema does not parse', () => {
    const source = 'type Task {\n  id: ID!\n\n# Autograph.Authorization {"Header":"H","Namespace":"n","Algo":"HS256"}';
    expect(errorLines(source)).toEqual([
      '4:27 Authorization line: "VerificationKey" is required (or JWKUrl/JWKUrls instead of VerificationKey and Algo)',
      '4:72 Syntax Error: Expected Name, found <EOF>.',
    ]);
  });
});
