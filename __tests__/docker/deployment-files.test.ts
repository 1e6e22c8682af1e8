/**
 * No Docker engine runs here: the compose file and the Dockerfile are read as data and checked for the
 * properties an operator relies on (no default admin token, loopback-only ports, resource limits, an LTS
 * Node base image, an unprivileged user, a liveness health check).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const DOCKER = join(__dirname, '../../docker');
const composeText = readFileSync(join(DOCKER, 'docker-compose.yml'), 'utf8');
const dockerfile = readFileSync(join(DOCKER, 'Dockerfile'), 'utf8');

interface ComposeService {
  environment?: Record<string, string>;
  ports?: string[];
  deploy?: { resources?: { limits?: { cpus?: string; memory?: string } } };
  depends_on?: Record<string, { condition: string }>;
}
const compose = parse(composeText) as { services: Record<string, ComposeService> };
const services = Object.entries(compose.services);

/** Compose's `${VAR}`, `${VAR:-default}` and `${VAR:?error}` for one value, as `docker compose config` resolves them. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?:(:-|:\?)([^}]*))?\}/g, (_match, name: string, kind: string | undefined, rest: string) => {
    const set = env[name] !== undefined && env[name] !== '';
    if (set) return env[name]!;
    if (kind === ':?') throw new Error(`required variable ${name} is missing a value: ${rest}`);
    return kind === ':-' ? rest : '';
  });
}

describe('docker-compose.yml', () => {
  it('gives the admin token no default: compose refuses to start without ADMIN_TOKEN', () => {
    const tokens = services.filter(([, service]) => service.environment?.ADMIN_TOKEN !== undefined);
    expect(tokens.map(([name]) => name).sort()).toEqual(['autograph', 'schema-loader']);
    for (const [, service] of tokens) {
      const value = service.environment!.ADMIN_TOKEN!;
      expect(value).toMatch(/^\$\{ADMIN_TOKEN:\?[^}]+\}$/);
      expect(() => interpolate(value, {})).toThrow('required variable ADMIN_TOKEN is missing a value: set ADMIN_TOKEN to a long random string');
      expect(interpolate(value, { ADMIN_TOKEN: 's3cret' })).toBe('s3cret');
    }
    expect(composeText).not.toMatch(/ADMIN_TOKEN:-/);
  });

  it('publishes every port on 127.0.0.1 unless PUBLISH_HOST says otherwise', () => {
    const published = services.flatMap(([, service]) => service.ports ?? []);
    expect(published.map((port) => interpolate(port, {})).sort()).toEqual(['127.0.0.1:4000:4000', '127.0.0.1:4001:4001', '127.0.0.1:8080:8080']);
    expect(published.map((port) => interpolate(port, { PUBLISH_HOST: '0.0.0.0' }))).toContain('0.0.0.0:8080:8080');
  });

  it('limits the CPU and memory of every service', () => {
    for (const [name, service] of services) {
      const limits = service.deploy?.resources?.limits;
      expect({ name, cpus: typeof limits?.cpus, memory: limits?.memory }).toEqual({ name, cpus: 'string', memory: expect.stringMatching(/^\d+[MG]$/) });
    }
  });

  it('uploads the schema only once the service answers, and starts the gateway after the upload', () => {
    expect(compose.services['schema-loader']!.depends_on).toEqual({ autograph: { condition: 'service_healthy' } });
    expect(compose.services.gateway!.depends_on?.['schema-loader']).toEqual({ condition: 'service_completed_successfully' });
  });
});

describe('Dockerfile', () => {
  it('builds on a Node LTS line of 24 or later (an even major version)', () => {
    const base = /^ARG NODE_IMAGE=node:(\d+)-[a-z]+-slim$/m.exec(dockerfile);
    expect(base).not.toBeNull();
    const major = Number(base![1]);
    expect(major).toBeGreaterThanOrEqual(24);
    expect(major % 2).toBe(0);
    expect(dockerfile.match(/^FROM \S+/gm)).toEqual(['FROM ${NODE_IMAGE}', 'FROM build', 'FROM ${NODE_IMAGE}']);
  });

  it('runs the service as the unprivileged node user, with a liveness health check on /health', () => {
    const runtime = dockerfile.slice(dockerfile.indexOf(' AS runtime'));
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\\\n\s+CMD \[.*'\/health'\)/m);
    expect(runtime).not.toMatch(/ADMIN_TOKEN/);
  });

  it('copies the browser pages\' own files, which the service reads from src/server/ui at run time, and the production dependencies that hold GraphiQL', () => {
    const runtime = dockerfile.slice(dockerfile.indexOf(' AS runtime'));
    expect(runtime).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    expect(runtime).toMatch(/^COPY --from=build \/app\/src\/server\/ui \.\/src\/server\/ui$/m);
    expect(runtime).toMatch(/^RUN npm ci --omit=dev/m);
    const packageJson = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(packageJson.dependencies)).toEqual(expect.arrayContaining(['graphiql', 'react', 'react-dom']));
  });
});
