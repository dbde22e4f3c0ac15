// Scoring ranked answers against gold, per kind x split, and the side-by-side table.
//
// top-1: the first result is a gold tool. any-gold@k: some gold tool is in the
// first k. MRR@k: mean of 1/rank of the first gold tool (0 when none in the
// first k). These three are over requests with gold (nothing-fits requests are
// left out of them). Nothing-fits precision: of the requests the system said
// "nothing fits" for, the share whose gold is empty; recall: of the requests
// with empty gold, the share it said "nothing fits" for.

const SPLITS = ["dev", "test"];

function rankOfGold(row, k) {
  const gold = new Set(row.gold);
  const i = row.ranked.slice(0, k).findIndex((n) => gold.has(n));
  return i < 0 ? null : i + 1;
}

function aggregate(rows, k) {
  const ranked = rows.filter((r) => r.gold.length > 0);
  const n = ranked.length;
  let top1 = 0;
  let any = 0;
  let rr = 0;
  for (const r of ranked) {
    const rank = rankOfGold(r, k);
    if (rank === 1) top1 += 1;
    if (rank !== null) {
      any += 1;
      rr += 1 / rank;
    }
  }
  return n ? { n, top1: top1 / n, anyAtK: any / n, mrrAtK: rr / n } : { n: 0, top1: null, anyAtK: null, mrrAtK: null };
}

function nothingFitsScores(rows) {
  const said = rows.filter((r) => r.nothingFits);
  const truth = rows.filter((r) => r.gold.length === 0);
  const hit = said.filter((r) => r.gold.length === 0).length;
  return {
    said: said.length,
    truth: truth.length,
    precision: said.length ? hit / said.length : null,
    recall: truth.length ? hit / truth.length : null,
  };
}

/** Scores of one system's rows: by kind and split, overall by split, nothing-fits by split. */
export function score(rows, k) {
  const byKind = {};
  const overall = {};
  const nothingFits = {};
  for (const split of SPLITS) {
    const inSplit = rows.filter((r) => r.split === split);
    overall[split] = aggregate(inSplit, k);
    nothingFits[split] = nothingFitsScores(inSplit);
    for (const r of inSplit) {
      byKind[r.kind] ??= {};
    }
    for (const kind of Object.keys(byKind)) {
      const sub = inSplit.filter((r) => r.kind === kind);
      byKind[kind][split] = { ...aggregate(sub, k), requests: sub.length };
    }
  }
  return { byKind, overall, nothingFits };
}

const pct = (x) => (x === null || x === undefined ? "—" : `${(x * 100).toFixed(0)}%`);
const mrr = (x) => (x === null || x === undefined ? "—" : x.toFixed(2));
const cell = (a, b, c) => `${a.padStart(5)} ${b.padStart(5)} ${c.padStart(5)}`;
const WIDTH = cell("", "", "").length;

/** A plain-text table: one row per kind x split, one column group per system. */
export function table(systems, kinds) {
  const lead = (kind, split, n) => `${kind.padEnd(16)} ${split.padEnd(5)} ${String(n).padStart(4)}`;
  const lines = [
    `${" ".repeat(lead("", "", "").length)} | ${systems.map((s) => s.name.padEnd(WIDTH).slice(0, WIDTH)).join(" | ")}`,
    `${lead("kind", "split", "n")} | ${systems.map(() => cell("top-1", "@8", "MRR")).join(" | ")}`,
  ];
  const rule = "-".repeat(lines[1].length);
  lines.push(rule);
  const row = (label, split, pick) => {
    const first = pick(systems[0]);
    const n = first?.requests ?? first?.n ?? 0;
    const cells = systems.map((s) => {
      const a = pick(s);
      return cell(pct(a?.top1), pct(a?.anyAtK), mrr(a?.mrrAtK));
    });
    return `${lead(label, split, n)} | ${cells.join(" | ")}`;
  };
  for (const kind of kinds) {
    for (const split of SPLITS) {
      if (kind === "nothing-fits") {
        const n = systems[0].byKind[kind]?.[split]?.requests ?? 0;
        const cells = systems.map((s) => {
          const f = s.nothingFits[split];
          return `P ${pct(f.precision)} R ${pct(f.recall)}`.padEnd(WIDTH);
        });
        lines.push(`${lead(kind, split, n)} | ${cells.join(" | ")}`);
      } else {
        lines.push(row(kind, split, (s) => s.byKind[kind]?.[split]));
      }
    }
  }
  lines.push(rule);
  for (const split of SPLITS) lines.push(row("all with gold", split, (s) => s.overall[split]));
  lines.push('nothing-fits: P = precision, R = recall of "nothing fits" answers over every request of the split');
  return lines.map((l) => l.trimEnd()).join("\n");
}
