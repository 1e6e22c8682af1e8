import {
  createLambdaHost, LambdaCallError,
  type LambdaBatchInput, type LambdaCallInput, type LambdaGraphqlExecutor, type LambdaHost, type LambdaHostOptions, type LambdaRegistrations,
  type LambdaResolverKind, type LambdaWebhookInput,
} from '../custom/index.js';

/** A script loaded in its own host, ready to be served once the caller has checked it. */
export interface PreparedLambda {
  readonly text: string;
  readonly resolvers: string[];
  /** Its webhooks (`self.addWebHookResolvers`), sorted. */
  readonly webhooks: string[];
  /** The loaded host; `has(name)` answers for the new script. */
  readonly host: LambdaHost;
}

/**
 * The lambda host the resolvers see, with the same prepare-then-publish discipline as the schema: an
 * uploaded script loads in a fresh host and is checked (e.g. against the active schema's `@lambda`
 * fields) before it replaces the running one. A replaced host stops once its calls in flight end.
 */
export class SwappableLambdaHost implements LambdaHost {
  private current: PreparedLambda | undefined;
  private readonly inFlight = new Map<LambdaHost, number>();
  private readonly retiring = new Set<LambdaHost>();
  private closed = false;

  constructor(private readonly options: LambdaHostOptions) {}

  /** The script being served, if any. */
  get script(): string | undefined {
    return this.current?.text;
  }

  /** Loads `text` in a new host without serving it. Rejects with LambdaScriptError. */
  async prepare(text: string): Promise<PreparedLambda> {
    const host = createLambdaHost(this.options);
    try {
      const { resolvers, webhooks } = await host.load(text);
      return { text, resolvers, webhooks, host };
    } catch (error) {
      await host.close();
      throw error;
    }
  }

  /** Serves `prepared` from the next call on. */
  publish(prepared: PreparedLambda): void {
    if (this.closed) {
      void prepared.host.close();
      return;
    }
    const previous = this.current;
    this.current = prepared;
    if (previous) this.retire(previous.host);
  }

  /** Drops a prepared script that will not be served. */
  discard(prepared: PreparedLambda): Promise<void> {
    return prepared.host.close();
  }

  async load(scriptText: string): Promise<LambdaRegistrations> {
    const prepared = await this.prepare(scriptText);
    this.publish(prepared);
    return { resolvers: prepared.resolvers, webhooks: prepared.webhooks };
  }

  has(name: string): boolean {
    return this.current?.host.has(name) ?? false;
  }

  names(): string[] {
    return this.current?.host.names() ?? [];
  }

  kindOf(name: string): LambdaResolverKind | undefined {
    return this.current?.host.kindOf(name);
  }

  call(name: string, input: LambdaCallInput, graphql: LambdaGraphqlExecutor): Promise<unknown> {
    return this.tracked(name, (host) => host.call(name, input, graphql));
  }

  callBatch(name: string, input: LambdaBatchInput, graphql: LambdaGraphqlExecutor): Promise<unknown[]> {
    return this.tracked(name, (host) => host.callBatch(name, input, graphql));
  }

  hasWebhook(name: string): boolean {
    return this.current?.host.hasWebhook(name) ?? false;
  }

  webhookNames(): string[] {
    return this.current?.host.webhookNames() ?? [];
  }

  callWebhook(name: string, input: LambdaWebhookInput, graphql: LambdaGraphqlExecutor): Promise<void> {
    return this.tracked(name, (host) => host.callWebhook(name, input, graphql));
  }

  async close(): Promise<void> {
    this.closed = true;
    const hosts = [...this.retiring, ...(this.current ? [this.current.host] : [])];
    this.current = undefined;
    this.retiring.clear();
    await Promise.all(hosts.map((host) => host.close()));
  }

  private async tracked<T>(name: string, run: (host: LambdaHost) => Promise<T>): Promise<T> {
    const host = this.current?.host;
    if (!host) {
      throw new LambdaCallError(name, this.closed ? 'closed' : 'not-registered', this.closed ? 'the lambda host was closed' : 'no lambda script is loaded');
    }
    this.inFlight.set(host, (this.inFlight.get(host) ?? 0) + 1);
    try {
      return await run(host);
    } finally {
      const left = (this.inFlight.get(host) ?? 1) - 1;
      if (left > 0) this.inFlight.set(host, left);
      else {
        this.inFlight.delete(host);
        if (this.retiring.delete(host)) void host.close();
      }
    }
  }

  private retire(host: LambdaHost): void {
    if ((this.inFlight.get(host) ?? 0) === 0) void host.close();
    else this.retiring.add(host);
  }
}
