/**
 * The jest environment of the `mongodb-wire` project (jest.config.ts): before a test file loads, it starts
 * a wire test server (./server.ts) for that file and sets MONGODB_URI to it, so the file's MongoDB paths
 * (helpers/backend.ts, mongo/mongo-store.test.ts) run through the real driver; after the file, it stops
 * the server. It also applies the list of expected failures (./expected-failures.ts).
 *
 * Imports here are extensionless: jest loads an environment with Node's resolver, not the test resolver.
 */
import { relative } from 'node:path';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import type { Circus } from '@jest/types';
import { TestEnvironment } from 'jest-environment-node';
import { expectedFailure } from './expected-failures';
import { startWireMongo, type WireMongo } from './server';

export default class WireMongoEnvironment extends TestEnvironment {
  private server: WireMongo | undefined;
  private readonly testFile: string;

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    this.testFile = relative(config.projectConfig.rootDir, context.testPath).split('\\').join('/');
  }

  override async setup(): Promise<void> {
    await super.setup();
    this.server = await startWireMongo();
    (this.global.process as NodeJS.Process).env.MONGODB_URI = this.server.uri;
  }

  override async teardown(): Promise<void> {
    await this.server?.close();
    await super.teardown();
  }

  handleTestEvent(event: Circus.Event): void {
    if (event.name !== 'test_done') return;
    const entry = expectedFailure(this.testFile, fullName(event.test));
    if (!entry) return;
    if (event.test.errors.length > 0) {
      event.test.errors = [];
      process.stderr.write(`expected failure over the wire (${entry.reason}): ${this.testFile} › ${fullName(event.test)}\n`);
    } else {
      event.test.errors.push(
        new Error(`passes over the wire now, but is listed as an expected failure (${entry.reason}): remove its entry from __tests__/helpers/wire-mongo/expected-failures.ts`),
      );
    }
  }
}

function fullName(test: Circus.TestEntry): string {
  const names: string[] = [test.name];
  for (let block = test.parent; block && block.parent; block = block.parent) names.unshift(block.name);
  return names.join(' ');
}
