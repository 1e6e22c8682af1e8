/**
 * Several request plugins installed as one. Apollo Server calls every hook of a request on every listener
 * the plugins' `requestDidStart` returned, each call a promise it waits for (`responseForOperation` one
 * listener after another), whether that listener has the hook or not; with the service's eight plugins a
 * small request paid for some thirty such calls. The group hands Apollo one listener that calls only the
 * members that have the hook, with Apollo's own rules for each kind of hook:
 *
 * - members start in the order given, all before any is awaited (as Apollo starts plugins), and their
 *   listeners are called in that order; a hook that throws synchronously stops the later members' hooks,
 *   as it stops Apollo's (plugins rely on it to make their refusal the one answered);
 * - `parsingDidStart`/`validationDidStart`/`willResolveField` end hooks run in reverse order;
 * - `responseForOperation` asks one member after another and answers the first response;
 * - `executionDidStart` listeners are combined the same way, in reverse order, as Apollo combines them.
 *
 * Only plugins whose one hook is `requestDidStart` can be members (server-level hooks such as
 * `serverWillStart`, and Apollo's internal plugins, stay outside the group). The group remembers which
 * member listener has which hook, so a listener object must keep its hooks once returned.
 */
import type {
  ApolloServerPlugin,
  BaseContext,
  GraphQLFieldResolverParams,
  GraphQLRequestExecutionListener,
  GraphQLRequestListener,
  GraphQLRequestListenerDidResolveField,
  GraphQLRequestListenerParsingDidEnd,
  GraphQLRequestListenerValidationDidEnd,
  GraphQLResponse,
} from '@apollo/server';
import type { GraphQLError } from 'graphql';

type Listener<TContext extends BaseContext> = GraphQLRequestListener<TContext>;
type ExecutionListener<TContext extends BaseContext> = GraphQLRequestExecutionListener<TContext>;
/** The hooks that only notify: every member that has one is called, and Apollo waits for all. */
type NotifyingHook = 'didResolveSource' | 'didResolveOperation' | 'didEncounterErrors' | 'willSendResponse' | 'didEncounterSubsequentErrors' | 'willSendSubsequentPayload';

const DONE: Promise<void> = Promise.resolve();

export function pluginGroup<TContext extends BaseContext>(plugins: readonly ApolloServerPlugin<TContext>[]): ApolloServerPlugin<TContext> {
  plugins.forEach(checkMember);
  const starters = plugins.filter((plugin) => plugin.requestDidStart !== undefined);
  // Most members return one listener for every request, so most requests have the same members: their
  // group (which keeps no state of a request) is made once and reused while they stay the same.
  let lastGroup: ListenerGroup<TContext> | undefined;
  return {
    async requestDidStart(requestContext) {
      const started = starters.map((plugin) => plugin.requestDidStart!(requestContext));
      const listeners: Listener<TContext>[] = [];
      for (const listener of await Promise.all(started)) if (listener) listeners.push(listener);
      if (listeners.length === 0) return undefined;
      if (listeners.length === 1) return listeners[0];
      if (!lastGroup?.hasMembers(listeners)) lastGroup = new ListenerGroup(listeners);
      return lastGroup;
    },
  };
}

function checkMember(plugin: ApolloServerPlugin<never>, index: number): void {
  const others = Object.keys(plugin).filter((name) => name !== 'requestDidStart');
  if (others.length > 0) {
    throw new TypeError(`pluginGroup: plugin ${index} has ${others.join(', ')}; only plugins whose one hook is requestDidStart can be grouped`);
  }
}

/** The listeners of one request's members as one listener; it keeps nothing of a request. */
class ListenerGroup<TContext extends BaseContext> implements Listener<TContext> {
  /** For each notifying hook, the members that have it, in order. */
  private readonly withHook: Record<NotifyingHook, readonly Listener<TContext>[]>;

  constructor(private readonly members: readonly Listener<TContext>[]) {
    const having = (hook: NotifyingHook) => members.filter((member) => member[hook] !== undefined);
    this.withHook = {
      didResolveSource: having('didResolveSource'),
      didResolveOperation: having('didResolveOperation'),
      didEncounterErrors: having('didEncounterErrors'),
      willSendResponse: having('willSendResponse'),
      didEncounterSubsequentErrors: having('didEncounterSubsequentErrors'),
      willSendSubsequentPayload: having('willSendSubsequentPayload'),
    };
  }

  /** Whether `listeners` are this group's members, the same objects in the same order. */
  hasMembers(listeners: readonly Listener<TContext>[]): boolean {
    return listeners.length === this.members.length && listeners.every((listener, index) => listener === this.members[index]);
  }

  didResolveSource(requestContext: Parameters<NonNullable<Listener<TContext>['didResolveSource']>>[0]): Promise<void> {
    return this.notify('didResolveSource', (member) => member.didResolveSource?.(requestContext));
  }

