// The gate matrix through the npm package, with Promise-returning host
// callbacks. Shared by the Node test and the headless-Chromium page, so the
// same cases run in both. The expectations are tests/fixtures/gate-matrix.json,
// which the native test (core/tests/gate_matrix.rs) reads too; the caller
// passes it in (Node reads the file, the page fetches it). Returns failures
// as strings (empty = pass).

function tools(destructive) {
  const provider = { id: "host", kind: "native", displayName: "Host" };
  return [
    {
      name: "read_file",
      aliases: ["cat"],
      description: "Read a text file",
      source: "native",
      provider,
      trust: "builtin",
      annotations: { destructiveHint: destructive },
      inputSchema: {
        type: "object",
        properties: { path: { type: "string" } },
        required: ["path"],
        additionalProperties: false,
      },
    },
    {
      name: "run_tool_script",
      aliases: ["sh"],
      description: "Run a shell command",
      source: "native",
      provider,
      trust: "builtin",
      inputSchema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    },
  ];
}

const py = (v) =>
  JSON.stringify(v)
    .replace(/\btrue\b/g, "True")
    .replace(/\bfalse\b/g, "False")
    .replace(/\bnull\b/g, "None");

// The cases this runner can set up (see `one`).
const CASES = new Set([
  "allowed",
  "unknown",
  "forged",
  "stale",
  "deniedSession",
  "deniedProject",
  "invalidArgs",
  "hookVeto",
  "approvalDenied",
  "timeout",
  "hostCancel",
  "outputTooLarge",
]);

// Only the timeout case gets a short timeout: elsewhere a GC pause or a busy
// machine must not turn "allowed" into "timed out".
async function one(pkg, path, kase) {
  const { HolarynRuntime } = pkg;
  const rt = new HolarynRuntime();
  rt.registerTools(tools(kase === "approvalDenied"));
  const s = rt.createSession({
    dynamicDiscovery: true,
    boundedCodeMode: true,
    maxOutputBytes: 64,
    defaultTimeoutMs: kase === "timeout" ? 40 : 30_000,
  });
  const tool = path === "legacy" ? "run_tool_script" : "read_file";
  s.inspect({ name: tool });
  s.inspect({ name: "run_tool_code" });
  let target = { direct: tool, legacy: tool, alias: "cat" }[path] ?? s.inspect({ name: tool }).handle;
  let args = path === "legacy" ? { command: "ls" } : { path: "notes.txt" };
  const executed = [];
  const ctl = new AbortController();
  const host = {
    signal: ctl.signal,
    hook: async (r) =>
      kase === "hookVeto" && r.phase === "before" && r.tool !== "run_tool_code"
        ? { decision: "veto", reason: "no" }
        : undefined,
    approve: async () => kase !== "approvalDenied",
    execute: (r) => {
      executed.push(r.tool);
      if (kase === "timeout") return new Promise(() => {});
      if (kase === "hostCancel") {
        setTimeout(() => ctl.abort(), 5);
        return new Promise(() => {});
      }
      return Promise.resolve(kase === "outputTooLarge" ? { text: "x".repeat(200) } : { text: "done" });
    },
  };
  if (kase === "unknown") target = path === "handle" || path === "code" ? `toolh_${"f".repeat(40)}` : "no_such_tool";
  if (kase === "forged" && (path === "handle" || path === "code")) {
    const other = rt.createSession({ dynamicDiscovery: true });
    target = other.inspect({ name: tool }).handle;
  }
  if (kase === "stale") {
    // An unrelated change leaves the tool loaded (issue 20); a change to the tool itself makes it stale.
    rt.registerTools([{ name: "glob_files", description: "Find files", source: "native", provider: { id: "host" } }]);
    rt.registerTools(
      tools(false)
        .filter((t) => t.name === tool)
        .map((t) => ({ ...t, description: "Changed since the inspect" })),
    );
  }
  if (kase === "deniedSession") s.setRules({ deny: [tool] });
  if (kase === "deniedProject")
    s.setProjectPolicy({ path: "/repo/.holaryn/tool-policy.json", text: JSON.stringify({ deny: [tool] }) });
  if (kase === "invalidArgs") args = path === "legacy" ? { command: 5 } : { path: 5 };
  if (path === "code") {
    s.inspect({ name: "run_tool_code" }); // a policy change may unload run_tool_code too
    const o = await s.call("run_tool_code", { code: `r = call("${target}", ${py(args)})\n` }, host);
    const row = o.output?.trace?.[0];
    return {
      code: row?.status === "ok" ? "ok" : (row?.errorCode ?? `no trace row (${o.code})`),
      executed: executed.filter((t) => t !== "run_tool_code").length > 0,
    };
  }
  const o = await s.call(target, args, host);
  return { code: o.code, executed: executed.length > 0 };
}

/** Run every (path, case) of `matrix` (the parsed fixture); resolves to a list of failures. */
export async function runGateMatrix(pkg, matrix) {
  const failures = [];
  const cases = matrix.cases.filter((c) => c.hosts.includes("js"));
  for (const c of cases)
    if (!CASES.has(c.case)) failures.push(`the fixture has a case this runner cannot set up: ${c.case}`);
  for (const path of matrix.paths) {
    for (const c of cases) {
      if (!CASES.has(c.case)) continue;
      const kase = c.case;
      const expect = matrix.byHandlePaths.includes(path) ? (c.byHandle ?? c.byName) : c.byName;
      const [want, wantExec] = [expect.code, expect.executes];
      let got;
      try {
        got = await one(pkg, path, kase);
      } catch (e) {
        failures.push(`${path} × ${kase}: threw ${e?.name} ${e?.code ?? ""} ${e?.message}`);
        continue;
      }
      if (got.code !== want || got.executed !== wantExec) {
        failures.push(
          `${path} × ${kase}: expected ${want}/${wantExec ? "executed" : "not executed"}, got ${got.code}/${got.executed ? "executed" : "not executed"}`,
        );
      }
    }
  }
  if (cases.length < 12) failures.push(`only ${cases.length} cases ran`);
  return failures;
}
