// The Capability Center (js-demo/) in headless Chromium: the catalog table,
// states and reasons, live search, a policy edit that denies a tool, a
// malformed policy that is refused (and the last good one kept), an approval
// answered by the operator, Stop, and a screenshot into test-results/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { axeViolations, launch, root, serve } from "./harness.mjs";

const OUT = join(root, "test-results");
let server, browser, page;
const errors = [];

const row = (name) => page.locator(`#catalog-table tbody tr[data-tool="${name}"]`);
const policy = async (text) => {
  await page.fill("#policy-text", text);
  await page.click("#policy-apply");
};

before(async () => {
  mkdirSync(OUT, { recursive: true });
  server = await serve();
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
  page.on("pageerror", (e) => errors.push(String(e)));
  // Offline: any request that is not to our loopback server fails the test.
  await page.route("**/*", (route) =>
    route.request().url().startsWith(server.url)
      ? route.continue()
      : (errors.push(`network: ${route.request().url()}`), route.abort()),
  );
  await page.goto(`${server.url}/js-demo/`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("the table shows every tool with its state, a denial reason and the next safe action", async () => {
  assert.match(await page.textContent("#status"), /^Ready: 300 tools/);
  const rows = await page.locator("#catalog-table tbody tr").count();
  assert.ok(rows >= 300, `rows: ${rows}`);
  assert.equal(await row("read_file").getAttribute("data-state"), "available");
  assert.equal(await row("release-notes-writer").getAttribute("data-state"), "catalog_only");
  // The default project policy denies stripe/*: the reason names the rule and scope.
  const stripe = page.locator('#catalog-table tbody tr[data-tool^="stripe/"]').first();
  assert.equal(await stripe.getAttribute("data-state"), "denied");
  assert.match(await stripe.locator("td.reason").textContent(), /stripe\/\*.*project/s);
  assert.ok((await stripe.locator("td.next").textContent()).length > 10, "a next safe action is shown");
  await page.selectOption("#filter-state", "denied");
  const denied = await page.locator("#catalog-table tbody tr").count();
  assert.ok(denied > 0 && denied < rows);
  assert.equal(await page.locator('#catalog-table tbody tr:not([data-state="denied"])').count(), 0);
  await page.selectOption("#filter-state", "");
  // The table re-renders on the select's change event: the next test reads it whole.
  await page.locator('#catalog-table tbody tr:not([data-state="denied"])').first().waitFor();
});

test("the count is of tools a client can find (hidden rows not counted); servers show by provider id (issue 31)", async () => {
  const all = await page.locator("#catalog-table tbody tr").count();
  const hidden = await page.locator('#catalog-table tbody tr[data-state="hidden"]').count();
  const findable = all - hidden;
  assert.match(await page.textContent("#catalog-count"), new RegExp(`^${findable} of ${findable} tools`));
  const stripe = page.locator('#catalog-table tbody tr[data-tool^="stripe/"]').first();
  assert.equal((await stripe.locator("td").nth(1).textContent()).trim(), "stripe");
});

test("the search box runs tool_search live and shows why", async () => {
  await page.fill("#search", "find the project release notes");
  const first = page.locator("#search-results li").first();
  await first.waitFor();
  const n = await page.locator("#search-results li").count();
  assert.ok(n >= 1 && n <= 8, `results: ${n}`);
  assert.match(await first.locator(".why").textContent(), /^why: .+/);
  assert.ok(
    await page.locator('#search-results li[data-tool="glob_files"]').count(),
    "glob_files is among the results",
  );
});

test("the search box says when nothing fits, with the hint", async () => {
  await page.fill("#search", "qwzx vbnm plokij");
  const note = page.locator("#search-results li.nothing-fits");
  await note.waitFor();
  assert.match(await note.textContent(), /^Nothing fits\. .*tool_list/);
  await page.fill("#search", "");
});

test("denying a tool in the policy turns its row denied and emits tool_registry_changed", async () => {
  const before = await page.locator("#activity li.ev-registry").count();
  await policy(`{"deny": ["stripe/*", "heroku/*", "slash_command:deploy", "read_file"]}`);
  await page.waitForSelector('#catalog-table tbody tr[data-tool="read_file"][data-state="denied"]');
  assert.match(await row("read_file").locator("td.reason").textContent(), /read_file/);
  assert.match(await page.textContent("#policy-state"), /Applied/);
  assert.equal(await page.isHidden("#policy-error"), true);
  await page.waitForFunction((n) => document.querySelectorAll("#activity li.ev-registry").length > n, before);
  assert.match(
    await page.locator("#activity li.ev-registry").first().textContent(),
    /tool_registry_changed .*sha256:.*→ sha256:.*policy/,
  );
  assert.equal(await page.isHidden("#policy-warnings"), true, "every entry names something");
});

test("a malformed policy shows the exact error and keeps the last good policy", async () => {
  await policy(`{"deny": ["read_file", "a**b"]}`);
  const box = page.locator("#policy-error");
  await box.waitFor({ state: "visible" });
  const text = await box.textContent();
  assert.match(text, /PolicyError policy\.malformed/);
  assert.match(text, /\.holaryn\/tool-policy\.json/);
  assert.match(text, /at \/deny\/1/);
  assert.match(await page.textContent("#policy-state"), /last good policy stays/);
  assert.equal(await row("read_file").getAttribute("data-state"), "denied", "the last good policy is still in force");

  await policy(`{"deny": [\n  "read_file",\n}`);
  await box.waitFor({ state: "visible" });
  assert.match(await box.textContent(), /line 3, column 1/);
  await page.screenshot({ path: join(OUT, "capability-center-policy-error.png") });
  await page.click("#policy-revert");
  assert.match(await page.inputValue("#policy-text"), /"read_file"\]/);
});

test("a policy entry that matches no tool is applied, with a warning naming it", async () => {
  await policy(`{"deny": ["stripe/*", "read_fiel"]}`);
  await page.waitForSelector("#policy-warnings:not([hidden])");
  const text = await page.textContent("#policy-warnings");
  assert.match(text, /1 entry worth a second look/);
  assert.match(text, /read_fiel — `read_fiel` names no registered tool/);
  assert.match(text, /\(project \/deny\/1\)/);
  assert.match(await page.textContent("#policy-state"), /Applied/);
  assert.equal(await row("read_file").getAttribute("data-state"), "available");
  assert.deepEqual(await axeViolations(page), [], "the warning notice passes WCAG 2 A/AA");
});

test("the operator answers approval requests; Cancel withdraws one", async () => {
  await policy(`{"deny": ["stripe/*"]}`);
  await page.waitForSelector('#catalog-table tbody tr[data-tool="read_file"][data-state="available"]');
  await page.fill("#call-tool", "delete_file");
  await page.fill("#call-args", `{"path": "src/main.rs"}`);
  await page.click("#call-run");
  const req = page.locator('#approvals li[data-tool="delete_file"]');
  await req.waitFor();
  assert.match(await req.textContent(), /destructive/);
  // The main screenshot: a pending approval, the policy in force and the rows it denies.
  await page.fill("#filter-text", "stripe/c");
  await page.waitForFunction(() => document.querySelectorAll("#catalog-table tbody tr").length < 20);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(OUT, "capability-center.png"), fullPage: false });
  await page.fill("#filter-text", "");
  await req.locator("button.approve").click();
  await page.waitForFunction(() => /delete_file → ok/.test(document.querySelector("#transcript").textContent));
  assert.equal(await page.locator("#approvals li").count(), 0);
  assert.equal(await page.isVisible("#approvals-empty"), true);

  await page.uncheck("#call-inspect");
  await page.fill("#call-tool", "memory/read_graph");
  await page.fill("#call-args", "{}");
  await page.click("#call-run");
  await page.waitForFunction(() =>
    /memory\/read_graph → refused \(schema\) schema\.not_loaded/.test(
      document.querySelector("#transcript").textContent,
    ),
  );
  await page.check("#call-inspect");
  await page.fill("#call-tool", "delete_file");
  await page.fill("#call-args", `{"path": "src/main.rs"}`);

  await page.click("#call-run");
  await req.waitFor();
  await page.click("#call-cancel");
  await page.waitForFunction(() => /delete_file → cancelled/.test(document.querySelector("#transcript").textContent));
  assert.equal(await page.locator("#approvals li").count(), 0, "a cancelled call withdraws its approval request");
});

