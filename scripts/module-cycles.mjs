// The module graph of every crate (issue "One direction", item 6): no import
// circle of more than two files, and no `pub mod` in a crate root.
//
//   node scripts/module-cycles.mjs [--json] [--verbose] [--edges] [crate-dir...]
//
// Without crate dirs it checks every member of the root Cargo.toml's
// [workspace] (globs such as `crates/*` included), starting at each member's
// src/lib.rs (src/main.rs when there is no lib; `[lib] path` is honoured).
//
// The graph is read from the sources, without cargo: the module tree comes from
// `mod x;` (x.rs or x/mod.rs, `#[path]`) and inline `mod x { ... }`; an edge
// A -> B means file A names an item that file B DEFINES, through a `use` tree
// (`pub use` and `pub(crate) use` included) or a path in code starting with
// `crate::`, `super::`, `self::` or a module brought into scope by `mod` or
// `use`. A path is followed through re-exports and imports (globs too) to the
// file that defines the item, so `crate::Code` re-exported by lib.rs points at
// codes.rs, not at lib.rs; an item a module's own macro generates is counted as
// defined by that module's file. A glob `use m::*` makes edges only to the
// files defining the names the importing module uses. `mod x;` alone is not an
// edge, nor is importing a module itself, nor a file naming itself; paths into
// other crates (std, serde, holaryn_core, ...) are ignored.
//
// Modules and items marked `#[cfg(test)]` are skipped: test code may reach
// anywhere, it is not part of the library's dependency direction.
//
// Fails (exit 1) when a crate's graph has a strongly connected component of
// more than two files (printed with one witness cycle, each edge with the
// file:line of the import that makes it; `--edges` lists every edge inside it),
// or when a crate root (src/lib.rs) declares a bare `pub mod` (the public API
// is chosen with `pub use`; `#[cfg(fuzzing)] pub mod` is allowed). Two-file
// circles (typically a mod.rs re-exporting a child that uses `super::X`) pass;
// `--verbose` lists them. `--json` prints the graph instead of the summary.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

// ── Lexer ────────────────────────────────────────────────────────────────────
// Tokens {t, v, line}: t is "id" (v the name; raw identifiers keep a `raw`
// flag), "p" (punctuation, `::` as one token), "lit" (strings, chars, numbers)
// or "life" (lifetimes and labels). Comments vanish, so braces inside strings,
// chars and comments never count.

