import type { Logger } from 'pino';
import { StoreUnavailableError, type Store, type StoredDocument } from '../store/port.js';
import type { ActivationError } from './activation.js';

/**
 * One of the two definitions the service serves and keeps in the store: the schema or the lambda script.
 * Both are stored the same way, as the single document `{ _id: "active", text, updatedAt, revision }` of
 * their system collection.
 */
export interface Definition {
  /** For logs: "schema", "lambda script". */
  readonly name: string;
  readonly collection: string;
  /** Text given at start (`--schema`, `--lambda`): it replaces the stored one. */
  readonly initial?: string;
  /** The text being served, if any. */
  current(): string | undefined;
  /** Activates `text` (and stores it when `persist`). Called inside the activation queue. */
  activate(text: string, persist: boolean): Promise<{ ok: true } | { ok: false; httpStatus: number; errors: ActivationError[] }>;
  /** The error createApp throws when the text given at start is rejected. */
  rejectedAtStart(errors: ActivationError[]): Error;
}

export interface DefinitionSyncOptions {
  store: Store;
  logger: Logger;
  /** In the order they come up at start; whichever of schema and script is given at start goes last. */
  definitions: Definition[];
  /** Runs `work` in the app's activation queue, so it never interleaves with an upload. */
  enqueue: <T>(work: () => Promise<T>) => Promise<T>;
  /** Pause before trying again while the store does not answer. */
  retryMs: number;
  /** Pause between checks for a definition stored by another instance; undefined: never check. */
  checkMs?: number;
}

type Outcome =
  | { kind: 'unchanged' | 'activated' }
  | { kind: 'rejected'; stamp: string; errors: ActivationError[] }
  | { kind: 'unavailable'; reason: string };

const ACTIVE_ID = 'active';

/**
 * Keeps the served schema and lambda script in line with the store.
 *
 * At start it activates the texts given at start (storing them) or the stored ones. While the store does
 * not answer (MongoDB down), the service runs without them and this tries again every `retryMs`. After
 * that, every `checkMs`, it reads the revision of both stored documents (a few bytes), and when one
 * changed (another instance sharing the store activated something) reads the text and activates it here
 * too. The store is the truth: an instance converges to the last definition stored by any of them.
 */
