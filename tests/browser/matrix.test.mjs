// The gate matrix through the npm package's browser build in headless Chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import { launch, serve } from "./harness.mjs";

test("the gate matrix passes in headless Chromium with Promise callbacks", async () => {
  const server = await serve();
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${server.url}/tests/browser/matrix.html`);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 120_000 });
    const result = await page.evaluate(() => window.__result);
    assert.deepEqual(errors, []);
    assert.deepEqual(result.failures, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
