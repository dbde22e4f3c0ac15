// If a WebAssembly trap ever happens anyway (issue 16, hole 3), that instance
// reports itself failed with a typed error on every later call, and pending
// calls reject, instead of trapping again with `unreachable`. The trap is
// simulated with stand-in bindings run through the package's own wrapper.
import { test } from "node:test";
import assert from "node:assert/strict";
import { expose, HolarynError, HolarynRuntime } from "holaryn";

function standIn() {
  class HolarynRuntime {
    ping() {
      return "pong";
    }
    trap() {
      throw new WebAssembly.RuntimeError("unreachable");
    }
    waitForever() {
      return new Promise(() => {});
    }
    async trapLater() {
      await null;
      throw new WebAssembly.RuntimeError("unreachable executed");
    }
  }
  class HolarynSession {}
  return expose({ HolarynRuntime, HolarynSession });
}

const failed = (e) => e instanceof HolarynError && e.code === "runtime.failed";

test("a trap marks the instance failed: every later call throws runtime.failed, pending calls reject", async () => {
  const api = standIn();
  const rt = new api.HolarynRuntime();
  assert.equal(rt.ping(), "pong");
  const pending = rt.waitForever();
  assert.throws(() => rt.trap(), failed);
  assert.throws(() => rt.ping(), failed);
  assert.throws(() => new api.HolarynRuntime(), failed);
  await assert.rejects(pending, failed);
});

test("a trap inside an async call rejects it typed and fails the instance", async () => {
  const api = standIn();
  const rt = new api.HolarynRuntime();
  await assert.rejects(rt.trapLater(), failed);
  assert.throws(() => rt.ping(), failed);
});

test("another instance (the real package) is unaffected", () => {
  standIn();
  const rt = new HolarynRuntime();
  assert.equal(rt.size, 0);
});
