// `holaryn bench run --suite tool-discovery`: deterministic scripted model
// trajectories (no live model, no network) through the real package, a
// release gate, and regression checks against a reviewed baseline.
//
// Exit codes: 0 all gates pass (and no regression); 1 a gate failed or, with
// --fail-on-regression, a figure is worse than the baseline; 2 usage or input
// error (unknown suite, missing or malformed baseline, unwritable output dir).
import { mkdirSync, readFileSync, writeFileSync, accessSync, constants } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { HolarynRuntime } from "../../js/node.mjs";
import { CliError, loadCatalog } from "../../js/cli/catalog.mjs";
import { renderReport } from "./report.mjs";
import { executor, virtualProject } from "../../js-demo/virtual-project.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const SUITES = ["tool-discovery"];
const FORMATS = ["anthropic", "openai_chat", "openai_responses", "mcp"];
const INTENTS = ["find and read project release notes", "find the project release notes and summarize them"];
const SEARCHES = [
  { query: "read a file", expect: "read_file" },
  { query: "take a screenshot of the page", expect: "browser_screenshot" },
  { query: "remember this fact about the user", expect: "memory_store" },
  { query: "create a github issue", expect: "github/create_issue" },
  { query: "send a slack message", expect: "slack/slack_post_message" },
  { query: "run several tool calls in one program", expect: "run_tool_code" },
];

/** Register the suite's catalog (benchmarks/catalogs) with the one catalog loader. */
export function loadBenchCatalog(rt) {
  return loadCatalog(rt, join(root, "benchmarks/catalogs"));
}

function footprints(session) {
  return Object.fromEntries(FORMATS.map((f) => [f, session.exportTools(f).bytes]));
}

