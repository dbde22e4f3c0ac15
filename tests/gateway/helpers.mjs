// Shared set-up for the gateway tests: a temp directory with a config of real
// MCP servers (server-memory, server-filesystem, server-everything) and the
// test servers (dynamic-server, reference-features), a spawned gateway, and an MCP SDK client in front of it.

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BIN = join(ROOT, "bin/holaryn.mjs");
const MCP = join(ROOT, "node_modules/@modelcontextprotocol");

/** A temp dir with `config.json`; `servers` picks which servers to include. */
export function makeConfig({ servers = ["memory", "filesystem", "everything", "dyn"], holaryn = {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "holaryn-gw-"));
  const files = { pids: join(dir, "pids.txt"), log: join(dir, "dyn.log"), activity: join(dir, "activity.jsonl") };
  writeFileSync(files.pids, "");
  writeFileSync(files.log, "");
  writeFileSync(join(dir, "notes.txt"), "hello from the filesystem server\n");
  const all = {
    memory: {
      command: process.execPath,
      args: [join(MCP, "server-memory/dist/index.js")],
      env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") },
    },
    filesystem: { command: process.execPath, args: [join(MCP, "server-filesystem/dist/index.js"), dir] },
    everything: { command: process.execPath, args: [join(MCP, "server-everything/dist/index.js"), "stdio"] },
    reference: { command: process.execPath, args: [join(ROOT, "tests/fixtures/servers/reference-features.mjs")] },
    reference2: { command: process.execPath, args: [join(ROOT, "tests/fixtures/servers/reference-features.mjs")] },
    dyn: {
      command: process.execPath,
      args: [join(ROOT, "tests/fixtures/servers/dynamic-server.mjs")],
      env: { DYNAMIC_SERVER_PID_FILE: files.pids, DYNAMIC_SERVER_LOG: files.log },
    },
    costly: {
      command: process.execPath,
      args: [join(ROOT, "tests/fixtures/servers/dynamic-server.mjs")],
      env: { DYNAMIC_SERVER_COSTLY: "1" },
    },
  };
  const config = { mcpServers: Object.fromEntries(servers.map((s) => [s, all[s]])), holaryn };
  const file = join(dir, "config.json");
  writeFileSync(file, JSON.stringify(config, null, 2));
  return { dir, file, files };
}

/** Spawn `holaryn gateway --config FILE` and connect a client; `elicit` answers approvals (omit: no elicitation capability). */
export async function connectGateway(file, { elicit } = {}) {
  const client = new Client(
    { name: "gateway-test", version: "1.0.0" },
    { capabilities: elicit ? { elicitation: {} } : {} },
  );
  const changes = { count: 0, waiters: [] };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes.count++;
    for (const w of changes.waiters.splice(0)) w();
  });
  const asked = [];
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return { action: elicit(req.params.message) };
    });
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "gateway", "--config", file, "--quiet"],
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d) => {
    stderr += d;
  });
  await client.connect(transport);
  return {
    client,
    transport,
    asked,
    changes,
    stderr: () => stderr,
    /** Resolves at the next list_changed after `since` notifications. */
    listChanged(since) {
      if (changes.count > since) return Promise.resolve();
      return new Promise((resolve) => changes.waiters.push(resolve));
    },
    /** Call a tool; parse the first text block as JSON when it is JSON. */
    async call(name, args = {}) {
      const r = await client.callTool({ name, arguments: args });
      const text = r.content?.find((c) => c.type === "text")?.text;
      let json;
      try {
        json = text === undefined ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { ...r, json, text };
    },
  };
}

/** Poll `check` every 50 ms until it returns truthy (or fail after `ms`). */
export async function until(check, ms = 15_000, what = "condition") {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Pids written by the test server instances. */
export const pidsOf = (file) => readFileSync(file, "utf8").split("\n").filter(Boolean).map(Number);

/** Is a process alive? */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