// ASCII fast paths; other characters by their Unicode XID properties.
const isIdStart = (c) =>
  (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_" || (c > "\x7f" && /\p{XID_Start}/u.test(c));
const isIdCont = (c) =>
  (c >= "a" && c <= "z") ||
  (c >= "A" && c <= "Z") ||
  (c >= "0" && c <= "9") ||
  c === "_" ||
  (c > "\x7f" && /\p{XID_Continue}/u.test(c));

/** The tokens of Rust source `src`. */
export function lex(src) {
  const toks = [];
  const n = src.length;
  let i = 0;
  let line = 1;
  // A literal from `i` to `end`: its source text is its value (attributes read `path = "..."`).
  const literal = (end) => {
    toks.push({ t: "lit", v: src.slice(i, end), line });
    for (let k = i; k < end; k++) if (src.charCodeAt(k) === 10) line++;
    i = end;
  };
  // The end of a quoted body starting at `j` (just past the opening quote), escapes honoured.
  const quoted = (j, quote) => {
    while (j < n && src[j] !== quote) j += src[j] === "\\" ? 2 : 1;
    return Math.min(j + 1, n);
  };
  // The end of a raw string whose `r` is at `j` (r"…", r#"…"#, …), or -1 when it is not one.
  const raw = (j) => {
    let k = j + 1;
    while (src[k] === "#") k++;
    if (src[k] !== '"') return -1;
    const close = `"${"#".repeat(k - j - 1)}`;
    const end = src.indexOf(close, k + 1);
    return end < 0 ? n : end + close.length;
  };
  while (i < n) {
    const c = src[i];
    if (c === "\n") {
      line++;
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v" || c === "\uFEFF") {
      i++;
      continue;
    }
    if (c === "/" && src[i + 1] === "/") {
      const end = src.indexOf("\n", i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === "/" && src[i + 1] === "*") {
      let depth = 0;
      let j = i;
      while (j < n) {
        if (src[j] === "/" && src[j + 1] === "*") {
          depth++;
          j += 2;
        } else if (src[j] === "*" && src[j + 1] === "/") {
          depth--;
          j += 2;
          if (depth === 0) break;
        } else {
          if (src.charCodeAt(j) === 10) line++;
          j++;
        }
      }
      i = j;
      continue;
    }
    // Prefixed literals: r"", r#""#, b"", br"", c"", cr"", b''; and raw identifiers r#name.
    if (c === "b" || c === "c" || c === "r") {
      const r = c === "r" ? i : src[i + 1] === "r" ? i + 1 : -1;
      const end = r < 0 ? -1 : raw(r);
      if (end >= 0) {
        literal(end);
        continue;
      }
      if (c !== "r" && src[i + 1] === '"') {
        literal(quoted(i + 2, '"'));
        continue;
      }
      if (c === "b" && src[i + 1] === "'") {
        literal(quoted(i + 2, "'"));
        continue;
      }
      if (c === "r" && src[i + 1] === "#" && isIdStart(src[i + 2] ?? "")) {
        let j = i + 2;
        while (j < n && isIdCont(src[j])) j++;
        toks.push({ t: "id", v: src.slice(i + 2, j), raw: true, line });
        i = j;
        continue;
      }
    }
    if (c === '"') {
      literal(quoted(i + 1, '"'));
      continue;
    }
    if (c === "'") {
      // A char literal ('a', '\n', '\u{..}', '{') or a lifetime / label ('a, 'static).
      if (src[i + 1] === "\\") {
        literal(quoted(i + 1, "'"));
        continue;
      }
      const w = src.codePointAt(i + 1) > 0xffff ? 2 : 1;
      if (src[i + 1 + w] === "'") {
        literal(i + 2 + w);
        continue;
      }
      let j = i + 1;
      while (j < n && isIdCont(src[j])) j++;
      toks.push({ t: "life", v: src.slice(i, j), line });
      i = j;
      continue;
    }
    if (isIdStart(c)) {
      let j = i + 1;
      while (j < n && isIdCont(src[j])) j++;
      toks.push({ t: "id", v: src.slice(i, j), line });
      i = j;
      continue;
    }
    if (c >= "0" && c <= "9") {
      let j = i + 1;
      while (j < n && (isIdCont(src[j]) || (src[j] === "." && src[j + 1] >= "0" && src[j + 1] <= "9"))) j++;
      literal(j);
      continue;
    }
    if (c === ":" && src[i + 1] === ":") {
      toks.push({ t: "p", v: "::", line });
      i += 2;
      continue;
    }
    toks.push({ t: "p", v: c, line });
    i++;
  }
  return toks;
}

// ── Parser ───────────────────────────────────────────────────────────────────

const OPEN = { "(": ")", "[": "]", "{": "}" };
const is = (tok, v) => tok !== undefined && tok.v === v && (tok.t === "p" || (tok.t === "id" && !tok.raw));
const isName = (tok) => tok !== undefined && tok.t === "id";

/** The index just past the group opened at `i` (brace-matched), or `end`. */
function skipGroup(toks, i, end) {
  let depth = 0;
  for (let k = i; k < end; k++) {
    const t = toks[k];
    if (t.t !== "p") continue;
    if (OPEN[t.v]) depth++;
    else if (t.v === ")" || t.v === "]" || t.v === "}") {
      depth--;
      if (depth === 0) return k + 1;
    }
  }
  return end;
}

const compact = (toks, a, b) =>
  toks
    .slice(a, b)
    .map((t) => t.v)
    .join("");
const isCfgTest = (attr) => /^cfg\((test|all\(test,.*\))\)$/.test(attr);

// Item kinds that end at a `;` at depth 0 even after a `{}` group (initialisers may hold blocks).
const UNTIL_SEMI = new Set(["const", "static", "type", "let"]);
const ITEM_KW = new Set(["fn", "struct", "enum", "union", "trait", "type", "const", "static", "macro_rules"]);
const MODIFIERS = new Set(["unsafe", "async", "default", "auto", "safe"]);

let nextModuleId = 0;

/** A module: its file, parent, children, defined item names, `use` bindings and globs, code paths. */
function newModule(name, parent, file, { inlineChain = [], dirOwner = true } = {}) {
  return {
    id: nextModuleId++,
    name,
    parent,
    file,
    inlineChain, // names of the inline modules between `file`'s own module and this one
    dirOwner, // `file` is lib.rs/main.rs/mod.rs (or #[path]): children live beside it
    children: new Map(),
    items: new Set(),
    bindings: new Map(), // name -> use (below)
    globs: [], // uses ending in `*`
    uses: [], // every use leaf: {segs, line, local (in a body), glob, pub}
    paths: [], // {segs, line} of code paths
    idents: new Map(), // name -> first line, for glob imports
  };
}

/**
 * Parses the use tree at `i` (after `use`) up to `;`; returns {leaves, end}.
 * A leaf: {segs, line, bind (name or null), glob}.
 */
function parseUse(toks, i, end) {
  const leaves = [];
  const tree = (k, prefix) => {
    const segs = [...prefix];
    if (is(toks[k], "::")) {
      if (segs.length === 0) segs.push("::");
      k++;
    }
    for (;;) {
      const t = toks[k];
      if (t === undefined || k >= end) return k;
      if (is(t, "{")) {
        k++;
        while (k < end && !is(toks[k], "}")) {
          k = tree(k, segs);
          if (is(toks[k], ",")) k++;
        }
        return k + 1;
      }
      if (is(t, "*")) {
        leaves.push({ segs, line: t.line, bind: null, glob: true });
        return k + 1;
      }
      if (!isName(t)) return k + 1;
      let leafSegs = [...segs, t.v];
      let bind = t.v;
      let line = t.line;
      k++;
      if (is(toks[k], "::")) {
        segs.push(t.v);
        k++;
        continue;
      }
      if (t.v === "self" && !t.raw && segs.length > 0) {
        leafSegs = segs;
        bind = segs[segs.length - 1];
        line = t.line;
      }
      if (is(toks[k], "as")) {
        bind = toks[k + 1].v === "_" ? null : toks[k + 1].v;
        k += 2;
      }
      leaves.push({ segs: leafSegs, line, bind, glob: false });
      return k;
    }
  };
  let k = i;
  while (k < end && !is(toks[k], ";")) k = tree(k, []);
  return { leaves, end: k + 1 };
}

/** The end of the item whose keyword (or first token) is at `i`. */
function itemEnd(toks, i, end, kind) {
  let k = i;
  while (k < end) {
    const t = toks[k];
    if (is(t, ";")) return k + 1;
    if (t.t === "p" && OPEN[t.v]) {
      const after = skipGroup(toks, k, end);
      if (t.v === "{" && !UNTIL_SEMI.has(kind)) return after;
      k = after;
      continue;
    }
    k++;
  }
  return end;
}

/**
 * Walks the code in toks[a, b) of module `mod`: local `use`s (bindings visible
 * only inside the module), paths made of `ident :: ident ...`, and the names
 * used (for glob imports). Attributes are skipped.
 */
function scanCode(toks, a, b, mod) {
  for (let k = a; k < b; k++) {
    const t = toks[k];
    if (is(t, "#") && (is(toks[k + 1], "[") || (is(toks[k + 1], "!") && is(toks[k + 2], "[")))) {
      const open = is(toks[k + 1], "[") ? k + 1 : k + 2;
      const close = skipGroup(toks, open, b);
      // A test-only item inside a body (a method of an impl, a statement): skipped whole.
      k = (isCfgTest(compact(toks, open + 1, close - 1)) ? itemEnd(toks, close, b, "other") : close) - 1;
      continue;
    }
    if (is(t, "use") && !is(toks[k - 1], "::")) {
      const { leaves, end } = parseUse(toks, k + 1, b);
      addUses(mod, leaves, true);
      k = end - 1;
      continue;
    }
    if (!isName(t) || is(toks[k - 1], "::") || is(toks[k - 1], ".")) continue;
    if (!mod.idents.has(t.v)) mod.idents.set(t.v, t.line);
    if (!is(toks[k + 1], "::")) continue;
    const segs = [t.v];
    let j = k + 1;
    while (is(toks[j], "::") && isName(toks[j + 1])) {
      segs.push(toks[j + 1].v);
      j += 2;
    }
    mod.paths.push({ segs, line: t.line });
    k = j - 1;
  }
}

function addUses(mod, leaves, local, pub = false) {
  for (const leaf of leaves) {
    const use = { segs: leaf.segs, line: leaf.line, local, glob: leaf.glob, pub };
    mod.uses.push(use);
    if (leaf.glob) mod.globs.push(use);
    else if (leaf.bind !== null && !(local && mod.bindings.has(leaf.bind))) mod.bindings.set(leaf.bind, use);
  }
}

/**
 * Parses the items in toks[a, b) into module `mod`; `mod x;` declarations are
 * pushed to `decls` as {parent, name, path, line} for the caller to load.
 * `rootPubMods` collects bare `pub mod`s when `mod` is a library's crate root.
 * A file starting with `#![cfg(test)]` only marks its module `testOnly`.
 */
function parseItems(toks, a, b, mod, decls, rootPubMods) {
  let i = a;
  while (i < b) {
    const attrs = [];
    while (is(toks[i], "#")) {
      const inner = is(toks[i + 1], "!");
      const open = inner ? i + 2 : i + 1;
      if (!is(toks[open], "[")) break;
      const close = skipGroup(toks, open, b);
      const attr = compact(toks, open + 1, close - 1);
      if (!inner) attrs.push({ text: attr });
      else if (isCfgTest(attr)) {
        mod.testOnly = true;
        return;
      }
      i = close;
    }
    if (i >= b) break;
    const test = attrs.some((x) => isCfgTest(x.text));
    const start = i;
    let bare = false;
    if (is(toks[i], "pub")) {
      i++;
      bare = !is(toks[i], "(");
      if (!bare) i = skipGroup(toks, i, b);
    }
    while (
      (toks[i] && toks[i].t === "id" && MODIFIERS.has(toks[i].v) && !toks[i].raw && isName(toks[i + 1])) ||
      (is(toks[i], "const") && (is(toks[i + 1], "fn") || MODIFIERS.has(toks[i + 1]?.v) || is(toks[i + 1], "extern")))
    )
      i++;
    if (is(toks[i], "extern") && toks[i + 1]?.t === "lit") i++;
    const kw = toks[i];
    if (is(kw, "mod") && isName(toks[i + 1])) {
      const name = toks[i + 1].v;
      if (rootPubMods && bare && !attrs.some((x) => /^cfg\(fuzzing\)$/.test(x.text))) {
        rootPubMods.push({ line: toks[start].line, name });
      }
      if (is(toks[i + 2], "{")) {
        const close = skipGroup(toks, i + 2, b);
        if (!test) {
          const child = newModule(name, mod, mod.file, {
            inlineChain: [...mod.inlineChain, name],
            dirOwner: mod.dirOwner,
          });
          mod.children.set(name, child);
          parseItems(toks, i + 3, close - 1, child, decls, null);
        }
        i = close;
        continue;
      }
      if (!test) {
        const pathAttr = attrs.map((x) => /^path=(r?#*)"(.*)"\1$/.exec(x.text)).find(Boolean);
        decls.push({ parent: mod, name, path: pathAttr ? pathAttr[2] : null, line: kw.line });
      }
      i = itemEnd(toks, i, b, "mod");
      continue;
    }
    if (is(kw, "use")) {
      const { leaves, end } = parseUse(toks, i + 1, b);
      if (!test) addUses(mod, leaves, false, is(toks[start], "pub"));
      i = end;
      continue;
    }
    if (is(kw, "extern") && is(toks[i + 1], "crate")) {
      i = itemEnd(toks, i, b, "extern");
      continue;
    }
    let kind = "other";
    if (kw && kw.t === "id" && !kw.raw) {
      if (ITEM_KW.has(kw.v)) kind = kw.v;
      else if (kw.v === "union" && isName(toks[i + 1])) kind = "union";
      else if (kw.v === "impl") kind = "impl";
    }
    if (kind !== "other" && kind !== "impl" && !test) {
      let nameTok = kind === "macro_rules" ? toks[i + 2] : toks[i + 1];
      if (kind === "static" && is(nameTok, "mut")) nameTok = toks[i + 2];
      if (isName(nameTok)) mod.items.add(nameTok.v);
    }
    const end = itemEnd(toks, i, b, kind);
    if (!test) scanCode(toks, i, end, mod);
    i = Math.max(end, i + 1);
  }
}

// ── Crate loading ────────────────────────────────────────────────────────────

/**
 * Reads every file of the crate whose root file is `rootFile`; returns {root,
 * files, rootPubMods, warnings}. `lib`: the root is a library's (its bare
 * `pub mod`s are reported).
 */
export function loadCrate(rootFile, { lib = true } = {}) {
  const files = new Set(); // absolute paths, in load order
  const warnings = [];
  const rootPubMods = [];
  const root = newModule("crate", null, rootFile, { dirOwner: true });
  const queue = [{ mod: root, file: rootFile, isRoot: true }];
  while (queue.length > 0) {
    const { mod, file, isRoot } = queue.shift();
    if (files.has(file)) continue;
    const toks = lex(readFileSync(file, "utf8"));
    const decls = [];
    parseItems(toks, 0, toks.length, mod, decls, isRoot && lib ? rootPubMods : null);
    if (mod.testOnly && mod.parent) {
      mod.parent.children.delete(mod.name);
      continue;
    }
    files.add(file);
    for (const d of decls) {
      const parent = d.parent;
      const base = parent.dirOwner
        ? join(dirname(parent.file), ...parent.inlineChain)
        : join(dirname(parent.file), basename(parent.file, ".rs"), ...parent.inlineChain);
      let target;
      let dirOwner;
      if (d.path !== null) {
        target = parent.inlineChain.length === 0 ? join(dirname(parent.file), d.path) : join(base, d.path);
        dirOwner = true;
      } else {
        const flat = join(base, `${d.name}.rs`);
        const nested = join(base, d.name, "mod.rs");
        target = existsSync(flat) ? flat : nested;
        dirOwner = target === nested;
      }
      if (!existsSync(target)) {
        warnings.push(`${rel(parent.file)}:${d.line}: module file for \`mod ${d.name};\` not found`);
        continue;
      }
      const child = newModule(d.name, parent, target, { dirOwner });
      parent.children.set(d.name, child);
      queue.push({ mod: child, file: target, isRoot: false });
    }
  }
  return { root, files: [...files], rootPubMods, warnings };
}

// ── Resolution ───────────────────────────────────────────────────────────────

const EXTERNAL = { kind: "external" };

/**
 * What `name` means in `mod`: {kind: "module", mod}, {kind: "item", file},
 * EXTERNAL (bound to another crate) or null (not known here). `inside`: the
 * lookup is made from the module's own code, so function-local `use`s count.
 */
function lookup(mod, name, inside, seen) {
  // `seen` holds the lookups in progress: a circle of re-exports ends instead of looping.
  const key = `${mod.id}:${name}`;
  if (seen.has(key)) return null;
  seen.add(key);
  try {
    return lookupIn(mod, name, inside, seen);
  } finally {
    seen.delete(key);
  }
}

function lookupIn(mod, name, inside, seen) {
  const child = mod.children.get(name);
  if (child) return { kind: "module", mod: child };
  if (mod.items.has(name)) return { kind: "item", file: mod.file };
  const b = mod.bindings.get(name);
  if (b && (inside || !b.local)) return resolveSegs(mod, b.segs, seen) ?? EXTERNAL;
  for (const g of mod.globs) {
    if (g.local && !inside) continue;
    const from = resolveSegs(mod, g.segs, seen);
    if (from?.kind !== "module") continue;
    const r = lookup(from.mod, name, false, seen);
    if (r) return r;
  }
  return null;
}

/**
 * Resolves a path written in `mod` to {kind: "module", mod}, {kind: "item",
 * file, fallback?} or null (another crate). Once inside a module of this crate,
 * a name it neither defines, declares nor imports is taken as defined by its
 * file (an item a macro generates).
 */
function resolveSegs(mod, segs, seen = new Set()) {
  let cur;
  let k = 1;
  const first = segs[0];
  if (first === "::") return null;
  if (first === "crate") {
    cur = mod;
    while (cur.parent) cur = cur.parent;
  } else if (first === "self") cur = mod;
  else if (first === "super") {
    cur = mod.parent;
    while (cur && segs[k] === "super") {
      cur = cur.parent;
      k++;
    }
    if (!cur) return null;
  } else {
    const r = lookup(mod, first, true, seen);
    if (r === null || r.kind === "external") return null;
    if (r.kind === "item") return r;
    cur = r.mod;
  }
  for (; k < segs.length; k++) {
    const r = lookup(cur, segs[k], false, seen);
    if (r === null) return { kind: "item", file: cur.file, fallback: true };
    if (r.kind === "external") return null;
    if (r.kind === "item") return r;
    cur = r.mod;
  }
  return { kind: "module", mod: cur };
}

/** The names module `mod` defines or imports for other modules (items, `use` bindings, globs'). */
function namesOf(mod, seen) {
  if (seen.has(mod)) return [];
  seen.add(mod);
  const names = [...mod.items];
  for (const [name, b] of mod.bindings) if (!b.local) names.push(name);
  for (const g of mod.globs) {
    if (g.local) continue;
    const from = resolveSegs(mod, g.segs);
    if (from?.kind === "module") names.push(...namesOf(from.mod, seen));
  }
  return names;
}

function allModules(root) {
  const out = [];
  const walk = (m) => {
    out.push(m);
    for (const c of m.children.values()) walk(c);
  };
  walk(root);
  return out;
}

/** The file-level edges of a loaded crate: [{from, to, lines}] (absolute paths, lines ascending). */
export function crateEdges(root) {
  const edges = new Map();
  const add = (from, to, line) => {
    if (from === to) return;
    const key = `${from}\0${to}`;
    let e = edges.get(key);
    if (!e) {
      e = { from, to, lines: new Set() };
      edges.set(key, e);
    }
    e.lines.add(line);
  };
  for (const mod of allModules(root)) {
    for (const use of mod.uses) {
      const r = resolveSegs(mod, use.segs);
      if (!r) continue;
      if (use.glob) {
        if (r.kind !== "module") continue;
        // A glob: an edge to the file defining each name this module uses through it,
        // or, for a `pub use m::*` (a re-export), each name it passes on.
        const names = new Set(mod.idents.keys());
        if (use.pub) for (const name of namesOf(r.mod, new Set())) names.add(name);
        for (const name of names) {
          if (mod.children.has(name) || mod.items.has(name) || mod.bindings.has(name)) continue;
          const x = lookup(r.mod, name, false, new Set());
          if (x?.kind === "item") add(mod.file, x.file, use.line);
        }
      } else if (r.kind === "item") add(mod.file, r.file, use.line);
    }
    for (const p of mod.paths) {
      const first = p.segs[0];
      if (first === "Self") continue;
      if (first !== "crate" && first !== "self" && first !== "super") {
        // A path through a module in scope (declared with `mod` or imported with `use`).
        const r = lookup(mod, first, true, new Set());
        if (r?.kind !== "module") continue;
      }
      const r = resolveSegs(mod, p.segs);
      if (r?.kind === "item") add(mod.file, r.file, p.line);
    }
  }
  return [...edges.values()]
    .map((e) => ({ from: e.from, to: e.to, lines: [...e.lines].sort((x, y) => x - y) }))
    .sort((x, y) => (x.from < y.from ? -1 : x.from > y.from ? 1 : x.to < y.to ? -1 : x.to > y.to ? 1 : 0));
}

// ── Graph ────────────────────────────────────────────────────────────────────

/** Strongly connected components of `nodes` under `adj` (Map node -> nodes), Tarjan without recursion. */
export function tarjan(nodes, adj) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const comps = [];
  let counter = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [v, at] = frame;
      const next = adj.get(v) ?? [];
      if (at < next.length) {
        frame[1]++;
        const w = next[at];
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(v)));
      }
      if (low.get(v) === index.get(v)) {
        const comp = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          comp.push(w);
        } while (w !== v);
        comps.push(comp.sort());
      }
    }
  }
  return comps;
}

