// A scripted "model" for the Capability Center: it only ever uses the tools a
// model would see (tool_search, tool_inspect, the tools it loaded, and
// run_tool_code), each through `session.dispatch`, so every call takes the
// same gate as a real agent's. Stop aborts it between and during calls.

const QUERY = "find the project release notes and summarize them";

/** Thrown when the operator stops the run. */
export class Stopped extends Error {}

/**
 * Run the flow. `host` carries execute/approve and the run's AbortSignal;
 * `say(kind, text)` writes the transcript.
 */
export async function runAgent(session, host, say) {
  const { signal } = host;
  const step = async (name, args) => {
    if (signal.aborted) throw new Stopped();
    const r = await session.dispatch(name, args, host);
    if (signal.aborted || r.outcome?.status === "cancelled") throw new Stopped();
    return r;
  };
  const brief = (r) =>
    r.isError ? `${r.outcome?.code ?? "error"}: ${r.outcome?.message ?? JSON.stringify(r.content)}` : "ok";

  say("step", `tool_search "${QUERY}"`);
  const found = await step("tool_search", { query: QUERY });
  if (found.isError) return say("refused", `tool_search failed: ${JSON.stringify(found.content)}`);
  const results = found.content.results ?? [];
  say(
    "info",
    `top results: ${
      results
        .slice(0, 4)
        .map((r) => `${r.name} (${r.state})`)
        .join(", ") || "none"
    }`,
  );
  const glob = results.find((r) => r.name === "glob_files") ?? results.find((r) => r.state === "available");
  if (!glob) return say("refused", "nothing usable was found; the model stops here");

  const inspect = async (name) => {
    say("step", `tool_inspect ${name}`);
    const r = await step("tool_inspect", { name });
    if (r.isError) say("refused", `tool_inspect ${name}: ${JSON.stringify(r.content)}`);
    else
      say(
        r.content.loaded ? "ok" : "info",
        `${name}: ${r.content.availability.state}${r.content.loaded ? ", schema loaded" : ` — ${r.content.availability.reason}`}`,
      );
    return r.isError ? null : r.content;
  };

  const g = await inspect(glob.name);
  let path = "docs/CHANGES.md";
  if (g?.loaded) {
    say("step", `${glob.name} {"pattern": "**/CHANGES*.md"}`);
    const r = await step(glob.name, { pattern: "**/CHANGES*.md" });
    say(r.isError ? "refused" : "ok", `${glob.name} → ${brief(r)}${r.isError ? "" : ` ${JSON.stringify(r.content)}`}`);
    path = r.content?.matches?.[0] ?? path;
  }

  const read = await inspect("read_file");
  if (read?.loaded) {
    say("step", `read_file {"path": "${path}"}`);
    const r = await step("read_file", { path });
    say(r.isError ? "refused" : "ok", `read_file → ${brief(r)}`);
  }

  const del = await inspect("delete_file");
  if (del?.loaded) {
    say("step", `delete_file {"path": "src/main.rs"} (destructive: waits for your answer)`);
    const r = await step("delete_file", { path: "src/main.rs" });
    say(
      r.isError ? "refused" : "ok",
      `delete_file → ${r.outcome?.status ?? brief(r)}${r.isError ? ` (${r.outcome?.code})` : ""}`,
    );
  }

  if (session.boundedCodeMode && g?.handle && read?.handle) {
    const code = `found = call("${g.handle}", {"pattern": "**/CHANGES*.md"})\nnotes = call("${read.handle}", {"path": "${path}"})`;
    await inspect("run_tool_code");
    say("step", "run_tool_code (two calls in one program)");
    const r = await step("run_tool_code", { code });
    const trace = r.content?.trace ?? [];
    say(
      r.isError ? "refused" : "ok",
      `run_tool_code → ${r.content?.status ?? brief(r)}: ${trace.length} call(s)${trace.map((c) => `; ${c.tool} ${c.status}`).join("")}`,
    );
  }
  say("info", "the agent flow finished");
}
