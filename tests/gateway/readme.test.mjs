// The README's "Use it from your MCP client" section runs as written: its
// config saved as holaryn-mcp.json, its `--check` command, and the client
// entry (with its placeholder path filled in) spawned by an MCP SDK client.
// The temp project links `holaryn` and the reference servers into its
// node_modules the way `npm install` would, so `npx` resolves them locally.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ROOT } from "./helpers.mjs";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const section = readme.slice(
  readme.indexOf("## Use it from your MCP client"),
  readme.indexOf("\n## ", readme.indexOf("## Use it from your MCP client") + 3),
);
const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2] }));

function project() {
  const dir = mkdtempSync(join(tmpdir(), "holaryn-readme-gw-"));
  mkdirSync(join(dir, "node_modules/.bin"), { recursive: true });
  symlinkSync(join(ROOT, "node_modules/@modelcontextprotocol"), join(dir, "node_modules/@modelcontextprotocol"));
  symlinkSync(join(ROOT, "bin/holaryn.mjs"), join(dir, "node_modules/.bin/holaryn"));
  for (const bin of ["mcp-server-memory", "mcp-server-filesystem"]) {
    symlinkSync(join(ROOT, "node_modules/.bin", bin), join(dir, "node_modules/.bin", bin));
  }
  return dir;
}

describe("README: Use it from your MCP client", () => {
  const [config, client] = blocks.filter((b) => b.lang === "json");
  const check = blocks.find((b) => b.lang === "sh");

  it("has the config, the client entry and the check command", () => {
    assert.ok(config && client && check, `blocks: ${blocks.map((b) => b.lang)}`);
    assert.ok(JSON.parse(config.text).mcpServers);
  });

  it("runs the --check command as written", () => {
    const dir = project();
    writeFileSync(join(dir, "holaryn-mcp.json"), config.text);
    const [cmd, ...args] = check.text.trim().split(/\s+/);
    const out = execFileSync(cmd, args, {
      cwd: dir,
      encoding: "utf8",
      timeout: 120_000,
      stdio: ["ignore", "pipe", "ignore"],
    });
    assert.match(out, /memory\s+stdio connected\s+9 tools/);
    assert.match(out, /initial tools\/list with the gateway: {4}3 tools/);
  });

  it("serves the client entry (its placeholder path filled in)", async () => {
    const dir = project();
    writeFileSync(join(dir, "holaryn-mcp.json"), config.text);
    const entry = JSON.parse(client.text).mcpServers.holaryn;
    const args = entry.args.map((a) => (a === "/path/to/holaryn-mcp.json" ? join(dir, "holaryn-mcp.json") : a));
    const c = new Client({ name: "readme", version: "1.0.0" });
    await c.connect(new StdioClientTransport({ command: entry.command, args, cwd: dir, stderr: "ignore" }));
    try {
      const { tools } = await c.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ["tool_inspect", "tool_list", "tool_search"]);
      const found = await c.callTool({ name: "tool_search", arguments: { query: "remember a fact about a person" } });
      assert.match(found.content[0].text, /memory\//);
    } finally {
      await c.close();
    }
  });
});
