// Code bytes per crate of a wasm that still has its `name` section (rustc's
// output before wasm-bindgen strips it): each function body's size, grouped by
// the crate its (demangled) name starts with, and the largest functions. A
// twiggy-like view without twiggy; sizes are raw bytes before wasm-opt, so
// read them as shares. With v0 symbol mangling (the default of the nightly
// scripts/build.sh uses) a generic instance's name carries its type
// parameters, so a std sort or map instantiated for a crate's type is counted
// for that crate too ("origin"); stable's legacy names do not show them.
import { execFileSync } from "node:child_process";

/** Read an unsigned LEB128 at `pos`; returns [value, next position]. */
function leb(bytes, pos) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[pos++];
    value += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return [value, pos];
    shift += 7;
  }
}

/** Sections of a wasm module: { id, name?, start, end }. */
function sections(bytes) {
  const out = [];
  let pos = 8;
  while (pos < bytes.length) {
    const id = bytes[pos];
    const [size, body] = leb(bytes, pos + 1);
    const end = body + size;
    let name;
    if (id === 0) {
      const [len, p] = leb(bytes, body);
      name = new TextDecoder().decode(bytes.subarray(p, p + len));
    }
    out.push({ id, name, start: body, end });
    pos = end;
  }
  return out;
}

/** Number of imported functions (they come first in the function index space). */
function importedFunctions(bytes, sec) {
  if (!sec) return 0;
  let [count, pos] = leb(bytes, sec.start);
  let funcs = 0;
  for (let i = 0; i < count; i++) {
    for (let s = 0; s < 2; s++) {
      const [len, p] = leb(bytes, pos);
      pos = p + len;
    }
    const kind = bytes[pos++];
    if (kind === 0) {
      funcs++;
      pos = leb(bytes, pos)[1];
    } else if (kind === 1) {
      pos += 1;
      const flags = bytes[pos++];
      pos = leb(bytes, pos)[1];
      if (flags & 1) pos = leb(bytes, pos)[1];
    } else if (kind === 2) {
      const flags = bytes[pos++];
      pos = leb(bytes, pos)[1];
      if (flags & 1) pos = leb(bytes, pos)[1];
    } else if (kind === 3) pos += 2;
    else pos = leb(bytes, pos)[1]; // tag
  }
  return funcs;
}

/** Function index → name from the `name` section (subsection 1). */
function functionNames(bytes, sec) {
  const names = new Map();
  if (!sec) return names;
  const [nameLen, after] = leb(bytes, sec.start);
  let pos = after + nameLen; // past the section's own name ("name")
  while (pos < sec.end) {
    const id = bytes[pos];
    const [size, body] = leb(bytes, pos + 1);
    if (id === 1) {
      let [count, p] = leb(bytes, body);
      for (let i = 0; i < count; i++) {
        const [index, q] = leb(bytes, p);
        const [len, r] = leb(bytes, q);
        names.set(index, new TextDecoder().decode(bytes.subarray(r, r + len)));
        p = r + len;
      }
    }
    pos = body + size;
  }
  return names;
}

