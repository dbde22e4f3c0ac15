// The demo's tools: the HolarynBench catalog (20 published MCP servers plus
// native tools, browser tools, skills and slash commands), fetched from this
// server, and an `execute` callback that runs them against an in-memory
// project. Nothing leaves the page.
import { executor, virtualProject } from "./virtual-project.mjs";
import { directoryOrder, registerDirectoryFile } from "../js/cli/catalog-rule.mjs";

const BASE = new URL("../benchmarks/catalogs/", import.meta.url);

/**
 * The catalog directory's files (a page cannot list a directory), registered by
 * the same convention as `holaryn --catalog DIR`: one provider per file, names
 * qualified, `*.tools.json` ToolSpec arrays last.
 */
export const CATALOG_FILES = directoryOrder([
  "brave-search.json",
  "datadog.json",
  "everything.json",
  "fetch.json",
  "filesystem.json",
  "git.json",
  "github.json",
  "google-maps.json",
  "heroku.json",
  "launchdarkly.json",
  "memory.json",
  "notion.json",
  "playwright.json",
  "puppeteer.json",
  "sequential-thinking.json",
  "slack.json",
  "stripe.json",
  "supabase.json",
  "tavily.json",
  "time.json",
  "native-and-skills.tools.json",
]);

/** Fetch and register every catalog file; one registry change per file. */
export async function loadCatalogs(rt, files = CATALOG_FILES) {
  for (const file of files) {
    const res = await fetch(new URL(file, BASE));
    if (!res.ok) throw new Error(`cannot load catalog ${file}: HTTP ${res.status}`);
    registerDirectoryFile(rt, file, await res.text());
  }
}

/** Resolve after `ms`, or reject with an AbortError when `signal` aborts. */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException("aborted", "AbortError"));
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), reject(new DOMException("aborted", "AbortError"))), {
      once: true,
    });
  });
}

/**
 * An `execute` host callback: native tools run on an in-memory project,
 * browser tools read this page; each takes `latencyMs` so Stop and Cancel
 * have something to interrupt.
 */
export function demoExecutor({ latencyMs = 300 } = {}) {
  const files = virtualProject();
  const native = executor(files, []);
  return async (req) => {
    await sleep(latencyMs, req.signal);
    switch (req.tool) {
      case "browser_get_text":
        // biome-ignore lint/performance/useDomNodeTextContent: the text a user sees (rendered, no hidden nodes) is the point
        return { title: document.title, text: document.body.innerText.slice(0, 2000) };
      case "browser_screenshot":
        return { width: innerWidth, height: innerHeight, note: "a real host would capture the tab here" };
      case "browser_navigate":
        return { navigated: false, reason: "the demo page stays where it is" };
      default:
        return native(req);
    }
  };
}
