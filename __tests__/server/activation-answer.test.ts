import { refusedUploadBody } from '../../src/server/activation-answer';

describe('refusedUploadBody', () => {
  const errors = [{ message: 'Type A: no ID field', locations: [{ line: 1, column: 6 }] }, { message: 'second' }];

  test.each<[number, string]>([
    [400, 'BAD_SCHEMA'],
    [503, 'STORE_UNAVAILABLE'],
    [500, 'INTERNAL_SERVER_ERROR'],
  ])('HTTP %d: every error keeps message and locations and carries %s', (status, code) => {
    expect(refusedUploadBody(status, errors, 'BAD_SCHEMA')).toEqual({
      errors: [
        { message: 'Type A: no ID field', locations: [{ line: 1, column: 6 }], extensions: { code } },
        { message: 'second', extensions: { code } },
      ],
    });
  });
});
