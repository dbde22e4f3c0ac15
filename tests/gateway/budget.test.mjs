// Issue 30 through the gateway: a downstream tool whose schema is costly to
// check (fan-out through `$ref`s, a runaway pattern) gets a typed refusal at
// its pointer, and the gateway keeps answering its client meanwhile. Behaviour
// only (a budget is counted in steps); `npm run bench:validation` has the times.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { connectGateway, makeConfig } from "./helpers.mjs";

describe("gateway: a costly schema never freezes the gateway", () => {
  let c;
  before(async () => {
    c = await connectGateway(makeConfig({ servers: ["costly"] }).file);
    await c.client.callTool({ name: "tool_inspect", arguments: { name: "costly/costly" } });
  });
  after(() => c?.client.close());

  it("refuses every error on 2^40 paths as args.budget_exceeded at /v, then still answers", async () => {
    const r = await c.call("costly__costly", { v: "x" });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /args\.budget_exceeded/);
    assert.match(r.text, /\/v/);
    assert.deepEqual(await c.client.ping(), {});
    const ok = await c.call("costly__costly", { v: 1 });
    assert.equal(ok.isError, false, ok.text);
  });

  it("refuses a runaway pattern over many keys, then still answers", async () => {
    const key = `${"a".repeat(30)}b`;
    const keys = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`${key}${i}`, 1]));
    const r = await c.call("costly__costly", { keys });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /args\.budget_exceeded/);
    assert.deepEqual(await c.client.ping(), {});
  });

  it("refuses arguments over the 1 MiB default cap as args.too_large, then still answers", async () => {
    const r = await c.call("costly__costly", { v: "x".repeat(1_200_000) });
    assert.equal(r.isError, true, r.text.slice(0, 200));
    assert.match(r.text, /args\.too_large/);
    assert.deepEqual(await c.client.ping(), {});
  });
});
