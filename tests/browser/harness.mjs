// Headless Chromium for tests: Debian's /usr/bin/chromium driven by
// playwright-core (no browser download), pages served from the repo over
// loopback only.
import { chromium } from "playwright-core";
import { serveStatic, root } from "../../js-demo/serve.mjs";

export { root };

/** Serve `dir` (default: the repo root) on 127.0.0.1, random port; resolves to {url, close}. */
export const serve = (dir = root) => serveStatic(dir, 0);

/** Launch headless Chromium with the flags this offline machine needs. */
export function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run", ...extraArgs,
    ],
  });
}
