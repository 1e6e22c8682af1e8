/**
 * Issue 35 in a real browser (headless Chromium, see ../helpers/browser.ts): the GraphQL IDE runs a query and
 * shows the answer, opens the docs explorer, sends a token from its headers editor (the @auth rule then
 * answers differently), runs a subscription over WebSocket; the schema page shows the active schema and
 * the history, dry-runs a pasted schema and shows the report, rolls back, and asks for the admin token when
 * one is configured. Everything under the pages' Content-Security-Policy, with no network but the service.
 * One browser for the file, one tab per page. Screenshots: __tests__/browser/screenshots/.
 */
import type { Page } from 'playwright-core';
import { authorizationLine, tokenFor } from '../auth/keys.js';
import { describeInBrowser, launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { activateSchema, gqlData } from '../helpers/gql.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const AUTH = authorizationLine({ algo: 'HS256' });
const RULE = '{ rule: "{$ROLE: { eq: \\"ADMIN\\" } }" }';
const SCHEMA_V1 = `type Task @withSubscription @auth(query: ${RULE}) {
  id: ID!
  title: String! @search(by: [term])
}
${AUTH}
`;
const SCHEMA_V2 = SCHEMA_V1.replace('title: String! @search(by: [term])', 'title: String! @search(by: [term])\n  done: Boolean');
const ADMIN_TOKEN = tokenFor({ ROLE: 'ADMIN' }, { algorithm: 'HS256' });

/** GraphiQL 3's editors are CodeMirror 5: its element holds the editor. */
interface CodeMirrorElement {
  CodeMirror: { getValue(): string; setValue(value: string): void };
}

/** The text of the editor inside `selector`. */
function editorValue(page: Page, selector: string): Promise<string> {
  return page.locator(`${selector} .CodeMirror`).evaluate((element) => (element as unknown as CodeMirrorElement).CodeMirror.getValue());
}

function setEditorValue(page: Page, selector: string, value: string): Promise<void> {
  return page.locator(`${selector} .CodeMirror`).evaluate((element, text) => (element as unknown as CodeMirrorElement).CodeMirror.setValue(text), value);
}

const QUERY_EDITOR = '.graphiql-query-editor';
const HEADERS_EDITOR = '.graphiql-editor-tool .graphiql-editor:not(.hidden)';
const RESULT = '.result-window';

/** Reads `read` until `accept` holds (then answers its value) or `timeoutMs` passes (then fails with the last value). */
async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs `query` from the query editor and answers the result pane's JSON once it changed and holds `expected`. */
async function run(page: Page, query: string, expected: string): Promise<unknown> {
  const before = await editorValue(page, RESULT);
  await setEditorValue(page, QUERY_EDITOR, query);
  // GraphiQL parses the editor's text 100 ms after a change (debounced); a run before that would not see
  // that the operation is a subscription, and send it over HTTP instead of WebSocket.
  await page.waitForTimeout(300);
  await page.click('.graphiql-execute-button');
  return JSON.parse(await eventually(() => editorValue(page, RESULT), (result) => result !== before && result.includes(expected)));
}

describeInBrowser()('the IDE and the schema page in Chromium', () => {
  let browser: TestBrowser;
  let server: TestServer;

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchBrowser(), startTestServer()]);
    await activateSchema(server.url, SCHEMA_V1);
    await gqlData(server.url, 'mutation { addTask(input: [{ title: "Write the report" }, { title: "Send the invoice" }]) { numUids } }');
  }, 60_000);

  afterAll(async () => {
    await Promise.all([browser?.close(), server?.close()]);
  });

  describe('the GraphQL IDE at /graphql', () => {
    let page: Page;

    beforeAll(async () => {
      page = await browser.newPage();
      await page.goto(`${server.url}/graphql`);
      await page.waitForSelector('.graphiql-execute-button');
    });

    it('starts with the schema\'s auth header in the headers editor', async () => {
      expect(JSON.parse(await editorValue(page, HEADERS_EDITOR))).toEqual({ 'X-Auth-Token': '' });
    });

    it('runs a query and shows the answer: anonymous, the @auth rule hides every Task', async () => {
      expect(await run(page, '{ queryTask { title } }', 'queryTask')).toEqual({ data: { queryTask: [] } });
      await browser.screenshot(page, 'ide-query-anonymous');
    });

    it('sends the token typed into the headers editor: the rule lets an ADMIN see them', async () => {
      await setEditorValue(page, HEADERS_EDITOR, JSON.stringify({ 'X-Auth-Token': ADMIN_TOKEN }));
      const answer = await run(page, '{ queryTask(order: { asc: title }) { title } }', 'Send the invoice');
      expect(answer).toEqual({ data: { queryTask: [{ title: 'Send the invoice' }, { title: 'Write the report' }] } });
      await browser.screenshot(page, 'ide-query-with-token');
    });

    it('runs a subscription over graphql-ws (/graphql) with the token from the headers editor', async () => {
      const sockets: string[] = [];
      page.on('websocket', (socket) => sockets.push(socket.url()));
      const answer = await run(page, 'subscription { queryTask(filter: { title: { anyofterms: "invoice" } }, order: { asc: title }) { title } }', 'invoice');
      expect(answer).toEqual({ data: { queryTask: [{ title: 'Send the invoice' }] } });
      expect(sockets).toEqual([`${server.url.replace('http:', 'ws:')}/graphql`]);
      // A write elsewhere: the running subscription answers again in the page.
      await gqlData(server.url, 'mutation { addTask(input: [{ title: "Pay the invoice" }]) { numUids } }');
      const updated = JSON.parse(await eventually(() => editorValue(page, RESULT), (result) => result.includes('Pay the invoice')));
      expect(updated).toEqual({ data: { queryTask: [{ title: 'Pay the invoice' }, { title: 'Send the invoice' }] } });
      await browser.screenshot(page, 'ide-subscription');
      await page.click('.graphiql-execute-button'); // stops it
    });

    it('opens the docs explorer on the generated API', async () => {
      await page.click('button[aria-label="Show Documentation Explorer"]');
      await page.click('.graphiql-doc-explorer a.graphiql-doc-explorer-type-name:text-is("Query")');
      await page.waitForSelector('.graphiql-doc-explorer-field-name:text-is("queryTask")');
      const fields = await page.locator('.graphiql-doc-explorer-field-name').allTextContents();
      expect(fields).toEqual(expect.arrayContaining(['getTask', 'queryTask', 'aggregateTask']));
      await browser.screenshot(page, 'ide-docs-explorer');
    });

    it('loaded nothing from elsewhere and broke no CSP rule', () => {
      expect(browser.problems).toEqual([]);
    });
  });

  describe('the schema page at /admin/ui', () => {
    let page: Page;

    beforeAll(async () => {
      await activateSchema(server.url, SCHEMA_V2);
      page = await browser.newPage();
      await page.goto(`${server.url}/admin/ui`);
      await page.waitForSelector('#history tbody tr[data-revision="1"]');
    });

    it('shows the active schema and the history', async () => {
      expect(await page.textContent('#active-schema')).toBe(SCHEMA_V2);
      expect(await page.textContent('#active-summary')).toBe('revision 2');
      expect(await page.locator('#history tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-revision')))).toEqual(['2', '1']);
      await browser.screenshot(page, 'schema-page');
    });

    it('dry-runs a pasted schema and shows the report', async () => {
      await page.fill('#dry-run-text', SCHEMA_V2.replace('title: String!', 'name: String!'));
      await page.click('#dry-run');
      await page.waitForSelector('#dry-run-report .report-verdict');
      expect(await page.textContent('#dry-run-report .answer-message')).toBe('dry run: nothing was activated (it would be refused without force)');
      expect(await page.textContent('#dry-run-report .report-verdict')).toBe('refused without force: stored objects would become unreadable');
      const report = await page.textContent('#dry-run-report dl');
      expect(report).toContain('fields addedTask.name: String!');
      expect(report).toContain('fields removedTask.title: String!');
      expect(report).toContain('VALUES_MISSING: Task.name (String!) is non-null, but stored Task objects have no value for it');
      await browser.screenshot(page, 'schema-dry-run');
      expect(await gqlData(server.url, '{ __type(name: "Task") { fields { name } } }')).toEqual({ __type: { fields: [{ name: 'id' }, { name: 'title' }, { name: 'done' }] } });
    });

    it('shows a revision with the report of activating it again, and rolls back to it', async () => {
      await page.click('#history tbody tr[data-revision="1"] button.show-revision');
      await page.waitForSelector('#revision-report .report-verdict');
      expect(await page.textContent('#revision-text')).toBe(SCHEMA_V1);
      expect(await page.textContent('#revision-report dl')).toContain('fields removedTask.done: Boolean');
      await page.click('#rollback');
      await page.waitForSelector('#rollback-answer .answer-message');
      expect(await page.textContent('#rollback-answer .answer-message')).toBe('schema revision 1 activated again as revision 3');
      await page.waitForSelector('#history tbody tr[data-revision="3"].active');
      expect(await page.textContent('#active-schema')).toBe(SCHEMA_V1);
      expect(await page.textContent('#history tbody tr[data-revision="3"]')).toContain('rollback to 1');
      await browser.screenshot(page, 'schema-rollback');
      expect(server.app.active?.text).toBe(SCHEMA_V1);
    });

    it('called the admin endpoints as the service\'s own page, with no CSP violation', () => {
      expect(browser.problems).toEqual([]);
    });
  });

  describe('the schema page with an admin token', () => {
    let tokenServer: TestServer;
    let page: Page;

    beforeAll(async () => {
      tokenServer = await startTestServer({ adminToken: 'page-admin-token' });
      await activateSchema(tokenServer.url, SCHEMA_V1, 'page-admin-token');
      page = await browser.newPage();
      await page.goto(`${tokenServer.url}/admin/ui`);
    });

    afterAll(async () => {
      await tokenServer?.close();
    });

    it('asks for the token, refuses a wrong one, and works with the right one', async () => {
      await page.waitForSelector('#token-section:not([hidden])');
      await page.fill('#token', 'wrong');
      await page.click('#token-submit');
      expect(await eventually(() => page.textContent('#token-message'), (text) => text !== '')).toBe('the admin token is not valid');
      await page.fill('#token', 'page-admin-token');
      await page.click('#token-submit');
      await page.waitForSelector('#main:not([hidden]) #history tbody tr[data-revision="1"]');
      expect(await page.textContent('#active-schema')).toBe(SCHEMA_V1);
      await browser.screenshot(page, 'schema-page-token');
      // The 401s before the token are the only errors the page saw.
      expect(browser.problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    });
  });
});