  async parsingDidStart(requestContext: Parameters<NonNullable<Listener<TContext>['parsingDidStart']>>[0]): Promise<GraphQLRequestListenerParsingDidEnd | void> {
    const ends = await Promise.all(this.members.map((member) => member.parsingDidStart?.(requestContext)));
    return endsInReverse(ends);
  }

  async validationDidStart(requestContext: Parameters<NonNullable<Listener<TContext>['validationDidStart']>>[0]): Promise<GraphQLRequestListenerValidationDidEnd | void> {
    const ends = await Promise.all(this.members.map((member) => member.validationDidStart?.(requestContext)));
    return endsInReverse(ends);
  }

  didResolveOperation(requestContext: Parameters<NonNullable<Listener<TContext>['didResolveOperation']>>[0]): Promise<void> {
    return this.notify('didResolveOperation', (member) => member.didResolveOperation?.(requestContext));
  }

  didEncounterErrors(requestContext: Parameters<NonNullable<Listener<TContext>['didEncounterErrors']>>[0]): Promise<void> {
    return this.notify('didEncounterErrors', (member) => member.didEncounterErrors?.(requestContext));
  }

  async responseForOperation(requestContext: Parameters<NonNullable<Listener<TContext>['responseForOperation']>>[0]): Promise<GraphQLResponse | null> {
    for (const member of this.members) {
      if (!member.responseForOperation) continue;
      const response = await member.responseForOperation(requestContext);
      if (response != null) return response;
    }
    return null;
  }

  async executionDidStart(requestContext: Parameters<NonNullable<Listener<TContext>['executionDidStart']>>[0]): Promise<ExecutionListener<TContext> | void> {
    if (!this.members.some((member) => member.executionDidStart)) return undefined;
    const listeners: ExecutionListener<TContext>[] = [];
    for (const listener of await Promise.all(this.members.map((member) => member.executionDidStart?.(requestContext)))) if (listener) listeners.push(listener);
    if (listeners.length <= 1) return listeners[0];
    return executionGroup(listeners.reverse());
  }

  willSendResponse(requestContext: Parameters<NonNullable<Listener<TContext>['willSendResponse']>>[0]): Promise<void> {
    return this.notify('willSendResponse', (member) => member.willSendResponse?.(requestContext));
  }

  didEncounterSubsequentErrors(requestContext: Parameters<NonNullable<Listener<TContext>['didEncounterSubsequentErrors']>>[0], errors: ReadonlyArray<GraphQLError>): Promise<void> {
    return this.notify('didEncounterSubsequentErrors', (member) => member.didEncounterSubsequentErrors?.(requestContext, errors));
  }

  willSendSubsequentPayload(...args: Parameters<NonNullable<Listener<TContext>['willSendSubsequentPayload']>>): Promise<void> {
    return this.notify('willSendSubsequentPayload', (member) => member.willSendSubsequentPayload?.(...args));
  }

  /** Calls `hook` on each member that has it, in order; waits for all, as Apollo does. */
  private notify(hook: NotifyingHook, call: (member: Listener<TContext>) => Promise<void> | undefined): Promise<void> {
    let pending: Promise<void> | Promise<void>[] | undefined;
    for (const member of this.withHook[hook]) {
      const called = call(member) ?? DONE;
      if (pending === undefined) pending = called;
      else if (Array.isArray(pending)) pending.push(called);
      else pending = [pending, called];
    }
    if (pending === undefined) return DONE;
    return Array.isArray(pending) ? (Promise.all(pending) as Promise<unknown> as Promise<void>) : pending;
  }
}

/** The end hooks started, called in reverse order when the phase ends (undefined when none). */
function endsInReverse<TArgs extends unknown[]>(ends: readonly (((...args: TArgs) => Promise<void>) | void)[]): ((...args: TArgs) => Promise<void>) | undefined {
  const defined = ends.filter((end): end is (...args: TArgs) => Promise<void> => end !== undefined).reverse();
  if (defined.length === 0) return undefined;
  return async (...args) => {
    for (const end of defined) void end(...args);
  };
}

/** Execution listeners (already in Apollo's reverse order) as one; `willResolveField` only when one of them has it. */
function executionGroup<TContext extends BaseContext>(listeners: readonly ExecutionListener<TContext>[]): ExecutionListener<TContext> {
  const group: ExecutionListener<TContext> = {
    async executionDidEnd(error?: Error) {
      await Promise.all(listeners.map((listener) => listener.executionDidEnd?.(error)));
    },
  };
  if (listeners.some((listener) => listener.willResolveField)) {
    group.willResolveField = (params: GraphQLFieldResolverParams<any, TContext>): GraphQLRequestListenerDidResolveField | void => {
      const ends: GraphQLRequestListenerDidResolveField[] = [];
      for (const listener of listeners) {
        const end = listener.willResolveField?.(params);
        if (end) ends.push(end);
      }
      if (ends.length === 0) return undefined;
      ends.reverse();
      return (error, result) => {
        for (const end of ends) end(error, result);
      };
    };
  }
  return group;
}
