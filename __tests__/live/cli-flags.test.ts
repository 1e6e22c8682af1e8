import { liveSettings } from '../../src/live/settings.js';
import { ConfigError, helpText, parseCommandLine, type ServerConfig } from '../../src/server/config.js';

function run(argv: string[], env: Record<string, string | undefined> = {}): ServerConfig {
  const parsed = parseCommandLine(argv, env);
  if (parsed.kind !== 'run') throw new Error(`expected a run config, got ${parsed.kind}`);
  return parsed.config;
}

describe('subscription flags', () => {
  it('reads the debounce, the limits and the change poll from flags or environment variables', () => {
    expect(run(['--subscription-debounce-ms=50', '--max-subscriptions-per-connection', '7', '--max-subscriptions=900', '--change-poll-ms=100'])).toMatchObject({
      subscriptionDebounceMs: 50,
      maxSubscriptionsPerConnection: 7,
      maxSubscriptions: 900,
      changePollMs: 100,
    });
    expect(run([], { SUBSCRIPTION_DEBOUNCE_MS: '5', MAX_SUBSCRIPTIONS: '3' })).toMatchObject({ subscriptionDebounceMs: 5, maxSubscriptions: 3 });
    expect(helpText()).toMatch(/--max-subscriptions-per-connection N +most running subscriptions per WebSocket connection \(default 100\) \[MAX_SUBSCRIPTIONS_PER_CONNECTION\]/);
  });

  it('refuses a limit of zero', () => {
    expect(() => parseCommandLine(['--max-subscriptions=0'], {})).toThrow(new ConfigError('--max-subscriptions: expected a whole number from 1 to 9007199254740991, got "0"'));
  });

  it('fills in live/ defaults and checks what the app is given', () => {
    expect(liveSettings({ maxTotal: 5 })).toEqual({ debounceMs: 20, maxPerConnection: 100, maxTotal: 5 });
    expect(() => liveSettings({ maxPerConnection: 0 })).toThrow('subscription setting maxPerConnection must be an integer of at least 1, got 0');
    expect(() => liveSettings({ debounceMs: 1.5 })).toThrow('subscription setting debounceMs must be an integer of at least 0, got 1.5');
  });
});
