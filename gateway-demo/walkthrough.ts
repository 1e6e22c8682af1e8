import { startAutograph } from './autograph.js';
import { startGateway } from './gateway.js';
import { startOwnerService, type FederationVariant, type RunningService } from './owner.js';
import { exitOnStartFailure, portInUseHint } from './port-in-use.js';
import { DEMO_PORT_VARIABLES, demoPortsFrom, type DemoPorts } from './ports.js';

/**
 * The demo: the owning service, Autograph and a gateway on loopback (Federation 1 schemas, or with
 * `--fed2` Federation 2 ones), then a scripted walk-through that
 * creates an astronaut in the owner, adds it to Autograph under the same id, adds missions, and queries
 * astronauts with names and missions through the gateway.
 */

export interface Demo {
  ownerUrl: string;
  autographUrl: string;
  gatewayUrl: string;
  close(): Promise<void>;
}

/** A demo service that could not listen because its port is taken; the message is the one-line hint. */
export class DemoStartError extends Error {
  constructor(hint: string, cause: unknown) {
    super(hint, { cause });
    this.name = 'DemoStartError';
  }
}

export async function startDemo(ports: DemoPorts, variant: FederationVariant = 1): Promise<Demo> {
  const started: RunningService[] = [];
  /** Starts one service; a taken port becomes a DemoStartError naming its DEMO_*_PORT variable. */
  const start = async (service: keyof DemoPorts, label: string, run: () => Promise<RunningService>) => {
    try {
      const running = await run();
      started.push(running);
      return running;
    } catch (error) {
      const hint = portInUseHint(error, label, ports[service], DEMO_PORT_VARIABLES[service]);
      throw hint === undefined ? error : new DemoStartError(hint, error);
    }
  };
  try {
    const owner = await start('owner', 'owner service', () => startOwnerService(ports.owner, '127.0.0.1', variant));
    const autograph = await start('autograph', 'demo Autograph', () => startAutograph(ports.autograph, undefined, variant));
    const gateway = await start('gateway', 'gateway', () =>
      startGateway([
        { name: 'astronauts', url: owner.url },
        { name: 'missions', url: autograph.url },
      ], ports.gateway),
    );
    return {
      ownerUrl: owner.url,
      autographUrl: autograph.url,
      gatewayUrl: gateway.url,
      close: async () => { for (const service of started.reverse()) await service.close(); },
    };
  } catch (error) {
    for (const service of started.reverse()) await service.close();
    throw error;
  }
}

export async function graphql<T = any>(url: string, query: string, variables?: Record<string, unknown>): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (body.errors) throw new Error(`${url} answered errors: ${JSON.stringify(body.errors)}`);
  return body.data as T;
}

export interface AstronautView {
  id: string;
  name: string;
  missions: Array<{ designation: string }>;
}

export async function runWalkthrough(demo: Demo, log: (line: string) => void = () => {}): Promise<AstronautView[]> {
  const { createAstronaut: astronaut } = await graphql(demo.ownerUrl, `mutation { createAstronaut(name: "Neil Armstrong", nationality: "US", firstFlightYear: 1966) { id name } }`);
  log(`1. owner service created ${JSON.stringify(astronaut)}`);

  await graphql(demo.autographUrl, `mutation($id: ID!) { addAstronaut(input: [{ id: $id }]) { numUids } }`, { id: astronaut.id });
  log(`2. Autograph added Astronaut ${astronaut.id} (same id as the owner's)`);

  const { addMission } = await graphql(demo.autographUrl, `mutation($id: ID!) {
    addMission(input: [
      { designation: "Gemini 8", startDate: "1966-03-16", crew: [{ id: $id }] },
      { designation: "Apollo 11", startDate: "1969-07-16", endDate: "1969-07-24", crew: [{ id: $id }] }
    ]) { mission { id designation } }
  }`, { id: astronaut.id });
  log(`3. Autograph added missions ${JSON.stringify(addMission.mission)}`);

  const { astronauts } = await graphql(demo.gatewayUrl, `{ astronauts { id name missions { designation } } }`);
  log(`4. through the gateway: ${JSON.stringify(astronauts, null, 2)}`);
  return astronauts;
}

if (require.main === module) {
  const keep = process.argv.includes('--keep');
  const variant: FederationVariant = process.argv.includes('--fed2') ? 2 : 1;
  Promise.resolve()
    .then(() => startDemo(demoPortsFrom(process.env), variant))
    .then(async (demo) => {
      console.log(`Federation ${variant}\nowner ${demo.ownerUrl}\nautograph ${demo.autographUrl}\ngateway ${demo.gatewayUrl}\n`);
      await runWalkthrough(demo, console.log);
      if (keep) console.log('\nall three keep running (Ctrl+C stops them)');
      else await demo.close();
    })
    .catch((error: unknown) => exitOnStartFailure(error, error instanceof DemoStartError ? error.message : undefined));
}
