// Headless Chromium for tests: Debian's /usr/bin/chromium driven by
// playwright-core (no browser download), pages served from the repo over
// loopback only.
import { chromium } from "playwright-core";
import { serveStatic, root } from "../../js-demo/serve.mjs";

export { root };

/** Serve `dir` (default: the repo root) on 127.0.0.1, random port; resolves to {url, close}. */
export const serve = (dir = root) => serveStatic(dir, 0);

/** The flags this offline machine needs (also for persistent contexts, e.g. extensions). */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

/** Launch headless Chromium with the flags this offline machine needs. */
export function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [...CHROMIUM_FLAGS, ...extraArgs],
  });
}

/**
 * WCAG 2 A/AA violations axe-core finds on `page`, one line each. axe is
 * evaluated through the DevTools protocol, so pages with a strict CSP
 * (extension pages) can be checked too.
 */
export async function axeViolations(page) {
  const { readFile } = await import("node:fs/promises");
  const source = await readFile(new URL("../../node_modules/axe-core/axe.min.js", import.meta.url), "utf8");
  await page.evaluate(source);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] } });
    return r.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(", ")}`,
    );
  });
}
