import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { DEFAULT_DEMO_PORTS, demoPortsFrom } from '../../gateway-demo/ports';
import { DemoStartError, runWalkthrough, startDemo, graphql, type Demo } from '../../gateway-demo/walkthrough';

/** Issue 4: the gateway-demo's three services in this process, queried across both subgraphs. */

let demo: Demo;

beforeAll(async () => {
  demo = await startDemo({ owner: 0, autograph: 0, gateway: 0 });
});

afterAll(() => demo.close());

test('the walk-through returns astronauts with names from the owner and missions from Autograph', async () => {
  const astronauts = await runWalkthrough(demo);
  expect(astronauts).toEqual([{
    id: expect.any(String),
    name: 'Neil Armstrong',
    missions: expect.arrayContaining([{ designation: 'Gemini 8' }, { designation: 'Apollo 11' }]),
  }]);
  expect(astronauts[0].missions).toHaveLength(2);
});

test('a query starting in Autograph reaches the owner for the crew names', async () => {
  const { queryMission } = await graphql(demo.gatewayUrl, `{ queryMission(order: { asc: designation }) { designation crew { name nationality } } }`);
  expect(queryMission).toEqual([
    { designation: 'Apollo 11', crew: [{ name: 'Neil Armstrong', nationality: 'US' }] },
    { designation: 'Gemini 8', crew: [{ name: 'Neil Armstrong', nationality: 'US' }] },
  ]);
});

test('the gateway exposes the mutations of the extended type, not its queries (spec 4.2, rule 1)', async () => {
  const { __schema } = await graphql(demo.gatewayUrl, `{ __schema { queryType { fields { name } } mutationType { fields { name } } } }`);
  const queries = __schema.queryType.fields.map((field: { name: string }) => field.name);
  const mutations = __schema.mutationType.fields.map((field: { name: string }) => field.name);
  expect(queries).toEqual(expect.arrayContaining(['getMission', 'queryMission', 'aggregateMission', 'astronauts']));
  expect(queries).not.toEqual(expect.arrayContaining(['queryAstronaut']));
  expect(queries).not.toContain('getAstronaut');
  expect(mutations).toEqual(expect.arrayContaining(['addMission', 'updateMission', 'deleteMission']));
  expect(mutations.filter((name: string) => /Astronaut$/.test(name)).sort()).toEqual(['addAstronaut', 'createAstronaut', 'deleteAstronaut', 'updateAstronaut']);
});

test('the gateway and the owner answer browsers from any origin, as startStandaloneServer did (Sandbox calls them)', async () => {
  for (const url of [demo.gatewayUrl, demo.ownerUrl]) {
    const preflight = await fetch(url, { method: 'OPTIONS', headers: { origin: 'https://studio.apollographql.com', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const answer = await fetch(url, { method: 'POST', headers: { origin: 'https://studio.apollographql.com', 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(await answer.json()).toEqual({ data: { __typename: 'Query' } });
  }
});

describe('ports', () => {
  test('DEMO_OWNER_PORT, DEMO_AUTOGRAPH_PORT and DEMO_GATEWAY_PORT override the defaults; unset or empty keep them', () => {
    expect(demoPortsFrom({})).toEqual({ owner: 4001, autograph: 4002, gateway: 4000 });
    expect(demoPortsFrom({ DEMO_OWNER_PORT: '4211', DEMO_AUTOGRAPH_PORT: '', DEMO_GATEWAY_PORT: '0' })).toEqual({ owner: 4211, autograph: 4002, gateway: 0 });
    expect(DEFAULT_DEMO_PORTS).toEqual({ owner: 4001, autograph: 4002, gateway: 4000 });
  });

  test.each(['80a', '-1', '65536', '4001.5', ' 4001'])('a bad port %j is refused naming the variable', (raw) => {
    expect(() => demoPortsFrom({ DEMO_GATEWAY_PORT: raw })).toThrow(`DEMO_GATEWAY_PORT: expected a port number from 0 to 65535, got "${raw}"`);
  });

  /** A port that was free a moment ago. */
  async function freePort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    await new Promise((done) => server.close(done));
    return port;
  }

  test('the demo command runs the walk-through on the ports the environment names', async () => {
    const [owner, autograph, gateway] = [await freePort(), await freePort(), await freePort()];
    const root = resolve(__dirname, '../..');
    const child = spawn(process.execPath, ['-r', join(root, '__tests__/helpers/register-ts.cjs'), join(root, 'gateway-demo/walkthrough.ts')], {
      cwd: root,
      env: { ...process.env, DEMO_OWNER_PORT: String(owner), DEMO_AUTOGRAPH_PORT: String(autograph), DEMO_GATEWAY_PORT: String(gateway) },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code === 0 ? 'exit 0' : `exit ${code}: ${stderr}`).toBe('exit 0');
    expect(stdout).toContain(`owner http://127.0.0.1:${owner}/`);
    expect(stdout).toContain(`autograph http://127.0.0.1:${autograph}/graphql`);
    expect(stdout).toContain(`gateway http://127.0.0.1:${gateway}/`);
    expect(stdout).toContain('"name": "Neil Armstrong"');
  }, 120_000);
});

describe('a demo port already in use', () => {
  test('startDemo refuses with a one-line hint naming the port, the service and its variable', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const { port } = blocker.address() as { port: number };
    try {
      const refusal = startDemo({ owner: 0, autograph: 0, gateway: port });
      await expect(refusal).rejects.toBeInstanceOf(DemoStartError);
      await expect(refusal).rejects.toMatchObject({
        message: `port ${port} (the gateway) is already in use: stop the program listening there, or choose another port with DEMO_GATEWAY_PORT=<port>`,
        cause: { code: 'EADDRINUSE' },
      });
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  }, 60_000);

  test('the demo command prints that one line, no stack trace, and exits 1', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const { port } = blocker.address() as { port: number };
    try {
      const root = resolve(__dirname, '../..');
      const child = spawn(process.execPath, ['-r', join(root, '__tests__/helpers/register-ts.cjs'), join(root, 'gateway-demo/walkthrough.ts')], {
        cwd: root,
        env: { ...process.env, DEMO_OWNER_PORT: String(port), DEMO_AUTOGRAPH_PORT: '0', DEMO_GATEWAY_PORT: '0' },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((done) => child.on('close', done));
      expect(code).toBe(1);
      expect(stderr).toBe(`port ${port} (the owner service) is already in use: stop the program listening there, or choose another port with DEMO_OWNER_PORT=<port>\n`);
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  }, 120_000);
});
