import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { Socket } from 'node:net';
import { watchResidentMemory } from './lambda-memory-watch.js';

export interface LambdaProcessLimits {
  /** V8 heap limit of the process (`--max-old-space-size`), in MB. */
  memoryMb: number;
  /** Resident memory past which the process is killed, in MB. */
  maxResidentMb: number;
}

/** How much of the process's standard error is kept, to tell why it died. */
const STDERR_TAIL_CHARS = 4_096;
/** What V8 prints before it aborts the process at the heap limit. */
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed/;

/**
 * One Node.js child process running `source` (the lambda script host), with an IPC channel and memory
 * limits of its own: the heap by V8's flag, resident memory by a watchdog that kills it. Whatever the
 * process does, including aborting at its heap limit, the service's process is untouched.
 */
export class LambdaProcess {
  /** Receives each message the process sends. */
  onMessage: (message: unknown) => void = () => undefined;
  /**
   * Told once, after every message the process sent has been delivered, when it stopped on its own or was
   * killed by the memory watchdog; not after `kill()`.
   */
  onStopped: (reason: string) => void = () => undefined;
  /** Settles when the process has exited and its channel is closed. */
  readonly exited: Promise<void>;

  /** The operating system's id of the process; undefined when it could not be started. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  private stderrTail = '';
  private killedFor: string | undefined;
  private killed = false;
  private ended = false;
  private readonly stopWatch: () => void;

  private constructor(
    private readonly child: ChildProcess,
    limits: LambdaProcessLimits,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        resolve();
        this.end(this.killedFor ?? this.describeExit(code, signal));
      });
      // `on`, not `once`: a failed send to a process that just died is an 'error' too, and one without a
      // listener would be thrown in the service's process.
      child.on('error', (error) => {
        // Only a process that never started reports nothing else; a started one still closes.
        if (child.pid !== undefined) return;
        resolve();
        this.end(`could not be started: ${error.message}`);
      });
    });
    child.on('message', (message: unknown) => this.onMessage(message));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    this.stopWatch = child.pid === undefined
      ? () => undefined
      : watchResidentMemory(child.pid, limits.maxResidentMb, (residentMb) => {
        this.killedFor = `used ${Math.round(residentMb)} MB of memory (its limit: ${limits.maxResidentMb} MB)`;
        child.kill('SIGKILL');
      });
    // The service's process stays alive for the process only while it waits for an answer (see waiting()).
    child.unref();
    child.channel?.unref();
    (child.stderr as Socket | null)?.unref();
  }

  /** Whether an answer is awaited (a load, calls in flight): only then does the channel keep the service's process alive. */
  waiting(awaited: boolean): void {
    // The process handle too: after a kill, the exit that tells why still has to be heard.
    if (awaited) {
      this.child.ref();
      this.child.channel?.ref();
    } else {
      this.child.unref();
      this.child.channel?.unref();
    }
  }

  static spawn(source: string, limits: LambdaProcessLimits): LambdaProcess {
    const child = spawn(process.execPath, [`--max-old-space-size=${limits.memoryMb}`, '--expose-gc', '-e', source], {
      // Nothing of the service's environment (secrets, NODE_OPTIONS) reaches the script's process.
      env: {},
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    lowerPriority(child);
    return new LambdaProcess(child, limits);
  }

  /** Sends a message; dropped once the process is gone. */
  send(message: object): void {
    if (this.child.connected) this.child.send(message);
  }

  /** Kills the process (SIGKILL); `onStopped` is not told. */
  async kill(): Promise<void> {
    this.killed = true;
    this.stopWatch();
    if (!this.ended) this.child.kill('SIGKILL');
    await this.exited;
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.stopWatch();
    if (!this.killed) this.onStopped(reason);
  }

  private describeExit(code: number | null, signal: NodeJS.Signals | null): string {
    if (OUT_OF_MEMORY.test(this.stderrTail)) return 'ran out of memory';
    return signal ? `was killed (${signal})` : `exited (code ${code})`;
  }
}

/**
 * Scripts run at a lower CPU priority than the service: a lambda that computes hard shares the machine's
 * cores with the main process, which must keep answering every other client first. Where the system refuses
 * (no permission to renice, an exotic platform), the script runs at normal priority.
 */
export const LAMBDA_NICENESS = 10;

function lowerPriority(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    os.setPriority(child.pid, LAMBDA_NICENESS);
  } catch {
    // Priority is an optimisation; the memory and time limits bound the script either way.
  }
}