/** A shortest cycle through the first file of `comp` (breadth-first inside the component): [{from, to, line}]. */
function witness(comp, edges) {
  const inComp = new Set(comp);
  const out = new Map();
  for (const e of edges) {
    if (!inComp.has(e.from) || !inComp.has(e.to)) continue;
    if (!out.has(e.from)) out.set(e.from, []);
    out.get(e.from).push(e);
  }
  const start = comp[0];
  const via = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const e of out.get(v) ?? []) {
      if (e.to === start) {
        const chain = [e];
        for (let x = v; via.get(x); x = via.get(x).from) chain.unshift(via.get(x));
        return chain.map((c) => ({ from: c.from, to: c.to, line: c.lines[0] }));
      }
      if (!via.has(e.to)) {
        via.set(e.to, e);
        queue.push(e.to);
      }
    }
  }
  return [];
}

// ── Crates ───────────────────────────────────────────────────────────────────

const rel = (p) => relative(ROOT, p).split("\\").join("/") || ".";

/** The `key = "value"` of `section` in a small TOML file (enough for Cargo.toml). */
function tomlString(text, section, key) {
  const sec = sectionText(text, section);
  const m = sec && new RegExp(`^\\s*${key}\\s*=\\s*"([^"]*)"`, "m").exec(sec);
  return m ? m[1] : null;
}
function tomlArray(text, section, key) {
  const sec = sectionText(text, section);
  const m = sec && new RegExp(`^\\s*${key}\\s*=\\s*\\[([^\\]]*)\\]`, "m").exec(sec);
  return m ? [...m[1].replace(/#.*$/gm, "").matchAll(/"([^"]*)"/g)].map((x) => x[1]) : [];
}
function sectionText(text, section) {
  const lines = text.split("\n");
  let on = false;
  const out = [];
  for (const l of lines) {
    const h = /^\s*\[([^\]]+)\]\s*(#.*)?$/.exec(l);
    if (h) {
      on = h[1].trim() === section;
      continue;
    }
    if (on) out.push(l);
  }
  return on || out.length ? out.join("\n") : null;
}

/** Directories matching a Cargo workspace pattern such as `crates/*` under `base`. */
function globDirs(base, pattern) {
  let dirs = [base];
  for (const part of pattern.split("/").filter((x) => x && x !== ".")) {
    if (!/[*?[]/.test(part)) {
      dirs = dirs.map((d) => join(d, part));
      continue;
    }
    const re = new RegExp(
      `^${part
        .replace(/[.+^${}()|\\]/g, "\\$&")
        .replace(/\*/g, ".*")
        .replace(/\?/g, ".")}$`,
    );
    dirs = dirs.flatMap((d) =>
      existsSync(d)
        ? readdirSync(d)
            .filter((e) => re.test(e) && statSync(join(d, e)).isDirectory())
            .sort()
            .map((e) => join(d, e))
        : [],
    );
  }
  return dirs;
}

/** The crate directories of the workspace at `root`. */
export function workspaceCrates(root = ROOT) {
  const text = readFileSync(join(root, "Cargo.toml"), "utf8");
  const members = tomlArray(text, "workspace", "members");
  const exclude = new Set(tomlArray(text, "workspace", "exclude").flatMap((p) => globDirs(root, p)));
  const dirs = members.flatMap((p) => globDirs(root, p)).filter((d) => !exclude.has(d));
  return [...new Set(dirs)].filter((d) => existsSync(join(d, "Cargo.toml")));
}

/** Everything the check knows about the crate in `dir`. */
export function analyzeCrate(dir) {
  dir = resolve(dir);
  const manifest = existsSync(join(dir, "Cargo.toml")) ? readFileSync(join(dir, "Cargo.toml"), "utf8") : "";
  const name = tomlString(manifest, "package", "name") ?? basename(dir);
  const libPath = tomlString(manifest, "lib", "path");
  const candidates = [libPath && join(dir, libPath), join(dir, "src/lib.rs"), join(dir, "src/main.rs")].filter(Boolean);
  const rootFile = candidates.find((f) => existsSync(f));
  if (!rootFile) return { name, dir, error: "no src/lib.rs or src/main.rs" };
  const { root, files, rootPubMods, warnings } = loadCrate(rootFile, { lib: rootFile !== join(dir, "src/main.rs") });
  const edges = crateEdges(root);
  const adj = new Map();
  for (const e of edges) {
    if (!adj.has(e.from)) adj.set(e.from, []);
    adj.get(e.from).push(e.to);
  }
  const components = tarjan(files, adj)
    .filter((c) => c.length > 1)
    .sort((a, b) => b.length - a.length || (a[0] < b[0] ? -1 : 1))
    .map((files) => {
      const set = new Set(files);
      return { files, edges: edges.filter((e) => set.has(e.from) && set.has(e.to)), cycle: witness(files, edges) };
    });
  return {
    name,
    dir,
    root: rootFile,
    files,
    edges,
    components,
    pubMods: rootPubMods.map((p) => ({ file: rootFile, ...p })),
    warnings,
  };
}

// ── Report ───────────────────────────────────────────────────────────────────

const MAX_CYCLE = 2;

function printCrate(c, { verbose, listEdges }, out) {
  if (c.error) {
    out(`${c.name}: ${c.error}`);
    return;
  }
  const largest = c.components[0]?.files.length ?? 0;
  out(`${c.name}: ${c.files.length} files, ${c.edges.length} edges, largest cycle ${largest} files`);
  for (const w of c.warnings) out(`  warning: ${w}`);
  for (const p of c.pubMods) {
    out(
      `  FAIL ${rel(p.file)}:${p.line}: \`pub mod ${p.name}\` in a crate root (choose the public API with \`pub use\`)`,
    );
  }
  for (const comp of c.components) {
    const big = comp.files.length > MAX_CYCLE;
    if (!big && !verbose) continue;
    out(
      big
        ? `  FAIL import cycle of ${comp.files.length} files (more than ${MAX_CYCLE}):`
        : `  note: two-file cycle (allowed):`,
    );
    for (const f of comp.files) out(`    ${rel(f)}`);
    out("    witness cycle:");
    for (const e of comp.cycle) out(`      ${rel(e.from)} -> ${rel(e.to)}  (${rel(e.from)}:${e.line})`);
    if (big && listEdges) {
      out(`    edges inside the component (${comp.edges.length}):`);
      for (const e of comp.edges) {
        out(`      ${rel(e.from)} -> ${rel(e.to)}  (${e.lines.map((l) => `${rel(e.from)}:${l}`).join(", ")})`);
      }
    }
  }
}

function toJson(c) {
  if (c.error) return { name: c.name, dir: rel(c.dir), error: c.error };
  const edge = (e) => ({ from: rel(e.from), to: rel(e.to), lines: e.lines });
  return {
    name: c.name,
    dir: rel(c.dir),
    root: rel(c.root),
    files: c.files.map(rel).sort(),
    edges: c.edges.map(edge),
    components: c.components.map((comp) => ({
      files: comp.files.map(rel),
      fails: comp.files.length > MAX_CYCLE,
      cycle: comp.cycle.map((e) => ({ from: rel(e.from), to: rel(e.to), line: e.line })),
    })),
    pubMods: c.pubMods.map((p) => ({ file: rel(p.file), line: p.line, name: p.name })),
    warnings: c.warnings,
  };
}

/** Runs the check; returns the exit code. */
export function main(argv, out = (s) => process.stdout.write(`${s}\n`)) {
  const flags = new Set(argv.filter((a) => a.startsWith("--")));
  const unknown = [...flags].filter((f) => !["--json", "--verbose", "--edges"].includes(f));
  if (unknown.length > 0) {
    process.stderr.write(
      `unknown option ${unknown[0]}\nusage: module-cycles.mjs [--json] [--verbose] [--edges] [crate-dir...]\n`,
    );
    return 2;
  }
  const dirs = argv.filter((a) => !a.startsWith("--"));
  const crates = (dirs.length > 0 ? dirs.map((d) => resolve(d)) : workspaceCrates()).map(analyzeCrate);
  const failed = crates.some(
    (c) => c.error || c.pubMods.length > 0 || c.components.some((comp) => comp.files.length > MAX_CYCLE),
  );
  if (flags.has("--json")) out(JSON.stringify({ ok: !failed, crates: crates.map(toJson) }, null, 2));
  else {
    for (const c of crates) printCrate(c, { verbose: flags.has("--verbose"), listEdges: flags.has("--edges") }, out);
    if (failed) out(`module graph: FAIL (a cycle of more than ${MAX_CYCLE} files, or \`pub mod\` in a crate root)`);
  }
  return failed ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = main(process.argv.slice(2));
}
