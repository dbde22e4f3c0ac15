// report.html for the tool-discovery suite: a self-contained page (inline
// SVG, no scripts, no network) a person would rather read than JSON.

const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

function chart(fp) {
  const formats = Object.keys(fp.static);
  const max = Math.max(...formats.map((f) => fp.static[f]));
  const W = 640,
    row = 56,
    left = 150,
    barW = W - left - 90;
  const bars = formats.map((f, i) => {
    const y = 30 + i * row;
    const ws = (fp.static[f] / max) * barW,
      wd = Math.max(2, (fp.dynamic[f] / max) * barW);
    return `<text x="0" y="${y + 16}" class="lbl">${esc(f)}</text>
<rect x="${left}" y="${y}" width="${ws.toFixed(1)}" height="18" class="static"><title>static ${fp.static[f]} bytes</title></rect>
<text x="${(left + ws + 6).toFixed(1)}" y="${y + 14}" class="val">${kib(fp.static[f])}</text>
<rect x="${left}" y="${y + 22}" width="${wd.toFixed(1)}" height="18" class="dynamic"><title>dynamic ${fp.dynamic[f]} bytes</title></rect>
<text x="${(left + wd + 6).toFixed(1)}" y="${y + 36}" class="val">${kib(fp.dynamic[f])} (−${fp.reductionPct[f]}%)</text>`;
  });
  return `<svg role="img" aria-labelledby="chart-title" viewBox="0 0 ${W} ${40 + formats.length * row}" width="${W}">
<title id="chart-title">Initial tool-definition bytes, static vs dynamic, per model format</title>
<rect x="${left}" y="4" width="14" height="12" class="static"/><text x="${left + 20}" y="14" class="val">static session</text>
<rect x="${left + 140}" y="4" width="14" height="12" class="dynamic"/><text x="${left + 160}" y="14" class="val">dynamic session (3 discovery tools)</text>
${bars.join("\n")}</svg>`;
}

function ranked(list) {
  return list
    .map(
      (x) =>
        `<tr><td>${esc(x.query)}</td><td>${x.expect ? `<code>${esc(x.expect)}</code> at ${x.rank ?? "—"}` : `glob_files at ${x.rankOfGlob ?? "—"}`}</td><td><ol>${x.ranked.map((n) => `<li><code>${esc(n)}</code></li>`).join("")}</ol></td></tr>`,
    )
    .join("\n");
}

/** Render the report for suite results. */
export function renderReport(r) {
  const allPass = r.gates.every((g) => g.pass) && (r.regressions ?? []).length === 0;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>HolarynBench tool-discovery report</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:980px;color:#1d2230;padding:0 1rem}
h1{font-size:1.6rem;margin-bottom:.2rem} .sub{color:#5b6474;margin-top:0}
.badge{display:inline-block;padding:.2rem .6rem;border-radius:1rem;font-weight:600;color:#fff}
.pass{background:#1f8a4c}.fail{background:#c0392b}
table{border-collapse:collapse;width:100%;margin:1rem 0} th,td{border-bottom:1px solid #e3e6ec;padding:.45rem;text-align:left;vertical-align:top}
th{background:#f5f7fa} ol{margin:0;padding-left:1.2rem} code{font-size:.9em}
svg .static{fill:#9aa5b8} svg .dynamic{fill:#2f6fdf} svg .lbl{font:600 13px system-ui} svg .val{font:12px system-ui;fill:#333}
.card{border:1px solid #e3e6ec;border-radius:8px;padding:1rem;margin:1rem 0}
</style></head><body>
<h1>HolarynBench: tool discovery</h1>
<p class="sub">${r.catalog.tools} tools · registry <code>${esc(r.catalog.registryVersion.slice(0, 23))}…</code> · <span class="badge ${allPass ? "pass" : "fail"}">${allPass ? "release gate passed" : "release gate FAILED"}</span></p>
<section class="card"><h2>Release gate</h2><table><thead><tr><th scope="col">Gate</th><th scope="col">Value</th><th scope="col">Result</th></tr></thead><tbody>
${r.gates.map((g) => `<tr><td>${esc(g.name)}</td><td>${esc(g.value)}</td><td><span class="badge ${g.pass ? "pass" : "fail"}">${g.pass ? "pass" : "fail"}</span></td></tr>`).join("\n")}
${(r.regressions ?? []).map((x) => `<tr><td colspan="2">Regression: ${esc(x)}</td><td><span class="badge fail">fail</span></td></tr>`).join("\n")}
</tbody></table></section>
<section class="card"><h2>Schema bytes the model sees at the start</h2>${chart(r.footprint)}</section>
<section class="card"><h2>Intent fixtures</h2><table><thead><tr><th scope="col">Request</th><th scope="col">Result</th><th scope="col">Ranked selection</th></tr></thead><tbody>${ranked(r.intents)}</tbody></table></section>
<section class="card"><h2>Searches</h2><table><thead><tr><th scope="col">Query</th><th scope="col">Expected</th><th scope="col">Ranked selection</th></tr></thead><tbody>${ranked(r.searches)}</tbody></table></section>
<section class="card"><h2>Workflows</h2><table><thead><tr><th scope="col">Workflow</th><th scope="col">Detail</th><th scope="col">Result</th></tr></thead><tbody>
${r.workflows.map((w) => `<tr><td>${esc(w.name)}</td><td><code>${esc(w.detail)}</code></td><td><span class="badge ${w.ok ? "pass" : "fail"}">${w.ok ? "success" : "failure"}</span></td></tr>`).join("\n")}
</tbody></table></section>
</body></html>
`;
}
