// Packaging smoke test: the BUILT npm package (run `npm run build` first) loads
// by its own name, both wasm builds instantiate after wasm-opt, the published
// file list holds everything `exports` and `bin` point at, and the CLI starts.
// It asks nothing of the API beyond the modules loading.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

test("the package imports by its name (Node entry, self-reference via exports)", async () => {
  const h = await import("holaryn");
  assert.ok(Object.keys(h).length > 0, "the module exports something");
  assert.equal(typeof h.init, "function", "init() exists for symmetry with the browser entry");
  await h.init();
  const viaPath = await import(new URL("../../js/node.mjs", import.meta.url));
  assert.equal(h.init, viaPath.init, 'the "node" condition resolves to js/node.mjs');
});

test("the browser entry instantiates the optimised web wasm (explicit init, no top-level await)", async () => {
  const b = await import(new URL("../../js/browser.mjs", import.meta.url));
  assert.equal(typeof b.init, "function");
  const bytes = readFileSync(join(root, "dist/web/holaryn_wasm_bg.wasm"));
  await b.init(bytes);
  await b.init(bytes); // idempotent
});

test("the published file list covers exports, types and bin", () => {
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" }),
  );
  const files = new Set(packed.files.map((f) => f.path));
  const wanted = new Set(["package.json", ...Object.values(pkg.bin)]);
  for (const entry of Object.values(pkg.exports)) {
    for (const target of typeof entry === "string" ? [entry] : Object.values(entry)) wanted.add(target);
  }
  // One web build serves Node and browsers: the runtime, the bounded-code compiler and the
  // gateway's config check; the types are the runtime's without its loader (api.d.ts), so
  // wasm-bindgen's loader declarations, which no export reaches, stay out of the tarball.
  for (const name of ["holaryn_wasm", "holaryn_code", "holaryn_gateway"]) {
    for (const f of [".js", "_bg.wasm"]) wanted.add(`dist/web/${name}${f}`);
    assert.ok(!files.has(`dist/web/${name}.d.ts`), `npm pack leaves out dist/web/${name}.d.ts`);
  }
  wanted.add("dist/web/holaryn_wasm.api.d.ts");
  for (const f of wanted) {
    const path = f.replace(/^\.\//, "");
    // A subpath pattern (`./schemas/*`) must match at least one packed file.
    const ok = path.includes("*")
      ? [...files].some((x) => x.startsWith(path.slice(0, path.indexOf("*"))))
      : files.has(path);
    assert.ok(ok, `npm pack includes ${f}`);
  }
  const wasm = packed.files
    .filter((f) => f.path.endsWith(".wasm"))
    .map((f) => f.path)
    .sort();
  assert.deepEqual(
    wasm,
    ["dist/web/holaryn_code_bg.wasm", "dist/web/holaryn_gateway_bg.wasm", "dist/web/holaryn_wasm_bg.wasm"],
    "each wasm ships once",
  );
  for (const f of files) {
    assert.ok(!/^(target|node_modules|\.tools|core|wasm|tests|scripts)\//.test(f), `npm pack leaves out ${f}`);
  }
});

test("the holaryn CLI prints its version", () => {
  const out = execFileSync(process.execPath, [join(root, pkg.bin.holaryn), "version"], { encoding: "utf8" });
  assert.equal(out.trim(), `holaryn ${pkg.version}`);
});
