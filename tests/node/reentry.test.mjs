// Host callbacks that re-enter or misbehave (issue 16, hole 3): listeners
// never run while core state is borrowed, re-entrant calls work, and no host
// misbehaviour (throwing, recursing, never resolving, hostile objects) leaves
// a runtime unusable or a promise unsettled.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HolarynRuntime, HolarynError } from "holaryn";
import { native, secret } from "./helpers.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function setup(options = {}) {
  const rt = new HolarynRuntime();
  rt.registerTools([
    native("read_file", "Read a file"),
    native("delete_file", "Delete a file", { annotations: { destructiveHint: true } }),
  ]);
  const s = rt.createSession({ dynamicDiscovery: true, defaultTimeoutMs: 200, ...options }, secret(11));
  s.inspect({ name: "read_file" });
  s.inspect({ name: "delete_file" });
  return { rt, s };
}

/** The runtime still answers: a search, a registry change and a gated call. */
async function stillUsable(rt, s) {
  assert.ok(s.search({ query: "read a file" }).results.length >= 1);
  assert.ok(rt.registerTools([native(`probe_${Math.random().toString(36).slice(2)}`, "Probe")]));
  s.inspect({ name: "read_file" });
  const o = await s.call("read_file", { path: "a" }, { execute: () => ({ text: "ok" }) });
  assert.equal(o.status, "ok");
}

test("a listener that calls session.search on every event: the call settles, later calls work", async () => {
  const { rt, s } = setup();
  let heard = 0;
  let searchErrors = 0;
  rt.addEventListener(() => {
    heard++;
    try {
      s.search({ query: "file" }); // records activity: one more event each time
    } catch (e) {
      searchErrors++;
      assert.ok(e instanceof HolarynError, String(e));
    }
  });
  const o = await s.call("read_file", { path: "a" }, { execute: () => ({ text: "x" }) });
  assert.equal(o.status, "ok");
  assert.equal(searchErrors, 0, "re-entrant search must work");
  assert.ok(heard > 0);
  await stillUsable(rt, s);
});

test("a listener that changes the registry on every event is bounded per flush and leaves the runtime usable", async () => {
  const { rt, s } = setup();
  let n = 0;
  const listener = () => {
    n++;
    rt.registerTools([native(`churn_${n}`, "Churn")]);
  };
  rt.addEventListener(listener);
  rt.registerTools([native("first", "First")]);
  const afterOne = n;
  assert.ok(afterOne > 0 && afterOne < 10_000, `delivered ${afterOne}`);
  rt.removeEventListener(listener);
  await stillUsable(rt, s);
});

test("events are delivered in order, after the change they describe is visible", () => {
  const { rt } = setup();
  const seen = [];
  rt.addEventListener((ev) => {
    if (ev.type === "tool_registry_changed" || ev.kind === "registry_changed" || ev.newVersion) {
      // The registry is readable (not borrowed) and already at the new version.
      seen.push(rt.version);
    }
  });
  rt.registerTools([native("one", "One")]);
  assert.ok(seen.length >= 1);
  assert.equal(seen.at(-1), rt.version);
});

test("a throwing listener, execute, approve or hook never breaks the runtime", async () => {
  const { rt, s } = setup();
  rt.addEventListener(() => {
    throw new Error("listener boom");
  });
  const boom = () => {
    throw new Error("boom");
  };
  const failed = await s.call("read_file", { path: "a" }, { execute: boom });
  assert.equal(failed.status, "failed");
  const denied = await s.call("delete_file", { path: "a" }, { approve: boom, execute: () => ({}) });
  assert.equal(denied.status, "approval_denied");
  const vetoed = await s.call("read_file", { path: "a" }, { hook: boom, execute: () => ({}) });
  assert.equal(vetoed.status, "vetoed");
  await stillUsable(rt, s);
});

test("callbacks that re-enter synchronously (search, registry changes, nested calls, setHost) work", async () => {
  const { rt, s } = setup();
  const stale = await s.call(
    "read_file",
    { path: "a" },
    {
      hook: () => {
        s.search({ query: "file" });
        s.setHost({});
        // A new tool and a new version of the pending call's own tool: the call by name is now out of date
        // (a change to other tools alone would leave it running: issue 31).
        rt.registerTools([native("made_in_hook", "x"), native("read_file", "Read a file, changed in the hook")]);
        return { decision: "continue" };
      },
      execute: () => ({ text: "never" }),
    },
  );
  assert.equal(stale.status, "refused");
  assert.equal(stale.code, "tool.changed"); // a call by name, not by handle
  assert.equal(stale.executed, false);
  s.inspect({ name: "read_file" });
  let inner;
  const o = await s.call(
    "read_file",
    { path: "a" },
    {
      execute: () => {
        s.capabilityTable();
        inner = s.call("read_file", { path: "b" }, { execute: () => ({ nested: true }) });
        return { text: "outer" };
      },
    },
  );
  assert.equal(o.status, "ok");
  assert.deepEqual((await inner).output, { nested: true });
  await stillUsable(rt, s);
});

