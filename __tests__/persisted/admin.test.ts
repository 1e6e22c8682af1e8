import { answerManifestUpload, ManifestError, type ManifestResult } from '../../src/persisted/index.js';
import { StoreUnavailableError } from '../../src/store/port.js';

const COUNTS: ManifestResult = { operations: 3, added: 2, alreadyRegistered: 1 };

function registering(outcome: () => ManifestResult) {
  const received: unknown[] = [];
  const register = async (manifest: unknown) => {
    received.push(manifest);
    return outcome();
  };
  return { register, received };
}

test('a registered manifest answers 200 with the counts, and the parsed body is what gets registered', async () => {
  const { register, received } = registering(() => COUNTS);
  for (const body of ['{"format":"x","operations":[]}', Buffer.from('{"format":"x","operations":[]}')]) {
    expect(await answerManifestUpload(register, body)).toEqual({
      status: 200,
      body: { data: { message: 'persisted query manifest registered', operations: 3, added: 2, alreadyRegistered: 1 } },
    });
  }
  expect(received).toEqual([
    { format: 'x', operations: [] },
    { format: 'x', operations: [] },
  ]);
});

test.each([
  [
    'a body that is not JSON',
    '{"format":',
    () => COUNTS,
    400,
    [{ message: 'persisted query manifest refused: the body is not valid JSON: Unexpected end of JSON input', extensions: { code: 'BAD_MANIFEST' } }],
  ],
  [
    'a manifest with two problems',
    '{}',
    () => {
      throw new ManifestError(['format must be "apollo-persisted-query-manifest", got nothing', 'version must be 1, got nothing']);
    },
    400,
    [
      { message: 'persisted query manifest refused: format must be "apollo-persisted-query-manifest", got nothing', extensions: { code: 'BAD_MANIFEST' } },
      { message: 'persisted query manifest refused: version must be 1, got nothing', extensions: { code: 'BAD_MANIFEST' } },
    ],
  ],
  [
    'a store that is unavailable',
    '{}',
    () => {
      throw new StoreUnavailableError('connection refused');
    },
    503,
    [{ message: 'data store unavailable: connection refused', extensions: { code: 'STORE_UNAVAILABLE' } }],
  ],
])('%s', async (_label, body, outcome, status, errors) => {
  expect(await answerManifestUpload(registering(outcome).register, body)).toEqual({ status, body: { errors } });
});

test('a body that is not JSON is never registered', async () => {
  const { register, received } = registering(() => COUNTS);
  await answerManifestUpload(register, 'not json');
  expect(received).toEqual([]);
});

test('any other failure propagates, for the server to answer 500', async () => {
  const failure = new Error('disk full');
  await expect(
    answerManifestUpload(async () => {
      throw failure;
    }, '{}'),
  ).rejects.toBe(failure);
});
