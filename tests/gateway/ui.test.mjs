// `holaryn gateway --ui`: the Capability Center of a live gateway. An
// operator approves a pending call by clicking in headless Chromium, denies
// one over the API, edits the policy; other pages cannot drive it.

import assert from "node:assert/strict";
import { request } from "node:http";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { launch } from "../browser/harness.mjs";
import { BIN, makeConfig, until } from "./helpers.mjs";

describe("gateway Capability Center (--ui)", () => {
  let setup;
  let client;
  let ui;
  let stderr = "";
  before(async () => {
    setup = makeConfig({ servers: ["dyn"], holaryn: { policyFile: "tool-policy.json" } });
    // The policy file the editor saves to.
    await import("node:fs").then((fs) => fs.writeFileSync(`${setup.dir}/tool-policy.json`, '{"deny": ["dyn/fail"]}\n'));
    client = new Client({ name: "ui-test", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "gateway", "--config", setup.file, "--ui", "0", "--quiet"],
      stderr: "pipe",
    });
    transport.stderr.on("data", (d) => {
      stderr += d;
    });
    await client.connect(transport);
    ui = await until(() => /Capability Center on (\S+)/.exec(stderr)?.[1], 20_000, "the UI URL");
  });
  after(async () => {
    await client?.close();
  });

  const state = async () => (await fetch(new URL("/api/state", ui))).json();
  const call = (name, args = {}) => client.callTool({ name, arguments: args });

  it("shows servers, the effective catalog with reasons, and the policy", async () => {
    const s = await state();
    assert.deepEqual(
      s.providers.map((p) => [p.name, p.state]),
      [["dyn", "connected"]],
    );
    const fail = s.catalog.find((r) => r.name === "dyn/fail");
    assert.equal(fail.availability.state, "denied");
    assert.ok(fail.availability.reason && fail.availability.nextAction);
    assert.match(s.policy.text, /dyn\/fail/);
  });

  it("counts what a client can find and names servers by their config key (issue 31)", async () => {
    const s = await state();
    const hidden = s.catalog.filter((r) => r.availability.state === "hidden").map((r) => r.name);
    assert.ok(hidden.includes("run_tool_code"), "bounded code mode is off: run_tool_code is hidden");
    assert.equal(s.findable, s.catalog.length - hidden.length);
    const browser = await launch();
    try {
      const page = await browser.newPage();
      await page.goto(ui);
      await page.waitForSelector('#catalog [data-tool="dyn/echo_text"]');
      assert.match(await page.textContent("#status"), new RegExp(`^${s.findable} tools from 1 servers`));
      const cell = await page.textContent('#catalog [data-tool="dyn/echo_text"] td:nth-child(2)');
      assert.equal(cell, "dyn", "the config key, not the server's self-reported name");
    } finally {
      await browser.close();
    }
  });

  it("holds an approval until the operator clicks Approve in the page", async () => {
    await call("tool_inspect", { name: "dyn/wipe_everything" });
    const pending = call("dyn/wipe_everything");
    await until(async () => (await state()).pending.length === 1, 10_000, "a pending approval");
    const browser = await launch();
    try {
      const page = await browser.newPage();
      await page.goto(ui);
      await page.waitForSelector('[data-tool="dyn/wipe_everything"] button.approve');
      await page.click('[data-tool="dyn/wipe_everything"] button.approve');
      const r = await pending;
      assert.equal(r.isError, false, JSON.stringify(r.content));
      assert.match(readFileSync(setup.files.log, "utf8"), /call wipe_everything/);
    } finally {
      await browser.close();
    }
  });

  it("denies when the operator says so over the API (with the page's token)", async () => {
    const pending = call("dyn/wipe_everything");
    const s = await until(
      async () => {
        const x = await state();
        return x.pending.length === 1 && x;
      },
      10_000,
      "a pending approval",
    );
    const page = await (await fetch(ui)).text();
    const token = /const TOKEN = "([0-9a-f]+)"/.exec(page)[1];
    const noToken = await fetch(new URL(`/api/approvals/${s.pending[0].callId}`, ui), {
      method: "POST",
      body: '{"approve": true}',
    });
    assert.equal(noToken.status, 403);
    const res = await fetch(new URL(`/api/approvals/${s.pending[0].callId}`, ui), {
      method: "POST",
      headers: { "x-holaryn-token": token, "content-type": "application/json" },
      body: '{"approve": false}',
    });
    assert.equal(res.status, 200);
    const r = await pending;
    assert.equal(r.isError, true);
    assert.match(JSON.stringify(r.content), /approval\.denied/);
    assert.equal(readFileSync(setup.files.log, "utf8").match(/call wipe_everything/g).length, 1);
  });

  it("answers only loopback Host headers", async () => {
    const status = await new Promise((resolve, reject) => {
      const req = request(new URL("/api/state", ui), { headers: { host: "evil.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on("error", reject);
      req.end();
    });
    assert.equal(status, 403);
  });

  it("edits the policy: a bad text names file, pointer and line; a good one applies to the live session and is saved", async () => {
    const token = /const TOKEN = "([0-9a-f]+)"/.exec(await (await fetch(ui)).text())[1];
    const put = (text) =>
      fetch(new URL("/api/policy", ui), {
        method: "POST",
        headers: { "x-holaryn-token": token },
        body: JSON.stringify({ text }),
      }).then((r) => r.json());
    const bad = await put('{"deny": [3]}');
    assert.equal(bad.ok, false);
    assert.match(bad.error.file, /tool-policy\.json/);
    assert.equal(bad.error.pointer, "/deny/0");
    const good = await put('{"deny": ["dyn/fail", "dyn/echo_text"]}');
    assert.equal(good.ok, true);
    const found = await call("tool_search", { query: "echo a piece of text back" });
    const row = JSON.parse(found.content[0].text).results.find((r) => r.name === "dyn/echo_text");
    assert.equal(row.state, "denied");
    assert.match(readFileSync(`${setup.dir}/tool-policy.json`, "utf8"), /dyn\/echo_text/);
  });
});