/** Run the suite; returns {results, trajectory}. */
export async function runSuite({ inject = [], progress = () => {} } = {}) {
  const traj = [];
  const log = (event) => traj.push({ seq: traj.length + 1, ...event });
  const rt = new HolarynRuntime();
  rt.addEventListener((e) => {
    if (e.type === "tool_registry_changed")
      log({
        type: "registry_changed",
        sessionId: e.sessionId ?? null,
        oldVersion: e.oldVersion,
        newVersion: e.newVersion,
        added: e.added,
        removed: e.removed,
        changed: e.changed,
      });
  });
  loadBenchCatalog(rt);
  progress(`catalog: ${rt.size} tools, registry ${rt.version.slice(0, 19)}…`);
  log({ type: "catalog", tools: rt.size, registryVersion: rt.version });
  const files = virtualProject();
  const memory = [];
  const host = {
    execute: executor(files, memory),
    approve: async (req) => (log({ type: "approval", tool: req.tool, reason: req.reason, answer: "approve" }), true),
  };

  // Static vs dynamic footprints.
  const stat = rt.createSession({ dynamicDiscovery: false, boundedCodeMode: true });
  const staticBytes = footprints(stat);
  log({ type: "footprint", mode: "static", tools: stat.modelTools().length, bytes: staticBytes });
  const s = rt.createSession({ dynamicDiscovery: true, boundedCodeMode: true });
  s.setHost(host);
  if (inject.includes("larger-initial")) for (const t of rt.tools().slice(0, 20)) s.inspect({ name: t.name });
  const dynamicBytes = footprints(s);
  log({ type: "footprint", mode: "dynamic", tools: s.modelTools().length, bytes: dynamicBytes });
  const reduction = Object.fromEntries(FORMATS.map((f) => [f, 100 * (1 - dynamicBytes[f] / staticBytes[f])]));
  progress(
    `footprint: static ${staticBytes.anthropic} B, dynamic ${dynamicBytes.anthropic} B (${reduction.anthropic.toFixed(2)}% less)`,
  );

  const search = (query) => {
    let ranked = s.search({ query }).results.map((r) => ({ name: r.name, state: r.state, why: r.why ?? [] }));
    if (inject.includes("worse-ranking")) ranked = ranked.reverse();
    log({ type: "search", query, ranked: ranked.map((r) => r.name) });
    return ranked;
  };
  const inspect = (name) => {
    const o = s.inspect({ name });
    log({ type: "schema_load", tool: o.name, loaded: o.loaded, schemaHash: o.schemaHash ?? null });
    return o;
  };
  const call = async (target, args, label) => {
    const o = await s.call(target, args);
    log({
      type: "invocation",
      tool: o.tool ?? null,
      path: o.path,
      status: o.status,
      code: o.code,
      outputBytes: o.outputBytes,
      label,
    });
    return o;
  };

  // Intent fixtures: which tool ranks first for a multi-step request.
  const intents = INTENTS.map((q) => {
    const ranked = search(q);
    return {
      query: q,
      ranked: ranked.map((r) => r.name),
      rankOfGlob: ranked.findIndex((r) => r.name === "glob_files") + 1 || null,
    };
  });
  const searches = SEARCHES.map(({ query, expect }) => {
    const ranked = search(query);
    return {
      query,
      expect,
      ranked: ranked.map((r) => r.name),
      rank: ranked.findIndex((r) => r.name === expect) + 1 || null,
    };
  });

  const workflows = [];
  const workflow = async (name, fn) => {
    progress(`workflow: ${name}`);
    let ok = false;
    let detail = "";
    try {
      [ok, detail] = await fn();
    } catch (e) {
      detail = `threw ${e?.code ?? ""} ${e?.message}`;
    }
    workflows.push({ name, ok, detail });
    log({ type: "workflow", name, ok, detail });
  };

  let globHandle;
  let readHandle;
  await workflow("search → inspect → call: find and read the release notes", async () => {
    const first = search(INTENTS[0])[0]?.name;
    globHandle = inspect(first).handle;
    const found = await call(globHandle, { pattern: "**/CHANGES*.md" }, "find");
    const path = found.output?.matches?.[0];
    const reader = search("read a file").find((r) => r.name === "read_file");
    readHandle = inspect(reader?.name ?? "read_file").handle;
    const read = await call(readHandle, { path }, "read");
    return [read.status === "ok" && /Release notes/.test(read.output?.content ?? ""), `${found.code} → ${read.code}`];
  });
  await workflow("bounded code: glob + read in one program", async () => {
    inspect("run_tool_code");
    const code = `found = call("${globHandle}", {"pattern": "**/CHANGES*.md"})\nnotes = call("${readHandle}", {"path": "docs/CHANGES.md"})\n`;
    const o = await call("run_tool_code", { code }, "code");
    log({ type: "code_run", status: o.output?.status, calls: o.output?.trace?.length ?? 0 });
    return [
      o.status === "ok" && o.output?.status === "completed" && /Release notes/.test(JSON.stringify(o.output?.value)),
      o.output?.status ?? o.code,
    ];
  });
  await workflow("approval: a destructive call asks first", async () => {
    inspect("delete_file");
    const o = await call("delete_file", { path: "src/main.rs" }, "delete");
    return [o.status === "ok" && !files.has("src/main.rs"), o.code];
  });
  await workflow("a registry change invalidates exactly the changed tool's handle", async () => {
    const before = traj.filter((e) => e.type === "registry_changed").length;
    const summarize = (description) => ({
      name: "summarize_text",
      description,
      source: "native",
      provider: { id: "host", kind: "native" },
      inputSchema: { type: "object", properties: { text: { type: "string" } } },
    });
    rt.registerTools([summarize("Summarize a text")]);
    const after = traj.filter((e) => e.type === "registry_changed").length;
    const kept = await call(readHandle, { path: "docs/CHANGES.md" }, "unrelated change: handle kept");
    const handle = inspect("summarize_text").handle;
    rt.registerTools([summarize("Summarize a text in three sentences")]);
    const stale = await call(handle, { text: "x" }, "changed tool: stale handle");
    return [
      after > before && kept.status === "ok" && stale.code === "handle.stale",
      `${after - before} events, kept handle → ${kept.code}, changed tool's handle → ${stale.code}`,
    ];
  });

  const success = workflows.filter((w) => w.ok).length / workflows.length;
  const metrics = {
    initialSchemaByteReductionPct: { value: round(reduction.anthropic), direction: "higher" },
    dynamicInitialBytes: { value: dynamicBytes.anthropic, direction: "lower" },
    globFilesRankForIntent: { value: intents[0].rankOfGlob ?? 99, direction: "lower" },
    workflowSuccessRate: { value: success, direction: "higher" },
    meanExpectedRank: {
      value: round(searches.reduce((a, x) => a + (x.rank ?? 9), 0) / searches.length),
      direction: "lower",
    },
  };
  const gates = [
    {
      name: "initial schema-byte reduction ≥ 90%",
      pass: reduction.anthropic >= 90,
      value: `${reduction.anthropic.toFixed(2)}%`,
    },
    {
      name: "glob_files top-ranked for the intent fixture",
      pass: intents[0].rankOfGlob === 1,
      value: `rank ${intents[0].rankOfGlob ?? "none"}`,
    },
    {
      name: "100% workflow success",
      pass: success === 1,
      value: `${workflows.filter((w) => w.ok).length}/${workflows.length}`,
    },
  ];
  const results = {
    suite: "tool-discovery",
    version: 1,
    catalog: { tools: rt.size, registryVersion: rt.version },
    footprint: {
      static: staticBytes,
      dynamic: dynamicBytes,
      reductionPct: Object.fromEntries(FORMATS.map((f) => [f, round(reduction[f])])),
    },
    intents,
    searches,
    workflows,
    gates,
    metrics,
    activityRecords: rt.activity().length,
  };
  return { results, trajectory: traj };
}

