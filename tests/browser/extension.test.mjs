// The demo MV3 extension (js-demo/extension) loaded unpacked into headless
// Chromium: its service worker loads the wasm, lists tabs, reads a served
// page's text only after the popup approves, and the popup's Deny gives
// approval_denied; a wake (simulated, then a real stop of the worker) restores
// the registry from the snapshot kept in IndexedDB, and a refused snapshot
// registers. Uses Debian's /usr/bin/chromium through playwright-core
// (launchPersistentContext: extensions need a user data dir), offline flags.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { axeViolations, CHROMIUM_FLAGS, root, serve } from "./harness.mjs";
import { vendor } from "../../js-demo/extension/vendor.mjs";

const EXT_DIR = join(root, "js-demo/extension");
const TITLE = "Holaryn extension fixture";
const CANARY = "HOLARYN-PAGE-CANARY-51c2";
const FIXTURE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${TITLE}</title></head>
<body><h1>Fixture page</h1><p>${CANARY} is text only this page holds.</p></body></html>
`;
const STEP_MS = 20_000;

describe("the demo extension loaded unpacked in headless Chromium", () => {
  let context, worker, extensionId, server, userDataDir, pageDir, fixtureUrl, fixturePage, tab;

  /** Evaluate in the extension's service worker (its `self.holaryn` API). */
  const inWorker = (fn, arg) => worker.evaluate(fn, arg);

  /** Open the popup as a tab and wait until it shows one pending request for `tool`. */
  async function openPopupWith(tool) {
    const popup = await context.newPage();
    const errors = [];
    popup.on("pageerror", (e) => errors.push(String(e)));
    await popup.goto(`chrome-extension://${extensionId}/popup.html`);
    const item = popup.locator("#pending li", { hasText: tool });
    await item.waitFor({ timeout: STEP_MS });
    return { popup, item, errors };
  }

  before(async () => {
    vendor(); // js/ + dist/web/ → js-demo/extension/vendor/holaryn/ (throws if not built)
    userDataDir = await mkdtemp(join(tmpdir(), "holaryn-ext-profile-"));
    pageDir = await mkdtemp(join(tmpdir(), "holaryn-ext-page-"));
    await writeFile(join(pageDir, "fixture.html"), FIXTURE);
    server = await serve(pageDir);
    fixtureUrl = `${server.url}/fixture.html`;
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      headless: true, // Chromium ≥ 132: "--headless" is the new headless mode, which loads extensions
      ignoreDefaultArgs: ["--disable-extensions"],
      args: [`--disable-extensions-except=${EXT_DIR}`, `--load-extension=${EXT_DIR}`, ...CHROMIUM_FLAGS],
    });
    const isOurs = (w) => w.url().startsWith("chrome-extension://") && w.url().endsWith("/sw.js");
    worker =
      context.serviceWorkers().find(isOurs) ??
      (await context.waitForEvent("serviceworker", { predicate: isOurs, timeout: STEP_MS }).catch((e) => {
        throw new Error(
          `the extension's service worker did not start (does this Chromium honour --load-extension?): ${e.message}`,
        );
      }));
    extensionId = new URL(worker.url()).host;
    await inWorker(() => self.holaryn.ready().then(() => undefined));

    fixturePage = await context.newPage();
    await fixturePage.goto(fixtureUrl);
    await fixturePage.bringToFront();
  });

  after(async () => {
    await context?.close();
    await server?.close();
    for (const dir of [userDataDir, pageDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  test("the service worker loads the wasm and registers the three browser tools", { timeout: STEP_MS }, async () => {
    assert.match(extensionId, /^[a-p]{32}$/);
    const rows = await inWorker(() => self.holaryn.table());
    const byName = Object.fromEntries(rows.filter((r) => r.source === "browser").map((r) => [r.name, r]));
    assert.deepEqual(Object.keys(byName).sort(), ["page_text", "tab_screenshot", "tabs_list"]);
    assert.equal(byName.tabs_list.source, "browser");
    assert.equal(byName.tabs_list.provider, "browser");
    assert.equal(byName.tabs_list.asksFirst, false);
    assert.equal(byName.page_text.asksFirst, true);
    assert.equal(byName.page_text.availability.state, "approval_required");
  });

  test("dynamic discovery: search finds the tools, a call before inspect is refused", {
    timeout: STEP_MS,
  }, async () => {
    const found = await inWorker(() => self.holaryn.search("read the text of a page"));
    assert.equal(found.results[0].name, "page_text");
    const early = await inWorker(() => self.holaryn.call("tabs_list", {}));
    assert.equal(early.code, "schema.not_loaded");
    assert.equal(early.executed, false);
    await inWorker(async () => {
      for (const name of ["tabs_list", "page_text", "tab_screenshot"]) await self.holaryn.inspect(name);
    });
  });

  test("tabs_list (approval auto) lists the served page", { timeout: STEP_MS }, async () => {
    const outcome = await inWorker(() => self.holaryn.call("tabs_list", {}));
    assert.equal(outcome.status, "ok", JSON.stringify(outcome));
    tab = outcome.output.find((t) => t.url === fixtureUrl);
    assert.ok(tab, `the fixture tab is listed: ${JSON.stringify(outcome.output)}`);
    assert.equal(tab.title, TITLE);
    assert.equal(typeof tab.id, "number");
  });

  test("page_text waits for the popup; Approve runs it and returns the page text", { timeout: 45_000 }, async () => {
    assert.ok(tab, "needs the tab found by tabs_list");
    const call = inWorker((tabId) => self.holaryn.call("page_text", { tabId }), tab.id);
    const { popup, item, errors } = await openPopupWith("page_text");
    try {
      await item.getByText("Asks because it is marked ask-first.").waitFor({ timeout: STEP_MS });
      assert.match(await item.textContent(), new RegExp(`"tabId":${tab.id}`));
      // The capability table is rendered from the same session.
      await popup.locator("#table tr", { hasText: "page_text" }).waitFor({ timeout: STEP_MS });
      await mkdir(join(root, "test-results"), { recursive: true });
      await popup.screenshot({ path: join(root, "test-results/extension-popup.png"), fullPage: true });
      assert.deepEqual(await axeViolations(popup), [], "the popup passes axe-core's WCAG 2 A/AA rules");
      await item.getByRole("button", { name: /^Approve page_text/ }).click();
      const outcome = await call;
      assert.equal(outcome.status, "ok", JSON.stringify(outcome));
      assert.equal(outcome.executed, true);
      assert.equal(outcome.output.tabId, tab.id);
      assert.match(outcome.output.text, new RegExp(CANARY));
      assert.equal(outcome.output.truncated, false);
      await popup.locator("#pending-empty").waitFor({ state: "visible", timeout: STEP_MS });
      assert.deepEqual(errors, []);
    } finally {
      await popup.close();
    }
  });

  test("page_text denied in the popup is approval_denied and never executes", { timeout: 45_000 }, async () => {
    assert.ok(tab, "needs the tab found by tabs_list");
    const call = inWorker((tabId) => self.holaryn.call("page_text", { tabId }), tab.id);
    const { popup, item, errors } = await openPopupWith("page_text");
    try {
      await item.getByRole("button", { name: /^Deny page_text/ }).click();
      const outcome = await call;
      assert.equal(outcome.status, "approval_denied", JSON.stringify(outcome));
      assert.equal(outcome.executed, false);
      assert.equal(outcome.output, undefined);
      assert.deepEqual(await inWorker(() => self.holaryn.pending()), []);
      assert.deepEqual(errors, []);
    } finally {
      await popup.close();
    }
  });

  test("page_text without tabId reads the web page, not the focused popup tab", { timeout: 45_000 }, async () => {
    assert.ok(tab, "needs the tab found by tabs_list");
    const call = inWorker(() => self.holaryn.call("page_text", {}));
    const { popup, item, errors } = await openPopupWith("page_text");
    try {
      await popup.bringToFront(); // the extension page is now the active tab
      await item.getByRole("button", { name: /^Approve page_text/ }).click();
      const outcome = await call;
      assert.equal(outcome.status, "ok", JSON.stringify(outcome));
      assert.equal(outcome.output.tabId, tab.id);
      assert.match(outcome.output.text, new RegExp(CANARY));
      assert.deepEqual(errors, []);
    } finally {
      await popup.close();
    }
  });

  test("tab_screenshot asks first; approved through the worker API it captures the tab", {
    timeout: 45_000,
  }, async () => {
    assert.ok(tab, "needs the tab found by tabs_list");
    await fixturePage.bringToFront();
    const call = inWorker((windowId) => self.holaryn.call("tab_screenshot", { windowId }), tab.windowId);
    const waiting = await inWorker(async () => {
      for (let i = 0; i < 500 && self.holaryn.pending().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      return self.holaryn.pending();
    });
    assert.deepEqual(
      waiting.map((p) => [p.tool, p.reason]),
      [["tab_screenshot", "ask_first"]],
    );
    await inWorker((callId) => self.holaryn.answer(callId, true), waiting[0].callId);
    const outcome = await call;
    assert.equal(outcome.status, "ok", JSON.stringify(outcome));
    assert.equal(outcome.output.mimeType, "image/png");
    assert.match(outcome.output.prefix, /^data:image\/png;base64,/);
    assert.ok(outcome.output.dataUrlLength > 100);
  });

  test("the message API answers the popup's pages, with typed errors", { timeout: STEP_MS }, async () => {
    const popup = await context.newPage();
    try {
      await popup.goto(`chrome-extension://${extensionId}/popup.html`);
      const [found, unknown, bad] = await popup.evaluate(() =>
        Promise.all([
          chrome.runtime.sendMessage({ type: "search", query: "screenshot" }),
          chrome.runtime.sendMessage({ type: "answer", callId: "no-such-call", approve: true }),
          chrome.runtime.sendMessage({ type: "nope" }),
        ]),
      );
      assert.equal(found.ok, true);
      assert.equal(found.value.results[0].name, "tab_screenshot");
      assert.deepEqual([unknown.ok, unknown.error.code], [false, "approval.unknown_call"]);
      assert.deepEqual([bad.ok, bad.error.code], [false, "extension.unknown_message"]);
    } finally {
      await popup.close();
    }
  });

  test("activity records name the tools but never hold the page text", { timeout: STEP_MS }, async () => {
    const records = await inWorker(() => self.holaryn.activity());
    const calls = records.filter((r) => r.tool === "page_text" && ["invocation", "denial"].includes(r.kind));
    assert.deepEqual(
      calls.map((r) => [r.kind, r.outcome]),
      [
        ["invocation", "ok"],
        ["denial", "approval.denied"],
        ["invocation", "ok"],
      ],
    );
    for (const r of calls) assert.equal(r.provenance.providerId, "browser");
    assert.ok(!JSON.stringify(records).includes(CANARY), "no page text in the activity log");
  });

  test("a wake restores the registry from the snapshot in IndexedDB; a refused one registers", {
    timeout: STEP_MS,
  }, async () => {
    const first = await inWorker(() => self.holaryn.startup());
    assert.equal(first.restored, false, "a fresh profile registers (and keeps a snapshot)");
    const seen = () =>
      inWorker(async () => ({
        rows: (await self.holaryn.table()).map((r) => [r.name, r.availability.state, r.availability.code]),
        found: (await self.holaryn.search("read the text of a page")).results.map((r) => r.name),
      }));
    // A changed byte in the kept snapshot: SnapshotError, so the worker registers and keeps a new one.
    await inWorker(async () => {
      const kept = await self.holaryn.readSnapshot();
      kept.bytes[kept.bytes.length >> 1] ^= 1;
      await self.holaryn.keepSnapshot(kept);
    });
    const registered = await inWorker(() => self.holaryn.wake());
    assert.deepEqual(registered, { restored: false, version: first.version, refused: "snapshot.refused" });
    const fresh = await seen();
    const restored = await inWorker(() => self.holaryn.wake());
    assert.deepEqual(restored, { restored: true, version: first.version });
    assert.deepEqual(await seen(), fresh, "the same states and search results as registering");
    assert.equal(fresh.found[0], "page_text");
    // The restored session calls through the gate as before (inspect first: a new session).
    await inWorker(() => self.holaryn.inspect("tabs_list"));
    const outcome = await inWorker(() => self.holaryn.call("tabs_list", {}));
    assert.equal(outcome.status, "ok", JSON.stringify(outcome));
  });

  test("Chrome stopping the worker: the next message wakes a new one, which restores", {
    timeout: STEP_MS,
  }, async () => {
    // This worker registered (a refused snapshot), so a `restored` answer can only come from a new one.
    await inWorker(async () => {
      const kept = await self.holaryn.readSnapshot();
      kept.bytes[kept.bytes.length - 1] ^= 1;
      await self.holaryn.keepSnapshot(kept);
    });
    const registered = await inWorker(() => self.holaryn.wake());
    assert.equal(registered.restored, false);
    const popup = await context.newPage();
    try {
      await popup.goto(`chrome-extension://${extensionId}/popup.html`);
      const cdp = await context.newCDPSession(popup);
      await cdp.send("ServiceWorker.enable");
      const stopped = new Promise((resolve) => worker.once("close", resolve));
      await cdp.send("ServiceWorker.stopAllWorkers");
      await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      const reply = await popup.evaluate(() => chrome.runtime.sendMessage({ type: "startup" }));
      assert.deepEqual(reply, { ok: true, value: { restored: true, version: registered.version } });
      const found = await popup.evaluate(() =>
        chrome.runtime.sendMessage({ type: "search", query: "read the text of a page" }),
      );
      assert.equal(found.value.results[0].name, "page_text");
    } finally {
      await popup.close();
    }
  });
});