test("an execute that recurses into session.call until the stack is exhausted still settles", async () => {
  const { rt, s } = setup();
  let depth = 0;
  const recurse = () => {
    depth++;
    return recurse();
  };
  const o = await s.call("read_file", { path: "a" }, { execute: recurse });
  assert.equal(o.status, "failed");
  assert.ok(depth > 100);
  await stillUsable(rt, s);
});

test("callbacks that never resolve: every promise settles, the runtime stays usable", async () => {
  const { rt, s } = setup({ callbackTimeoutMs: 100 });
  const never = () => new Promise(() => {});
  const outcomes = await Promise.all([
    s.call("read_file", { path: "a" }, { execute: never }),
    s.call("delete_file", { path: "a" }, { approve: never, execute: () => ({}) }),
    s.call("read_file", { path: "a" }, { hook: never, execute: () => ({}) }),
    s.dispatch("read_file", { path: "a" }, { execute: never }),
  ]);
  assert.deepEqual(
    outcomes.slice(0, 3).map((o) => o.status),
    ["timed_out", "timed_out", "timed_out"],
  );
  assert.equal(outcomes[3].isError, true);
  await stillUsable(rt, s);
});

test("hostile host objects (throwing getters, thenables, fake signals) settle the call", async () => {
  const { rt, s } = setup();
  const hostile = [
    {
      get execute() {
        throw new Error("getter");
      },
    },
    {
      execute: () => ({
        // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point of this case
        get then() {
          throw new Error("then getter");
        },
      }),
    },
    {
      execute: () => ({
        // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point of this case
        then() {
          throw new Error("then throws");
        },
      }),
    },
    {
      execute: () => ({
        // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point of this case
        then(ok) {
          ok({ a: 1 });
          ok({ a: 2 });
        },
      }),
    },
    { execute: () => ({ a: 1 }), signal: Object.create(AbortSignal.prototype) },
    {
      execute: () => ({ a: 1 }),
      get signal() {
        throw new Error("signal getter");
      },
    },
    {
      execute: () => ({ a: 1 }),
      now: () => {
        throw new Error("clock");
      },
    },
  ];
  for (const host of hostile) {
    const o = await s.call("read_file", { path: "a" }, host);
    assert.ok(typeof o.status === "string", String(o));
  }
  // A session default host with a throwing getter, merged with a per-call host.
  s.setHost({
    get approve() {
      s.setHost({});
      throw new Error("x");
    },
  });
  const o = await s.call("read_file", { path: "a" }, { execute: () => ({ a: 1 }) });
  assert.equal(o.status, "ok");
  await stillUsable(rt, s);
});

test("the AbortSignal still cancels a waiting approval", async () => {
  const { rt, s } = setup();
  const ctl = new AbortController();
  const p = s.call(
    "delete_file",
    { path: "a" },
    { approve: () => new Promise(() => {}), execute: () => ({}), signal: ctl.signal },
  );
  await sleep(20);
  ctl.abort();
  const o = await p;
  assert.equal(o.status, "cancelled");
  await stillUsable(rt, s);
});

test("a host recursing to stack exhaustion while calling the runtime leaves it usable", async () => {
  const { rt, s } = setup();
  const seen = new Set();
  function dive(depth) {
    try {
      dive(depth + 1);
    } catch {}
    try {
      s.search({ query: "read a file" });
      rt.registerTools([native(`deep_${depth % 7}`, `Depth ${depth}`)]);
      s.inspect({ name: "read_file" });
    } catch (e) {
      // Either refused typed before entering, or the engine's own RangeError outside the runtime.
      seen.add(e instanceof HolarynError ? e.code : e.name);
    }
  }
  for (let i = 0; i < 2; i++) dive(0);
  for (const what of seen) assert.ok(["runtime.stack_exhausted", "RangeError"].includes(what), what);
  await stillUsable(rt, s);
});
