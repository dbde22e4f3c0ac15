// Snapshot and restore through the built npm package, in Node: a round trip
// gives the same registry version, search results, availability states and
// skipped-tool rows; a flipped byte or another build is a SnapshotError
// (snapshot.refused) and changes nothing; handles from before are stale.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HolarynError, HolarynRuntime, HandleError, SnapshotError } from "holaryn";
import * as bindings from "../../dist/web/holaryn_wasm.js";
import { BUILD } from "../../dist/web/holaryn_build.js";
import { catalogRuntime, native, secret } from "./helpers.mjs";

const QUERIES = [
  "create a github issue",
  "read a file",
  "take a screenshot of the page",
  "list kubernetes pods",
  "github",
];

/** The shared fixture catalog plus a re-list that skipped tools and a disconnected provider. */
function populated() {
  const rt = catalogRuntime();
  const listing = {
    serverInfo: { name: "srv", version: "1" },
    tools: [
      { name: "echo", description: "Echo the text back", inputSchema: { type: "object" } },
      { name: "bad name", inputSchema: { type: "object" } },
      { name: "bad_schema", inputSchema: { type: 7 } },
    ],
  };
  const synced = rt.syncCatalog("srv.json", JSON.stringify(listing), { providerId: "srv", qualifyNames: true });
  assert.equal(synced.skipped.length, 2);
  rt.setProviderStatus("srv", "disconnected");
  return rt;
}

/** What a dynamic session sees: results, every capability row (states and skipped rows), the version. */
function view(rt) {
  const s = rt.createSession({ dynamicDiscovery: true }, secret(9));
  const out = {
    version: rt.version,
    size: rt.size,
    searches: QUERIES.map((query) => s.search({ query, limit: 8 })),
    rows: s.capabilityTable(),
  };
  s.close();
  return out;
}

test("a round trip gives the same version, search results, states and skipped rows", () => {
  const rt = populated();
  const bytes = rt.snapshot();
  assert.ok(bytes instanceof Uint8Array);
  const back = HolarynRuntime.restore(bytes);
  assert.ok(back instanceof HolarynRuntime);
  const [a, b] = [view(rt), view(back)];
  assert.equal(b.version, a.version);
  assert.ok(
    b.rows.some((r) => r.availability.code === "unavailable.skipped"),
    "skipped rows came along",
  );
  assert.deepEqual(b, a);
  // Both go on alike: the same registration gives the same version and results.
  for (const r of [rt, back]) r.registerTools([native("archive_records", "Archive old records")]);
  assert.deepEqual(view(back), view(rt));
});

test("a flipped byte or another build is refused with SnapshotError and changes nothing", () => {
  const rt = populated();
  const bytes = rt.snapshot();
  const before = rt.version;
  const refused = (b, field) =>
    assert.throws(
      () => HolarynRuntime.restore(b),
      (e) =>
        e instanceof SnapshotError && e instanceof HolarynError && e.code === "snapshot.refused" && e.field === field,
    );
  for (const at of [0, 9, 20, bytes.length >> 1, bytes.length - 1]) {
    const flipped = bytes.slice();
    flipped[at] ^= 1;
    refused(flipped, at < 8 ? "magic" : at < 12 ? "format" : "checksum");
  }
  refused(new TextEncoder().encode('{"tools": []}'), "magic");
  // Another build: the same bytes read by a wasm with another build id.
  bindings.setBuild(`${BUILD}-other`);
  try {
    refused(bytes, "build");
  } finally {
    bindings.setBuild(BUILD);
  }
  assert.equal(rt.version, before);
  assert.deepEqual(view(HolarynRuntime.restore(bytes)).version, before);
});

test("handles issued before a restore are refused as stale", () => {
  const rt = new HolarynRuntime();
  rt.registerTools([native("read_file", "Read a file")]);
  const { handle } = rt.createSession({ dynamicDiscovery: true }, secret(1)).inspect({ name: "read_file" });
  const back = HolarynRuntime.restore(rt.snapshot(), { activityCapacity: 16 });
  const s = back.createSession({ dynamicDiscovery: true }, secret(1));
  assert.throws(
    () => s.inspect({ name: handle }),
    (e) => e instanceof HandleError && e.code === "handle.stale",
  );
  assert.equal(s.inspect({ name: "read_file" }).name, "read_file");
});

test("the runtime options that shaped the tools come along", () => {
  const rt = new HolarynRuntime({ requireInputSchema: true });
  rt.registerTools([native("read_file", "Read a file")]);
  const bytes = rt.snapshot();
  const back = HolarynRuntime.restore(bytes);
  const { inputSchema: _, ...bare } = native("bare", "no schema");
  assert.throws(
    () => back.registerTools([bare]),
    (e) => e.code === "descriptor.invalid_schema",
  );
  assert.throws(
    () => HolarynRuntime.restore(bytes, { requireInputSchema: false }),
    (e) => e instanceof SnapshotError && e.field === "requireInputSchema",
  );
});
