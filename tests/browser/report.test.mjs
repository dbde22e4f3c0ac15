// report.html renders in headless Chromium; a screenshot is saved next to it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { launch, root } from "./harness.mjs";

test("the bench report renders and is screenshotted into the output dir", async () => {
  const out = join(root, "benchmark-results/tool-discovery");
  const r = spawnSync(
    process.execPath,
    [join(root, "bin/holaryn.mjs"), "bench", "run", "--suite", "tool-discovery", "--output-dir", out],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 0, r.stderr);
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1024, height: 900 } });
    await page.goto(`file://${join(out, "report.html")}`);
    assert.equal(await page.locator("h1").textContent(), "HolarynBench: tool discovery");
    assert.equal((await page.locator("svg rect.dynamic").count()) >= 4, true);
    assert.match(await page.locator(".sub .badge").textContent(), /passed/);
    await page.screenshot({ path: join(out, "report.png"), fullPage: true });
    assert.ok(existsSync(join(out, "report.png")));
  } finally {
    await browser.close();
  }
});
