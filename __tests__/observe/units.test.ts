import { ConfigError, parseCommandLine } from '../../src/server/config.js';
import { authorizeMetrics } from '../../src/server/admin-auth.js';
import { HttpError } from '../../src/server/http-io.js';
import { LabelCap } from '../../src/observe/label-cap.js';
import { outcomeOf } from '../../src/observe/request-observation.js';
import { requestIdOf } from '../../src/observe/request-id.js';
import { OtlpConfigError, otlpTraceProtocolOf } from '../../src/observe/otlp-config.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('outcomeOf: the outcome label of a request', () => {
  it.each([
    { codes: [], status: 200, outcome: 'ok' },
    { codes: ['BAD_USER_INPUT'], status: 200, outcome: 'BAD_USER_INPUT' },
    { codes: ['GRAPHQL_VALIDATION_FAILED'], status: 400, outcome: 'GRAPHQL_VALIDATION_FAILED' },
    { codes: ['FORBIDDEN', 'BAD_USER_INPUT'], status: 200, outcome: 'FORBIDDEN' },
    { codes: ['BAD_USER_INPUT', 'STORE_UNAVAILABLE'], status: 200, outcome: 'server_error' },
    { codes: ['INTERNAL_SERVER_ERROR'], status: 500, outcome: 'server_error' },
    // A code this service never answers (a lambda's own) counts as the service's, so the label stays bounded.
    { codes: ['MY_LAMBDA_CODE'], status: 200, outcome: 'server_error' },
    { codes: [], status: 503, outcome: 'server_error' },
    { codes: [], status: 405, outcome: 'client_error' },
  ])('$codes with HTTP $status → $outcome', ({ codes, status, outcome }) => {
    expect(outcomeOf({ requestId: 'r', errorCodes: codes }, status)).toBe(outcome);
  });
});

describe('LabelCap', () => {
  it('keeps the first distinct values, then answers "other"; the empty value and known values always pass', () => {
    const cap = new LabelCap(2, 10);
    expect(['a', 'b', 'a', 'c', '', 'b', 'c'].map((value) => cap.label(value))).toEqual(['a', 'b', 'a', 'other', '', 'b', 'other']);
  });

  it('answers "other" for a value longer than the length limit, without using up a slot', () => {
    const cap = new LabelCap(1, 3);
    expect([cap.label('long'), cap.label('abc'), cap.label('abd')]).toEqual(['other', 'abc', 'other']);
  });
});

describe('requestIdOf', () => {
  it.each([
    { given: 'abc-123', kept: true },
    { given: 'f47ac10b-58cc-4372-a567-0e02b2c3d479', kept: true },
    { given: 'x'.repeat(128), kept: true },
    { given: 'x'.repeat(129), kept: false },
    { given: 'two words', kept: false },
    { given: 'line\nbreak', kept: false },
    { given: 'é', kept: false },
    { given: '', kept: false },
    { given: undefined, kept: false },
  ])('$given kept: $kept', ({ given, kept }) => {
    const id = requestIdOf(given);
    if (kept) expect(id).toBe(given);
    else expect(id).toMatch(UUID);
  });

  it('takes the first of repeated headers', () => {
    expect(requestIdOf(['first', 'second'])).toBe('first');
  });
});

describe('otlpTraceProtocolOf: the OTLP protocol the environment asks for', () => {
  it.each([
    { env: {}, protocol: 'http/protobuf' },
    { env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, protocol: 'http/json' },
    { env: { OTEL_EXPORTER_OTLP_PROTOCOL: ' http/protobuf ' }, protocol: 'http/protobuf' },
    { env: { OTEL_EXPORTER_OTLP_PROTOCOL: '' }, protocol: 'http/protobuf' },
    // The signal's own variable wins over the general one.
    { env: { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }, protocol: 'http/json' },
    { env: { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, protocol: 'http/protobuf' },
  ])('$env → $protocol', ({ env, protocol }) => {
    expect(otlpTraceProtocolOf(env)).toBe(protocol);
  });

  it.each([
    { env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, variable: 'OTEL_EXPORTER_OTLP_PROTOCOL=grpc' },
    { env: { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'HTTP/JSON' }, variable: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=HTTP/JSON' },
  ])('$env is refused, naming the variable', ({ env, variable }) => {
    expect(() => otlpTraceProtocolOf(env)).toThrow(OtlpConfigError);
    expect(() => otlpTraceProtocolOf(env)).toThrow(`${variable} is not supported: set it to http/protobuf or http/json`);
  });
});

describe('authorizeMetrics', () => {
  const refusal = (caller: { remoteAddress?: string; authorization?: string }, token?: string) => {
    try {
      authorizeMetrics({ remoteAddress: caller.remoteAddress, authorization: caller.authorization }, { token });
      return 'allowed';
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return `${error.status} ${error.code}`;
    }
  };

  it.each([
    { caller: { remoteAddress: '127.0.0.1' }, token: undefined, answer: 'allowed' },
    { caller: { remoteAddress: '::ffff:127.0.0.1' }, token: undefined, answer: 'allowed' },
    { caller: { remoteAddress: '10.0.0.7' }, token: undefined, answer: '403 FORBIDDEN' },
    { caller: { remoteAddress: '10.0.0.7', authorization: 'Bearer t0ken' }, token: 't0ken', answer: 'allowed' },
    { caller: { remoteAddress: '127.0.0.1' }, token: 't0ken', answer: '401 UNAUTHENTICATED' },
    { caller: { remoteAddress: '10.0.0.7', authorization: 'Bearer wrong' }, token: 't0ken', answer: '401 UNAUTHENTICATED' },
  ])('$caller with token $token → $answer', ({ caller, token, answer }) => {
    expect(refusal(caller, token)).toBe(answer);
  });
});

describe('--metrics and --metrics-token', () => {
  const configOf = (argv: string[], env: Record<string, string | undefined> = {}) => {
    const parsed = parseCommandLine(argv, env);
    if (parsed.kind !== 'run') throw new Error('expected a run configuration');
    return { metrics: parsed.config.metrics, metricsToken: parsed.config.metricsToken };
  };

  it.each([
    { argv: [], env: {}, expected: { metrics: undefined, metricsToken: undefined } },
    { argv: ['--metrics=false'], env: {}, expected: { metrics: false, metricsToken: undefined } },
    { argv: ['--metrics'], env: { METRICS: 'false' }, expected: { metrics: true, metricsToken: undefined } },
    { argv: [], env: { METRICS: '0', METRICS_TOKEN: 'scrape' }, expected: { metrics: false, metricsToken: 'scrape' } },
    { argv: ['--metrics-token', 'abc'], env: { METRICS_TOKEN: 'env' }, expected: { metrics: undefined, metricsToken: 'abc' } },
  ])('$argv with $env → $expected', ({ argv, env, expected }) => {
    expect(configOf(argv, env)).toEqual(expected);
  });

  it('refuses a value that is not a switch, naming the flag', () => {
    expect(() => parseCommandLine(['--metrics=sometimes'], {})).toThrow(new ConfigError('--metrics: expected true or false, got "sometimes"'));
    expect(() => parseCommandLine([], { METRICS_TOKEN: ' ' })).toThrow(new ConfigError('METRICS_TOKEN: the value must not be empty'));
  });
});
