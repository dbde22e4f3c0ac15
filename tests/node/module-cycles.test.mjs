// scripts/module-cycles.mjs (issue "One direction", item 6) over the fixture
// crates of tests/fixtures/module-cycles/ (its README says what each holds).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { analyzeCrate, lex, main, workspaceCrates } from "../../scripts/module-cycles.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const fixtures = join(root, "tests/fixtures/module-cycles");
const script = join(root, "scripts/module-cycles.mjs");

/** The crate in fixture `name`: files and edges as paths under its src/ ("a.rs -> b.rs": [lines]). */
function crate(name) {
  const c = analyzeCrate(join(fixtures, name));
  const src = join(fixtures, name, "src");
  const short = (f) => relative(src, f).split("\\").join("/");
  return {
    ...c,
    fileNames: c.files.map(short).sort(),
    edgeMap: Object.fromEntries(c.edges.map((e) => [`${short(e.from)} -> ${short(e.to)}`, e.lines])),
    componentNames: c.components.map((comp) => comp.files.map(short)),
    short,
  };
}

/** The CLI on `args`: {status, stdout}. */
function cli(...args) {
  const r = spawnSync(process.execPath, [script, ...args], { encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("a three-file circle through crate:: paths fails, with a witness chain of file:line edges", () => {
  const c = crate("cycle3");
  assert.deepEqual(c.edgeMap, { "a.rs -> b.rs": [1], "b.rs -> c.rs": [4], "c.rs -> a.rs": [1, 2] });
  assert.deepEqual(c.componentNames, [["a.rs", "b.rs", "c.rs"]]);
  const chain = c.components[0].cycle.map((e) => `${c.short(e.from)}:${e.line} -> ${c.short(e.to)}`);
  assert.deepEqual(chain, ["a.rs:1 -> b.rs", "b.rs:4 -> c.rs", "c.rs:1 -> a.rs"]);

  const r = cli(join(fixtures, "cycle3"));
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^cycle3: 4 files, 3 edges, largest cycle 3 files$/m);
  assert.match(r.stdout, /FAIL import cycle of 3 files/);
  assert.match(r.stdout, /cycle3\/src\/b\.rs -> \S*cycle3\/src\/c\.rs {2}\(\S*cycle3\/src\/b\.rs:4\)/);
});

test("a path through a root re-export resolves to the defining file, past lib.rs and a mod.rs: no circle", () => {
  const c = crate("reexport");
  assert.deepEqual(c.edgeMap, {
    "a.rs -> b.rs": [1],
    "b.rs -> c.rs": [1],
    "b.rs -> m/inner.rs": [1],
    "lib.rs -> a.rs": [9],
    "lib.rs -> b.rs": [10],
    "lib.rs -> c.rs": [11],
    "lib.rs -> m/inner.rs": [12],
    "m/mod.rs -> m/inner.rs": [3],
  });
  assert.deepEqual(c.components, []);
  assert.equal(cli(join(fixtures, "reexport")).status, 0);
});

test("a parent mod.rs and a child using super:: form an allowed two-file circle, noted only with --verbose", () => {
  const c = crate("parent-child");
  assert.deepEqual(c.componentNames, [["p/child.rs", "p/mod.rs"]]);
  const quiet = cli(join(fixtures, "parent-child"));
  assert.equal(quiet.status, 0);
  assert.equal(quiet.stdout, "parent-child: 3 files, 3 edges, largest cycle 2 files\n");
  const verbose = cli("--verbose", join(fixtures, "parent-child"));
  assert.equal(verbose.status, 0);
  assert.match(verbose.stdout, /note: two-file cycle \(allowed\)/);
});

test("use trees: nested braces, self, as, globs (used names only, every name for pub use), pub(crate) use", () => {
  const c = crate("use-trees");
  assert.deepEqual(c.edgeMap, {
    "a.rs -> b.rs": [2, 15], // B1 as Renamed; b::b_fn() through `b::{self}`
    "a.rs -> c.rs": [5], // C1
    "a.rs -> c/nested.rs": [4, 16], // Deep; n::deeper() through `nested::{self as n}`
    "a.rs -> d.rs": [7], // d_fn() through `d::*`
    "a.rs -> e.rs": [9], // pub(crate) use
    "a.rs -> f.rs": [10], // pub use crate::f::* re-exports F
  });
  // `use crate::g::*;` brings nothing the file uses: no edge; `mod x;` alone is no edge either.
  assert.ok(c.fileNames.includes("g.rs") && c.fileNames.includes("c/nested.rs"));
});

test("super::super:: from a grandchild declared in a non-mod.rs file", () => {
  const c = crate("super-super");
  assert.deepEqual(c.fileNames, ["lib.rs", "x/mod.rs", "x/y.rs", "x/y/z.rs"]);
  assert.deepEqual(c.edgeMap, { "x/y/z.rs -> lib.rs": [4], "x/y/z.rs -> x/mod.rs": [1] });
});

test("#[cfg(test)] modules, uses and methods are not part of the graph", () => {
  const c = crate("cfg-test");
  // a/more_tests.rs (`#[cfg(test)] mod more_tests;`) and test_support.rs (`#![cfg(test)]`) are test-only.
  assert.deepEqual(c.fileNames, ["a.rs", "b.rs", "c.rs", "lib.rs"]);
  assert.deepEqual(c.edgeMap, { "b.rs -> c.rs": [1], "c.rs -> a.rs": [1] });
  assert.equal(cli(join(fixtures, "cfg-test")).status, 0);
});

test("inline modules: brace-matched past braces in strings, chars and comments; super:: and mod x; inside", () => {
  const c = crate("inline");
  assert.deepEqual(c.warnings, []);
  assert.deepEqual(c.fileNames, ["helper.rs", "lib.rs", "outer/from_file.rs"]);
  assert.deepEqual(c.edgeMap, { "helper.rs -> lib.rs": [1], "outer/from_file.rs -> helper.rs": [1] });
});

test("a bare pub mod in a crate root fails with file:line; #[cfg(fuzzing)] pub mod and pub(crate) mod do not", () => {
  const c = crate("pub-mod");
  assert.deepEqual(
    c.pubMods.map((p) => [c.short(p.file), p.line, p.name]),
    [["lib.rs", 3, "api"]],
  );
  const r = cli(join(fixtures, "pub-mod"));
  assert.equal(r.status, 1);
  assert.match(r.stdout, /FAIL \S*pub-mod\/src\/lib\.rs:3: `pub mod api` in a crate root/);
});

test("a path in code through a module imported with use points at the file defining the item", () => {
  const c = crate("alias");
  assert.deepEqual(c.edgeMap, {
    "engine/index/mod.rs -> engine/index/foo.rs": [3],
    "engine/search.rs -> engine/index/foo.rs": [4], // index::Foo::new(), not index/mod.rs
  });
});

test("workspace members: globs, exclude, [lib] path and src/main.rs", () => {
  const ws = join(fixtures, "workspace");
  const dirs = workspaceCrates(ws).map((d) => relative(ws, d).split("\\").join("/"));
  assert.deepEqual(dirs, ["crates/one", "crates/two", "tool"]);
  const crates = workspaceCrates(ws).map(analyzeCrate);
  assert.deepEqual(
    crates.map((c) => [c.name, relative(ws, c.root).split("\\").join("/"), c.files.length]),
    [
      ["fixture-one", "crates/one/src/lib.rs", 1],
      ["fixture-two", "crates/two/src/root.rs", 1],
      ["fixture-tool", "tool/src/main.rs", 2],
    ],
  );
});

test("--json prints the graph: files, edges with lines, components with their witness cycle", () => {
  const r = cli("--json", join(fixtures, "cycle3"), join(fixtures, "reexport"));
  assert.equal(r.status, 1);
  const j = JSON.parse(r.stdout);
  assert.equal(j.ok, false);
  assert.deepEqual(
    j.crates.map((c) => c.name),
    ["cycle3", "reexport"],
  );
  const [cycle] = j.crates[0].components;
  assert.equal(cycle.fails, true);
  assert.equal(cycle.files.length, 3);
  assert.equal(cycle.cycle.length, 3);
  assert.ok(j.crates[0].edges.every((e) => e.from && e.to && e.lines.length > 0));
});

test("the lexer tells lifetimes and labels from char literals, and drops comments", () => {
  const kinds = lex("fn f<'a>(x: &'a str) { let c = '}'; 'l: loop {} /* } */ let d = '\\''; }")
    .filter((t) => t.t !== "id")
    .map((t) => t.v)
    .join(" ");
  assert.equal(kinds, "< 'a > ( : & 'a ) { = '}' ; 'l : { } = '\\'' ; }");
});

test("the repository's own crates parse without warnings, quickly", () => {
  const start = performance.now();
  const out = [];
  main(["--json"], (s) => out.push(s));
  const ms = performance.now() - start;
  const j = JSON.parse(out.join("\n"));
  assert.ok(j.crates.length >= 3);
  for (const c of j.crates) assert.deepEqual([c.name, c.warnings], [c.name, []]);
  assert.ok(ms < 5000, `${ms} ms`);
});
