import { MongoClient, type Db, type MongoClientOptions, type TopologyDescriptionChangedEvent } from 'mongodb';
import { StoreUnavailableError } from '../port.js';
import { deploymentFromHello, hasWritableServer, type DeploymentInfo } from './topology.js';

/** Satisfied by pino, console and most loggers. */
export interface MongoStoreLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface ConnectionSettings {
  /** Pause between first-connection attempts while MongoDB has never been reached. */
  reconnectDelayMS: number;
  logger?: MongoStoreLogger;
}

/** What the store needs from its connection (MongoConnection; tests substitute a fake). */
export interface StoreConnection {
  readonly client: Pick<MongoClient, 'startSession'>;
  /** The database handle, or StoreUnavailableError while MongoDB has never been reached. */
  database(name: string): Db;
  /** The deployment found on connecting, or StoreUnavailableError while MongoDB has never been reached. */
  deployment(): DeploymentInfo;
  ready(): boolean;
  /** How long ago the writable server was lost (ms), while none is known again; undefined when one is known. */
  msWithoutWritableServer(): number | undefined;
  close(): Promise<void>;
}

/**
 * Owns the MongoClient and answers "can we serve requests now?".
 *
 * Until the first connection succeeds there is no usable driver topology (a failed `connect()` closes
 * it), so this class retries `connect()` on a timer and requests fail fast with StoreUnavailableError.
 * After that the driver's own monitors keep reconnecting; readiness then follows the driver's topology
 * events (a writable server known or not).
 */
export class MongoConnection implements StoreConnection {
  readonly client: MongoClient;
  private connected = false;
  private writable = false;
  /** `Date.now()` when the last writable server was lost (an election or an outage began). */
  private writableLostAt: number | undefined;
  private closed = false;
  private deploymentInfo: DeploymentInfo | undefined;
  private lastFailure = 'no connection attempt yet';
  private retryTimer: NodeJS.Timeout | undefined;
  private currentAttempt: Promise<void> = Promise.resolve();

  constructor(
    uri: string,
    clientOptions: MongoClientOptions,
    private readonly settings: ConnectionSettings,
  ) {
    this.client = new MongoClient(uri, clientOptions);
    this.client.on('topologyDescriptionChanged', (event: TopologyDescriptionChangedEvent) =>
      this.onTopologyChanged(event),
    );
  }

  /** Starts connecting; resolves when the first attempt has succeeded or failed (never rejects). */
  start(): Promise<void> {
    this.currentAttempt = this.attemptConnection();
    return this.currentAttempt;
  }

  ready(): boolean {
    return this.connected && this.writable && !this.closed;
  }

  msWithoutWritableServer(): number | undefined {
    if (this.writable || this.writableLostAt === undefined) return undefined;
    return Date.now() - this.writableLostAt;
  }

  database(name: string): Db {
    this.assertConnected();
    return this.client.db(name);
  }

  deployment(): DeploymentInfo {
    this.assertConnected();
    // assertConnected guarantees the hello reply was read.
    return this.deploymentInfo as DeploymentInfo;
  }

  assertConnected(): void {
    if (this.closed) {
      throw new StoreUnavailableError('the MongoDB store has been closed');
    }
    if (!this.connected) {
      throw new StoreUnavailableError(`MongoDB not reachable yet (${this.lastFailure}); reconnecting`);
    }
  }

  async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.client.close();
    // An attempt that was under way when close() began may have opened a new topology: close it too.
    await this.currentAttempt;
    await this.client.close();
  }

  private async attemptConnection(): Promise<void> {
    try {
      await this.client.connect();
      const hello = await this.client.db('admin').command({ hello: 1 });
      if (this.closed) {
        return;
      }
      this.deploymentInfo = deploymentFromHello(hello);
      this.connected = true;
      this.settings.logger?.info(
        `connected to MongoDB: ${this.deploymentInfo.description}, multi-document transactions ` +
          (this.deploymentInfo.supportsTransactions ? 'on' : 'off (standalone: single-document atomicity only)'),
      );
    } catch (error) {
      if (this.closed) {
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      if (reason !== this.lastFailure) {
        this.settings.logger?.warn(
          `MongoDB not reachable: ${reason}; retrying every ${this.settings.reconnectDelayMS} ms`,
        );
      }
      this.lastFailure = reason;
      this.retryTimer = setTimeout(() => {
        this.currentAttempt = this.attemptConnection();
      }, this.settings.reconnectDelayMS);
    }
  }

  private onTopologyChanged(event: TopologyDescriptionChangedEvent): void {
    const writable = hasWritableServer(event.newDescription);
    if (writable === this.writable) {
      return;
    }
    this.writable = writable;
    this.writableLostAt = writable ? undefined : Date.now();
    if (this.connected && !this.closed) {
      if (writable) {
        this.settings.logger?.info('MongoDB reachable again');
      } else {
        this.settings.logger?.warn('lost the writable MongoDB server; the driver keeps reconnecting');
      }
    }
  }
}