export class DefinitionSync {
  /** Stamp (revision) of the stored document last handled, per definition. */
  private readonly seen = new Map<Definition, string>();
  /** Stamps of stored documents that did not activate here; retried when the other definition changes. */
  private readonly rejected = new Map<Definition, string>();
  /** Definitions whose text given at start is not stored yet. */
  private readonly pendingInitial = new Set<Definition>();
  private waiting = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly options: DefinitionSyncOptions) {
    for (const definition of options.definitions) {
      if (definition.initial !== undefined) {
        this.pendingInitial.add(definition);
      }
    }
  }

  /**
   * Brings every definition up. Throws the definition's `rejectedAtStart` error when a text given at start
   * is invalid; a store that does not answer only defers the rest to the background.
   */
  async start(): Promise<void> {
    await this.enqueueRound(true);
  }

  /** Checks the store now, as the periodic check does. */
  check(): Promise<void> {
    return this.enqueueRound(false);
  }

  /** Whether the last attempt found the store unreachable, so a definition may be missing for that reason. */
  get waitingForStore(): boolean {
    return this.waiting;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Rounds run one at a time, whether started by the timer or by `check()`. */
  private enqueueRound(atStart: boolean): Promise<void> {
    const run = this.running.then(() => (this.closed ? undefined : this.round(atStart)));
    this.running = run.catch(() => undefined);
    return run;
  }

  private async round(atStart: boolean): Promise<void> {
    let unavailable: string | undefined;
    try {
      unavailable = await this.bringUp(atStart);
    } catch (error) {
      if (atStart) {
        throw error;
      }
      this.options.logger.error({ err: error }, 'checking the stored schema and lambda script failed');
    }
    if (unavailable !== undefined && !this.waiting) {
      this.options.logger.warn(
        { reason: unavailable, retryMs: this.options.retryMs },
        'the data store does not answer; retrying to bring the schema and lambda script in line with it',
      );
    }
    this.waiting = unavailable !== undefined;
    this.schedule();
  }

  private schedule(): void {
    const delay = this.waiting ? this.options.retryMs : this.options.checkMs;
    if (this.closed || delay === undefined) {
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.enqueueRound(false), delay);
    this.timer.unref();
  }

  /** One pass over the definitions; returns why the store could not be used, if it could not. */
  private async bringUp(atStart: boolean): Promise<string | undefined> {
    let changed = false;
    let unavailable: string | undefined;
    for (const definition of this.options.definitions) {
      const initial = this.pendingInitial.has(definition);
      // Past an unreachable store, texts given at start are still checked, so their errors stop the start.
      if (unavailable !== undefined && !initial) {
        continue;
      }
      const outcome = initial ? await this.activateInitial(definition, atStart) : await this.follow(definition, atStart, false);
      if (outcome.kind === 'unavailable') {
        unavailable ??= outcome.reason;
        continue;
      }
      changed ||= outcome.kind === 'activated';
      this.noteRejection(definition, outcome);
    }
    if (unavailable !== undefined) {
      return unavailable;
    }
    // What was refused may fit what changed since (a schema refused for a @lambda resolver the script
    // activated after it in this round serves): it gets another try.
    if (changed) {
      for (const definition of [...this.rejected.keys()]) {
        const outcome = await this.follow(definition, atStart, true);
        if (outcome.kind === 'unavailable') {
          return outcome.reason;
        }
        this.noteRejection(definition, outcome);
      }
    }
    return undefined;
  }

  private noteRejection(definition: Definition, outcome: Outcome): void {
    if (outcome.kind !== 'rejected') {
      return;
    }
    if (this.rejected.get(definition) !== outcome.stamp) {
      const serving = definition.current() === undefined ? 'none' : 'the previous one';
      this.options.logger.error(
        { errors: outcome.errors.map((error) => error.message) },
        `the stored ${definition.name} does not activate here; serving ${serving} until another is stored or uploaded`,
      );
    }
    this.rejected.set(definition, outcome.stamp);
  }

  private async activateInitial(definition: Definition, atStart: boolean): Promise<Outcome> {
    const text = definition.initial;
    if (text === undefined) return { kind: 'unchanged' };
    if (!atStart && definition.current() !== undefined) {
      // Uploaded while the store was down at start: the upload is newer than the text given at start.
      this.pendingInitial.delete(definition);
      this.options.logger.info(`keeping the ${definition.name} uploaded since start over the one given at start`);
      return { kind: 'unchanged' };
    }
    const result = await this.options.enqueue(() => definition.activate(text, true));
    if (result.ok) {
      this.pendingInitial.delete(definition);
      return { kind: 'activated' };
    }
    if (result.httpStatus === 503) {
      return { kind: 'unavailable', reason: result.errors.map((error) => error.message).join('; ') };
    }
    if (atStart) {
      throw definition.rejectedAtStart(result.errors);
    }
    // Only the store's answer (the lambda script checked against the stored schema, say) can change the
    // verdict after start; there is no one left to refuse the start to, so the error goes to the log.
    this.pendingInitial.delete(definition);
    this.options.logger.error({ errors: result.errors.map((error) => error.message) }, `the ${definition.name} given at start was rejected`);
    return { kind: 'unchanged' };
  }

  /** Activates the stored text when it changed since last seen (or, with `retry`, when it was rejected). */
  private async follow(definition: Definition, atStart: boolean, retry: boolean): Promise<Outcome> {
    const { store } = this.options;
    let stamp: string | undefined;
    try {
      stamp = await readStamp(store, definition.collection);
    } catch (error) {
      return unavailableOrThrow(error);
    }
    if (stamp === undefined || stamp === this.seen.get(definition) || (!retry && stamp === this.rejected.get(definition))) {
      return { kind: 'unchanged' };
    }
    // Read again and decided in the queue: an upload here either comes before (and is what the store
    // holds now) or waits until this is done.
    return this.options.enqueue(async () => {
      let stored: { text: string; stamp: string } | undefined;
      try {
        stored = await readStored(store, definition.collection);
      } catch (error) {
        return unavailableOrThrow(error);
      }
      if (stored === undefined) {
        return { kind: 'unchanged' };
      }
      if (stored.text === definition.current()) {
        this.markSeen(definition, stored.stamp);
        return { kind: 'unchanged' };
      }
      const result = await definition.activate(stored.text, false);
      if (result.ok) {
        this.markSeen(definition, stored.stamp);
        if (!atStart) {
          this.options.logger.info(`activated the ${definition.name} another instance stored`);
        }
        return { kind: 'activated' };
      }
      if (result.httpStatus === 503) {
        return { kind: 'unavailable', reason: result.errors.map((error) => error.message).join('; ') };
      }
      return { kind: 'rejected', stamp: stored.stamp, errors: result.errors };
    });
  }

  private markSeen(definition: Definition, stamp: string): void {
    this.seen.set(definition, stamp);
    this.rejected.delete(definition);
  }
}

function unavailableOrThrow(error: unknown): Outcome {
  if (error instanceof StoreUnavailableError) {
    return { kind: 'unavailable', reason: error.message };
  }
  throw error;
}

/** What changes with every save: the revision (documents stored by older versions have only `updatedAt`). */
function stampOf(document: StoredDocument): string {
  return String(document.revision ?? document.updatedAt);
}

/** The stamp of the stored document, read without its text. */
async function readStamp(store: Store, collection: string): Promise<string | undefined> {
  const [document] = await store.collection(collection).find({ _id: ACTIVE_ID }, { projection: { revision: 1, updatedAt: 1 } });
  return document === undefined ? undefined : stampOf(document);
}

async function readStored(store: Store, collection: string): Promise<{ text: string; stamp: string } | undefined> {
  const [document] = await store.collection(collection).find({ _id: ACTIVE_ID });
  return typeof document?.text === 'string' ? { text: document.text, stamp: stampOf(document) } : undefined;
}
