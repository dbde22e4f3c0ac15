// Code bytes per crate of a wasm that still has its `name` section (rustc's
// output before wasm-bindgen strips it): each function body's size, grouped by
// the crate its (demangled) name starts with. A twiggy-like view without
// twiggy; sizes are raw bytes before wasm-opt, so read them as shares.

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
  return crate;
}

/** Code bytes per crate, largest first: [{ crate, bytes, functions }]. */
export function codeByCrate(bytes) {
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
  const totals = new Map();
  let [count, pos] = leb(bytes, code.start);
  for (let i = 0; i < count; i++) {
    const [size, body] = leb(bytes, pos);
    const crate = crateOf(names.get(imports + i) ?? "");
    const t = totals.get(crate) ?? { crate, bytes: 0, functions: 0 };
    t.bytes += body + size - pos;
    t.functions++;
    totals.set(crate, t);
    pos = body + size;
  }
  const data = secs.filter((s) => s.id === 11).reduce((n, s) => n + s.end - s.start, 0);
  const rows = [...totals.values(), { crate: "(data segments)", bytes: data, functions: 0 }];
  return rows.sort((a, b) => b.bytes - a.bytes);
}
