import { parsePort } from '../src/server/config.js';

/** The demo's three loopback ports: 4001, 4002 and 4000 unless the environment names others. */

export interface DemoPorts {
  owner: number;
  autograph: number;
  gateway: number;
}

export const DEFAULT_DEMO_PORTS: Readonly<DemoPorts> = { owner: 4001, autograph: 4002, gateway: 4000 };

export const DEMO_PORT_VARIABLES: Readonly<Record<keyof DemoPorts, string>> = {
  owner: 'DEMO_OWNER_PORT',
  autograph: 'DEMO_AUTOGRAPH_PORT',
  gateway: 'DEMO_GATEWAY_PORT',
};

/** The ports from `DEMO_OWNER_PORT`, `DEMO_AUTOGRAPH_PORT` and `DEMO_GATEWAY_PORT` (0: any free port); unset or empty: the default. */
export function demoPortsFrom(env: Readonly<Record<string, string | undefined>>): DemoPorts {
  const ports = { ...DEFAULT_DEMO_PORTS };
  for (const service of Object.keys(DEMO_PORT_VARIABLES) as Array<keyof DemoPorts>) {
    const variable = DEMO_PORT_VARIABLES[service];
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    ports[service] = parsePort(raw, variable);
  }
  return ports;
}
