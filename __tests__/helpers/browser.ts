/**
 * Headless Chromium for the browser tests: Debian's `chromium` package driven by playwright-core, which
 * downloads nothing (`executablePath`). Outside CI a machine without Chromium skips those tests with a message;
 * under CI (env `CI` set, as `.ci/run` does after installing the package) a missing browser fails them.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Where the tests save screenshots (git-ignored). */
export const SCREENSHOTS = join(__dirname, '..', 'browser', 'screenshots');

/** The flags under which Chromium runs headless and offline here (NOTES.md "third look"). */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** `CHROMIUM_PATH`, else Debian's /usr/bin/chromium, if present. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].filter((path): path is string => !!path);
  return candidates.find((path) => existsSync(path));
}

/**
 * `describe` when Chromium is there; outside CI without it, `describe.skip` after saying why. Under CI
 * without it, the file fails: the browser tests must run there.
 */
export function describeInBrowser(): jest.Describe {
  if (chromiumPath() !== undefined) return describe;
  if (process.env.CI) throw new Error('no Chromium at /usr/bin/chromium (or CHROMIUM_PATH) under CI: .ci/run installs it with apt-get install -y chromium');
  console.warn('browser tests skipped: no Chromium at /usr/bin/chromium (install it with `apt-get install -y chromium`, or set CHROMIUM_PATH)');
  return describe.skip;
}

export interface TestBrowser {
  context: BrowserContext;
  /** A new tab that fails the test on a page error or a Content-Security-Policy violation. */
  newPage(): Promise<Page>;
  /** Saves `<name>.png` under SCREENSHOTS. */
  screenshot(page: Page, name: string): Promise<void>;
  /** Errors the pages reported (uncaught exceptions, CSP violations, failed loads). */
  readonly problems: string[];
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  const executablePath = chromiumPath();
  if (executablePath === undefined) throw new Error('no Chromium found');
  const profile = mkdtempSync(join(tmpdir(), 'autograph-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: FLAGS, viewport: { width: 1280, height: 800 } });
  const problems: string[] = [];
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    problems,
    async newPage() {
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      });
      return page;
    },
    async screenshot(page, name) {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
