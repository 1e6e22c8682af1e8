import { authorizeAdmin } from '../../src/server/admin-auth';
import { isLoopbackAddress } from '../../src/server/loopback';
import { HttpError } from '../../src/server/http-io';
import { uploadSchema } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { TASKS_SCHEMA } from './schemas';

function refusal(caller: { remoteAddress?: string; authorization?: string }, token?: string): HttpError | undefined {
  try {
    authorizeAdmin({ remoteAddress: caller.remoteAddress, authorization: caller.authorization }, { token });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return error as HttpError;
  }
}

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])('accepts %s', (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
  });
  it.each(['10.0.0.1', '192.168.1.20', '::2', 'fe80::1', '::ffff:10.0.0.1', '128.0.0.1', 'localhost', '', undefined])(
    'refuses %s',
    (address) => {
      expect(isLoopbackAddress(address)).toBe(false);
    },
  );
});

describe('authorizeAdmin', () => {
  it('without a token, lets loopback callers in and refuses others with 403 naming ADMIN_TOKEN', () => {
    expect(refusal({ remoteAddress: '127.0.0.1' })).toBeUndefined();
    const error = refusal({ remoteAddress: '203.0.113.7', authorization: 'Bearer anything' });
    expect({ status: error?.status, code: error?.code, message: error?.message }).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message:
        'admin endpoints accept only loopback callers when no admin token is configured: ' +
        'set ADMIN_TOKEN (or --admin-token) and send "Authorization: Bearer <token>"',
    });
  });

  it('with a token, requires exactly "Bearer <token>" from any address, loopback included', () => {
    expect(refusal({ remoteAddress: '203.0.113.7', authorization: 'Bearer s3cret' }, 's3cret')).toBeUndefined();
    expect(refusal({ remoteAddress: '203.0.113.7', authorization: 'bearer s3cret' }, 's3cret')).toBeUndefined();
    for (const authorization of [undefined, 's3cret', 'Bearer', 'Bearer s3cre', 'Bearer s3cret2', 'Basic czNjcmV0']) {
      const error = refusal({ remoteAddress: '127.0.0.1', authorization }, 's3cret');
      expect(error?.status).toBe(401);
      expect(error?.code).toBe('UNAUTHENTICATED');
      expect(error?.headers['www-authenticate']).toBe('Bearer realm="autograph-admin"');
    }
  });
});

describe('admin endpoints over HTTP', () => {
  let server: TestServer;
  afterEach(async () => {
    await server.close();
  });

  it('accept loopback callers when no token is configured', async () => {
    server = await startTestServer();
    expect((await uploadSchema(server.url, TASKS_SCHEMA)).status).toBe(200);
  });

  it('require the configured token, and leave /graphql and /health open', async () => {
    server = await startTestServer({ adminToken: 'tok-123' });

    const missing = await uploadSchema(server.url, TASKS_SCHEMA);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      errors: [{ message: 'admin endpoints need the header "Authorization: Bearer <admin token>"', extensions: { code: 'UNAUTHENTICATED' } }],
    });
    const wrong = await uploadSchema(server.url, TASKS_SCHEMA, 'tok-124');
    expect(wrong.status).toBe(401);
    expect((await fetch(`${server.url}/admin/schema`)).status).toBe(401);
    expect(server.app.active).toBeUndefined();

    expect((await uploadSchema(server.url, TASKS_SCHEMA, 'tok-123')).status).toBe(200);
    const text = await fetch(`${server.url}/admin/schema`, { headers: { authorization: 'Bearer tok-123' } });
    expect(await text.text()).toBe(TASKS_SCHEMA);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('check credentials before revealing which admin routes exist', async () => {
    server = await startTestServer({ adminToken: 'tok-123' });
    expect((await fetch(`${server.url}/admin/other`)).status).toBe(401);
    expect((await fetch(`${server.url}/admin/other`, { headers: { authorization: 'Bearer tok-123' } })).status).toBe(404);
  });
});