/** The crate a (possibly mangled) Rust symbol belongs to. */
export function crateOf(name) {
  let s = name;
  // v0 mangling: the first crate root, `C<disambiguator>_<len><name>`.
  const v0 = /^_?R.*?C[sS]?[0-9a-zA-Z]*_(\d+)/.exec(s);
  if (v0) s = s.slice(v0[0].length, v0[0].length + Number(v0[1]));
  const legacy = /^_ZN(\d+)/.exec(s);
  if (legacy) {
    const start = legacy[0].length;
    s = s.slice(start, start + Number(legacy[1])); // the first path segment
  }
  s = s
    .replace(/\$LT\$/g, "<")
    .replace(/\$RF\$/g, "&")
    .replace(/\$u5b\$/g, "[")
    .replace(/\$u20\$/g, " ");
  s = s
    .replace(/\.\./g, "::")
    .replace(/^[_<&[( ]+|^(mut|dyn) /g, "")
    .replace(/^[_<&[( ]+/, "");
  // `<T as trait::path>`: the trait's crate.
  s = s.replace(/^[A-Z]\w* as /, "");
  const m = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(s);
  if (!m) return "(other)";
  const crate = m[1];
  if (/^(dlmalloc|__rust|rust_|__rdl|__rg|memcpy|memmove|memset|memcmp)/.test(crate)) return "std";
  if (crate === "alloc" || crate === "core" || crate === "std") return "std";
  if (/^(wasm_bindgen|__wbg|__wbindgen|__externref)/.test(crate)) return "wasm_bindgen";
  // wasm-bindgen's export shims: `<class>_<method>_<hash>`, unmangled.
  if (/_[0-9a-f]{16}$/.test(name) && !/^_(ZN|R)/.test(name)) return "(wasm-bindgen exports)";
  return crate;
}

/** Every defined function with its code bytes (body + size prefix), in module order. */
export function functionSizes(bytes) {
  const secs = sections(bytes);
  const imports = importedFunctions(
    bytes,
    secs.find((s) => s.id === 2),
  );
  const names = functionNames(
    bytes,
    secs.find((s) => s.id === 0 && s.name === "name"),
  );
  const code = secs.find((s) => s.id === 10);
  if (!code || names.size === 0) return null;
  const out = [];
  let [count, pos] = leb(bytes, code.start);
  for (let i = 0; i < count; i++) {
    const [size, body] = leb(bytes, pos);
    out.push({ name: names.get(imports + i) ?? `func${imports + i}`, bytes: body + size - pos });
    pos = body + size;
  }
  const data = secs.filter((s) => s.id === 11).reduce((n, s) => n + s.end - s.start, 0);
  return { functions: out, data };
}

/** Code bytes per crate, largest first: [{ crate, bytes, functions }]. */
export function codeByCrate(bytes) {
  const sized = functionSizes(bytes);
  if (!sized) return null;
  const totals = new Map();
  for (const f of sized.functions) {
    const crate = crateOf(f.name);
    const t = totals.get(crate) ?? { crate, bytes: 0, functions: 0 };
    t.bytes += f.bytes;
    t.functions++;
    totals.set(crate, t);
  }
  const rows = [...totals.values(), { crate: "(data segments)", bytes: sized.data, functions: 0 }];
  return rows.sort((a, b) => b.bytes - a.bytes);
}

/** Crates whose generic code is instantiated for other crates' types. */
const GENERIC = new Set(["std", "hashbrown", "serde", "serde_core", "indexmap", "(other)"]);

/** Names demangled by binutils' c++filt (legacy and v0 Rust) when installed, else as they are. */
export function demangle(names) {
  let out;
  try {
    out = execFileSync("c++filt", [], { input: names.join("\n"), encoding: "utf8", maxBuffer: 1 << 28 }).split("\n");
  } catch {
    return names;
  }
  return names.map((n, i) => (out[i] ?? n).replace(/\[[0-9a-f]{16}\]/g, "").replace(/::h[0-9a-f]{16}$/, ""));
}

/**
 * Every function with its crate, its origin (for a generic instance of a std,
 * hashbrown or serde item: the first other crate its demangled name mentions)
 * and its demangled name, largest first.
 */
export function functionsByOrigin(bytes) {
  const sized = functionSizes(bytes);
  if (!sized) return null;
  const crates = sized.functions.map((f) => crateOf(f.name));
  const known = new Set(crates);
  const names = demangle(sized.functions.map((f) => f.name));
  const rows = sized.functions.map((f, i) => {
    let origin = crates[i];
    if (GENERIC.has(origin)) {
      for (const m of names[i].matchAll(/\b([a-z_][a-z0-9_]*)::/g)) {
        if (known.has(m[1]) && !GENERIC.has(m[1])) {
          origin = m[1];
          break;
        }
      }
    }
    return { name: names[i], crate: crates[i], origin, bytes: f.bytes };
  });
  return rows.sort((a, b) => b.bytes - a.bytes);
}