function round(x) {
  return Math.round(x * 100) / 100;
}

/** Compare metrics with a baseline; returns the list of regressions. */
export function regressions(metrics, baseline) {
  const out = [];
  for (const [name, base] of Object.entries(baseline.metrics ?? {})) {
    const cur = metrics[name];
    if (!cur) {
      out.push(`${name}: missing from this run`);
      continue;
    }
    const worse = base.direction === "lower" ? cur.value > base.value : cur.value < base.value;
    if (worse) out.push(`${name}: ${cur.value} is worse than the baseline ${base.value} (${base.direction} is better)`);
  }
  return out;
}

export async function benchCommand(opts) {
  const [sub] = opts._;
  if (sub !== "run")
    throw new CliError(
      "usage: holaryn bench run --suite tool-discovery [--baseline FILE] [--fail-on-regression] [--update-baseline] [--output-dir DIR]",
    );
  if (!SUITES.includes(opts.suite))
    throw new CliError(`unknown suite \`${opts.suite ?? ""}\` (known: ${SUITES.join(", ")})`);
  const outDir = typeof opts.outputDir === "string" ? opts.outputDir : "benchmark-results/tool-discovery";
  try {
    mkdirSync(outDir, { recursive: true });
    accessSync(outDir, constants.W_OK);
  } catch (e) {
    throw new CliError(`output dir ${outDir} is not writable: ${e.message}`);
  }
  let baseline = null;
  if (opts.baseline && !opts.updateBaseline) {
    let text;
    try {
      text = readFileSync(opts.baseline, "utf8");
    } catch {
      throw new CliError(`baseline ${opts.baseline} not found (create one with --update-baseline)`);
    }
    try {
      baseline = JSON.parse(text);
    } catch (e) {
      throw new CliError(`baseline ${opts.baseline} is not JSON: ${e.message}`);
    }
    if (baseline?.suite !== "tool-discovery" || typeof baseline.metrics !== "object" || baseline.metrics === null) {
      throw new CliError(
        `baseline ${opts.baseline} is malformed: expected {"suite": "tool-discovery", "metrics": {...}}`,
      );
    }
  } else if (opts.failOnRegression && !opts.updateBaseline) {
    throw new CliError("--fail-on-regression needs --baseline FILE");
  }
  const inject = typeof opts.inject === "string" ? opts.inject.split(",") : [];
  const progress = (m) => process.stderr.write(`[bench] ${m}\n`);
  const { results, trajectory } = await runSuite({ inject, progress });
  results.regressions = baseline ? regressions(results.metrics, baseline) : [];
  results.baseline = baseline ? opts.baseline : null;
  writeFileSync(join(outDir, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(outDir, "trajectory.jsonl"), `${trajectory.map((e) => JSON.stringify(e)).join("\n")}\n`);
  writeFileSync(join(outDir, "report.html"), renderReport(results));
  if (opts.updateBaseline) {
    if (typeof opts.baseline !== "string") throw new CliError("--update-baseline needs --baseline FILE");
    mkdirSync(dirname(opts.baseline), { recursive: true });
    writeFileSync(
      opts.baseline,
      `${JSON.stringify({ suite: "tool-discovery", version: 1, metrics: results.metrics }, null, 2)}\n`,
    );
    progress(`baseline written: ${opts.baseline}`);
  }
  for (const g of results.gates) progress(`gate ${g.pass ? "PASS" : "FAIL"}: ${g.name} (${g.value})`);
  for (const r of results.regressions) progress(`REGRESSION: ${r}`);
  process.stdout.write(`${outDir}/results.json, trajectory.jsonl, report.html\n`);
  const gateFail = results.gates.some((g) => !g.pass);
  const regress = opts.failOnRegression && results.regressions.length > 0;
  return gateFail || regress ? 1 : 0;
}
