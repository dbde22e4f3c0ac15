// `--state DIR` keeps the registry's snapshot: a gateway started again for
// the same servers restores its catalog (then each server's list re-syncs);
// other servers, or a snapshot the runtime refuses (a changed byte: a
// SnapshotError), start from an empty registry and register.

import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startGateway } from "../../js/gateway/index.mjs";
import { restoreRuntime, SNAPSHOT_FILE, serversKey } from "../../js/gateway/state.mjs";
import { HolarynRuntime } from "../../js/node.mjs";
import { makeConfig } from "./helpers.mjs";

async function run(file, stateDir) {
  const lines = [];
  const gateway = await startGateway({ config: file, stateDir, log: (l) => lines.push(l) });
  const out = { version: gateway.runtime.version, size: gateway.runtime.size, lines };
  await gateway.close();
  return out;
}

describe("gateway registry snapshot (--state)", () => {
  it("restores for the same servers, registers for others or when the snapshot is refused", async () => {
    const setup = makeConfig({ servers: ["memory"] });
    const state = join(setup.dir, "state");
    const first = await run(setup.file, state);
    assert.ok(first.size > 0);
    assert.ok(existsSync(join(state, SNAPSHOT_FILE)), "the snapshot is kept");
    assert.ok(!first.lines.some((l) => l.includes("restored")));

    const second = await run(setup.file, state);
    assert.ok(
      second.lines.some((l) => l.startsWith("registry restored")),
      second.lines.join("\n"),
    );
    assert.equal(second.version, first.version);

    // A changed byte: refused (logged with its code), the servers register as without a snapshot.
    const bytes = readFileSync(join(state, SNAPSHOT_FILE));
    bytes[bytes.length >> 1] ^= 1;
    writeFileSync(join(state, SNAPSHOT_FILE), bytes);
    const third = await run(setup.file, state);
    assert.ok(
      third.lines.some((l) => l.includes("snapshot.refused")),
      third.lines.join("\n"),
    );
    assert.equal(third.version, first.version);

    // Other servers: the snapshot is not used.
    const other = makeConfig({ servers: ["memory", "dyn"] });
    const fourth = await run(other.file, state);
    assert.ok(
      fourth.lines.some((l) => l.includes("other servers")),
      fourth.lines.join("\n"),
    );
    assert.ok(fourth.size > first.size);
  });

  it("saves the registry again after a server's list_changed, without waiting for the close", async () => {
    const setup = makeConfig({ servers: ["dyn"] });
    const state = join(setup.dir, "state");
    const gateway = await startGateway({ config: setup.file, stateDir: state, snapshotMs: 20 });
    try {
      const key = serversKey(gateway.config);
      const onDisk = () => restoreRuntime(HolarynRuntime, state, key)?.version;
      assert.equal(onDisk(), gateway.runtime.version, "saved after the first connect");
      const before = gateway.runtime.version;
      const dyn = gateway.downstream.clients().find((c) => c.name === "dyn");
      const grown = await dyn.client.callTool({ name: "grow", arguments: { name: "fresh_tool" } });
      assert.notEqual(grown.isError, true);
      const deadline = Date.now() + 10_000;
      while ((gateway.runtime.version === before || onDisk() !== gateway.runtime.version) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.notEqual(gateway.runtime.version, before, "list_changed re-listed the server");
      assert.equal(onDisk(), gateway.runtime.version, "the snapshot on disk is the registry after the change");
      const restored = restoreRuntime(HolarynRuntime, state, key);
      assert.ok(restored.size > 0 && restored.version === gateway.runtime.version);
    } finally {
      await gateway.close();
    }
  });
});