test("the agent flow runs through the gate, waits for approval, and Stop ends it", async () => {
  await page.click("#agent-run");
  const req = page.locator('#approvals li[data-tool="delete_file"]');
  await req.waitFor({ timeout: 20_000 });
  const t = await page.textContent("#transcript");
  assert.match(t, /glob_files → ok/);
  assert.match(t, /read_file → ok/);
  await req.locator("button.deny").click();
  await page.waitForFunction(() =>
    /delete_file → approval_denied/.test(document.querySelector("#transcript").textContent),
  );
  await page.waitForFunction(
    () => /run_tool_code → completed: 2 call/.test(document.querySelector("#transcript").textContent),
    null,
    { timeout: 20_000 },
  );
  await page.waitForFunction(() => !document.querySelector("#agent-run").disabled);

  await page.click("#agent-run");
  await page.click("#agent-stop");
  await page.waitForFunction(() => /stopped by the operator/.test(document.querySelector("#transcript").textContent));
  assert.equal(await page.isDisabled("#agent-stop"), true);
  assert.equal(await page.isEnabled("#agent-run"), true);
});

test("activity never shows queries or arguments; static sessions report loaded/hidden", async () => {
  const activity = await page.textContent("#activity");
  assert.doesNotMatch(activity, /release notes|src\/main\.rs|CHANGES/);
  assert.match(activity, /invocation/);
  assert.match(activity, /denial|schema_load/);

  await page.uncheck("#opt-discovery");
  await page.click("#new-session");
  await page.waitForFunction(() => /static/.test(document.querySelector("#session-mode").textContent));
  await page.waitForSelector('#catalog-table tbody tr[data-tool="glob_files"][data-state="loaded"]');
  await page.check("#opt-discovery");
  await page.click("#new-session");
  await page.waitForSelector('#catalog-table tbody tr[data-tool="glob_files"][data-state="available"]');
});

test("accessibility: axe-core finds no WCAG 2 A/AA violations", async () => {
  assert.deepEqual(await axeViolations(page), []);
});

test("keyboard: the controls are reachable and the page made no network requests", async () => {
  await page.focus("#search");
  await page.keyboard.press("Tab");
  const tag = await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);
  assert.ok(tag, "focus moves on Tab");
  assert.ok((await page.locator("label[for]").count()) >= 8, "form controls are labelled");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(OUT, "capability-center-full.png"), fullPage: true });
  assert.ok(existsSync(join(OUT, "capability-center-full.png")));
  assert.deepEqual(errors, []);
});
