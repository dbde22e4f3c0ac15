// The packed package in pages, as users bundle it: esbuild (the README's two
// recipes: the holaryn/esbuild plugin with the default init(), and
// holaryn/wasm through the file loader and init(url)), vite (no
// configuration) and a plain <script type=module> with an import map (the
// README's page verbatim), each loaded in headless Chromium, registering a
// tool and searching.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codeFences } from "../../scripts/readme-examples.mjs";
import { launch, serve } from "../browser/harness.mjs";
import { packedProject, root } from "./project.mjs";

const p = packedProject({ links: ["esbuild"] });
const fences = codeFences(["sh", "js", "html"]).filter((f) => f.heading === "Installing, bundlers and browsers");
const fence = (lang, nth = 0) => fences.filter((f) => f.lang === lang)[nth].code;
// What each page does once `rt` exists: register a tool, search, publish the names.
const USE = `rt.registerTools([{ name: "read_file", description: "Read a file from disk", source: "native", provider: { id: "host" } }]);
globalThis.holarynResult = rt.createSession({ dynamicDiscovery: true }).search({ query: "read a file" }).results.map((r) => r.name);
`;
let browser;
let server;

before(async () => {
  browser = await launch();
  server = await serve(p.dir);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Load `path` from the project; resolves to the page's search result, failing on page errors or 404s. */
async function loadPage(path, evaluate, base = server.url) {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
  try {
    await page.goto(`${base}/${path}`);
    const result = evaluate
      ? await page.evaluate(evaluate)
      : await page
          .waitForFunction(() => globalThis.holarynResult, null, { timeout: 20_000 })
          .then((h) => h.jsonValue());
    assert.deepEqual(problems, []);
    return result;
  } catch (e) {
    throw new Error(`${path}: ${e.message}\n${problems.join("\n")}`);
  } finally {
    await page.close();
  }
}

test("esbuild (issue 31): the README's plugin recipe, default options and the default init(), works in Chromium", async () => {
  const dir = join(p.dir, "plugin-app");
  mkdirSync(dir);
  writeFileSync(
    join(dir, "app.mjs"),
    `import { init, HolarynRuntime } from "holaryn";\nawait init();\nconst rt = new HolarynRuntime();\n${USE}`,
  );
  writeFileSync(join(dir, "build.mjs"), fence("js", 0));
  const build = p.run(process.execPath, ["build.mjs"], { cwd: dir });
  assert.equal(build.status, 0, build.stderr);
  assert.ok(existsSync(join(dir, "public/holaryn_wasm_bg.wasm")), "the plugin copied the wasm next to the bundle");
  writeFileSync(
    join(dir, "public/index.html"),
    '<!doctype html><title>esbuild plugin</title><script type="module" src="./app.js"></script>',
  );
  assert.deepEqual(await loadPage("plugin-app/public/"), ["read_file"]);
});

test("esbuild: the README's command-line recipe (holaryn/wasm, --loader:.wasm=file, init(url)) works in Chromium", async () => {
  writeFileSync(join(p.dir, "app.mjs"), fence("js", 1) + USE);
  const build = p.run("bash", ["-euo", "pipefail", "-c", fence("sh")]);
  assert.equal(build.status, 0, build.stderr);
  writeFileSync(
    join(p.dir, "public/index.html"),
    '<!doctype html><title>esbuild</title><script type="module" src="./app.js"></script>',
  );
  assert.deepEqual(await loadPage("public/"), ["read_file"]);
});

test("vite: no configuration, the default init() finds the emitted wasm", async () => {
  mkdirSync(join(p.dir, "vite-app"));
  writeFileSync(
    join(p.dir, "vite-app/index.html"),
    '<!doctype html><title>vite</title><script type="module" src="./main.mjs"></script>',
  );
  writeFileSync(
    join(p.dir, "vite-app/main.mjs"),
    `import { init, HolarynRuntime } from "holaryn";\nawait init();\nconst rt = new HolarynRuntime();\n${USE}`,
  );
  const build = p.run(process.execPath, [
    join(root, "node_modules/vite/bin/vite.js"),
    "build",
    "vite-app",
    "--logLevel",
    "warn",
  ]);
  assert.equal(build.status, 0, build.stderr);
  const site = await serve(join(p.dir, "vite-app/dist")); // vite's default base is /
  try {
    assert.deepEqual(await loadPage("", undefined, site.url), ["read_file"]);
  } finally {
    await site.close();
  }
});

test("a plain <script type=module> with an import map: the README's page as written", async () => {
  writeFileSync(join(p.dir, "plain.html"), `<!doctype html><title>plain</title>\n${fence("html")}`);
  const names = await loadPage("plain.html", async () => {
    const { init, HolarynRuntime } = await import("holaryn"); // the page's module instance, through its import map
    await init(); // the page's own init, already under way
    const rt = new HolarynRuntime();
    rt.registerTools([
      { name: "read_file", description: "Read a file from disk", source: "native", provider: { id: "host" } },
    ]);
    return rt
      .createSession({ dynamicDiscovery: true })
      .search({ query: "read a file" })
      .results.map((r) => r.name);
  });
  assert.deepEqual(names, ["read_file"]);
});
