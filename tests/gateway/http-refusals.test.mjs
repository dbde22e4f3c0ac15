// `holaryn gateway --http` refuses what the transport does not serve before
// allocating anything: a foreign Host, a foreign Origin, a missing or wrong
// bearer token, a body that is not JSON, an Accept without both JSON and SSE.
// The tests count upstream sessions (one holaryn session each), not bytes.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startGateway } from "../../js/gateway/index.mjs";
import { serveHttp } from "../../js/gateway/http.mjs";
import { makeConfig, ROOT, until } from "./helpers.mjs";

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
});
const JSON_AND_SSE = "application/json, text/event-stream";

/** POST `body` to `url` with `headers` (Host defaults to the URL's); resolves to {status, body}. */
function post(url, headers, body = INITIALIZE) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (d) => {
        text += d;
      });
      res.on("end", () => resolve({ status: res.statusCode, body: text, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function served(options = {}) {
  const setup = makeConfig({ servers: [] });
  const gateway = await startGateway({ config: setup.file });
  const http = await serveHttp(gateway, options);
  return { gateway, http };
}

describe("gateway HTTP refusals (issue 31)", () => {
  let gateway;
  let http;
  before(async () => {
    ({ gateway, http } = await served({ allowedOrigins: ["https://app.example"] }));
  });
  after(async () => {
    await http?.close();
  });

  const cases = [
    ["a foreign Host", { host: "evil.example", "content-type": "application/json", accept: JSON_AND_SSE }, 403],
    [
      "a foreign Origin",
      { origin: "https://evil.example", "content-type": "application/json", accept: JSON_AND_SSE },
      403,
    ],
    ["the Origin null", { origin: "null", "content-type": "application/json", accept: JSON_AND_SSE }, 403],
    ["a text/plain body", { "content-type": "text/plain", accept: JSON_AND_SSE }, 415],
    ["an Accept without text/event-stream", { "content-type": "application/json", accept: "application/json" }, 406],
    ["no Accept", { "content-type": "application/json" }, 406],
  ];
  for (const [what, headers, status] of cases) {
    it(`refuses an initialize with ${what} (${status}) and allocates no session`, async () => {
      for (let i = 0; i < 20; i++) {
        const r = await post(http.url, headers);
        assert.equal(r.status, status, r.body);
        assert.equal(JSON.parse(r.body).error.code, -32000);
      }
      assert.equal(gateway.upstreamCount(), 0, "no upstream session left behind");
    });
  }

  it("refuses a request body that is not JSON and allocates no session", async () => {
    const r = await post(http.url, { "content-type": "application/json", accept: JSON_AND_SSE }, "{not json");
    assert.equal(r.status, 400);
    assert.equal(gateway.upstreamCount(), 0);
  });

  it("an initialize the SDK transport itself refuses (two in one batch) leaves no session behind", async () => {
    const r = await post(
      http.url,
      { "content-type": "application/json", accept: JSON_AND_SSE },
      `[${INITIALIZE},${INITIALIZE.replace('"id":1', '"id":2')}]`,
    );
    assert.equal(r.status, 400, r.body);
    assert.equal(gateway.upstreamCount(), 0);
  });

  it("serves no Origin, loopback origins and allowedOrigins; a client that leaves frees its session", async () => {
    for (const origin of [undefined, "http://localhost:5173", "http://127.0.0.1:8080", "https://app.example"]) {
      const client = new Client({ name: "origin-test", version: "1.0.0" });
      const headers = origin ? { origin } : {};
      const transport = new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers } });
      await client.connect(transport);
      assert.equal(gateway.upstreamCount(), 1, `served with Origin ${origin}`);
      assert.ok((await client.listTools()).tools.some((t) => t.name === "tool_search"));
      await transport.terminateSession(); // DELETE /mcp
      await client.close();
      assert.equal(gateway.upstreamCount(), 0, "the session ended with DELETE");
    }
  });
});

describe("gateway HTTP bearer token (issue 31)", () => {
  let gateway;
  let http;
  before(async () => {
    ({ gateway, http } = await served({ token: "s3cret-token" }));
  });
  after(async () => {
    await http?.close();
  });

  it("refuses a request without the token, or with a wrong one (401), allocating nothing", async () => {
    for (const authorization of [undefined, "Bearer wrong", "Basic czNjcmV0LXRva2Vu", "Bearer s3cret-token-longer"]) {
      const headers = { "content-type": "application/json", accept: JSON_AND_SSE };
      if (authorization) headers.authorization = authorization;
      const r = await post(http.url, headers);
      assert.equal(r.status, 401, `${authorization}: ${r.body}`);
      assert.equal(r.headers["www-authenticate"], "Bearer");
    }
    assert.equal(gateway.upstreamCount(), 0);
  });

  it("serves a client that sends Authorization: Bearer TOKEN", async () => {
    const client = new Client({ name: "token-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { authorization: "Bearer s3cret-token" } },
      }),
    );
    try {
      assert.ok((await client.listTools()).tools.some((t) => t.name === "tool_search"));
    } finally {
      await client.close();
    }
  });
});

describe("README: the bearer-token command for shared machines (issue 31)", () => {
  it("runs as written (port 0 for 8931) and refuses a request without the token", async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const command = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
      .map((m) => m[1])
      .find((c) => c.includes("HOLARYN_GATEWAY_TOKEN"));
    assert.ok(command, "the README has the command");
    const setup = makeConfig({ servers: [] });
    writeFileSync(join(setup.dir, "holaryn-mcp.json"), JSON.stringify({ mcpServers: {} }));
    const line = command
      .trim()
      .replace("npx holaryn", `node ${join(ROOT, "bin/holaryn.mjs")}`)
      .replace(/8931$/, "0");
    const child = spawn("bash", ["-c", `exec env ${line}`], { cwd: setup.dir, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    try {
      const url = await until(() => /serving Streamable HTTP on (\S+)/.exec(err)?.[1], 30_000, "the gateway's URL");
      const r = await post(url, { "content-type": "application/json", accept: JSON_AND_SSE });
      assert.equal(r.status, 401, r.body);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
