// The gateway's state directory (`--state DIR`): the working set of recently
// inspected tools, kept across sessions and gateway processes so that a
// client which starts a gateway per command (the MCP Inspector CLI) finds
// the tool it inspected a command ago in `tools/list`. What the set holds and
// what a session may list from it is the core's rule (core/src/working_set.rs);
// here only the file is read and written.
//
// It also keeps the registry's snapshot (rt.snapshot(), core/src/snapshot):
// a gateway started again for the same servers restores its catalog instead
// of registering it (each server's list then re-syncs as a no-op when it did
// not change). The snapshot is tagged with a digest of the config's servers
// (never the servers' settings themselves: env and headers may hold secrets);
// another server list, or a snapshot the runtime refuses (SnapshotError:
// another build, a changed byte), starts from an empty registry.

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GatewayConfigError } from "./config.mjs";

/** The working set's file name inside the state directory. */
export const WORKING_SET_FILE = "working-set.json";
/** The registry snapshot's file name inside the state directory. */
export const SNAPSHOT_FILE = "registry.snapshot";
/** The digest of the servers the snapshot was taken for, beside it. */
export const SNAPSHOT_SERVERS_FILE = "registry.servers";

/** A digest of what decides which tools the gateway registers: the servers and how names are qualified. */
export function serversKey(config) {
  const what = JSON.stringify({ servers: config.servers, qualifyNames: config.holaryn?.qualifyNames ?? true });
  return `sha256:${createHash("sha256").update(what).digest("hex")}`;
}

/** Write `bytes` to `file` through a temporary file (readers never see half a file). */
function writeAtomic(file, bytes) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, file);
}

/**
 * The runtime kept in `dir` for the servers `key` names, restored; null when there is none, it was
 * taken for other servers, or the runtime refuses it (logged): the caller then registers.
 */
export function restoreRuntime(HolarynRuntime, dir, key, log = () => {}) {
  if (!dir) return null;
  let bytes;
  try {
    if (readFileSync(join(dir, SNAPSHOT_SERVERS_FILE), "utf8").trim() !== key) {
      log("the registry snapshot was taken for other servers; registering");
      return null;
    }
    bytes = readFileSync(join(dir, SNAPSHOT_FILE));
  } catch (e) {
    if (e?.code !== "ENOENT") log(`cannot read the registry snapshot (${e.code ?? e.message}); registering`);
    return null;
  }
  try {
    return HolarynRuntime.restore(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), {});
  } catch (e) {
    log(`${e.message} (${e.code}); registering`);
    return null;
  }
}

/** Keep `runtime`'s snapshot in `dir` for the servers `key` names, when its registry changed since `last`. */
export function saveSnapshot(runtime, dir, key, last, log = () => {}) {
  if (!dir || runtime.version === last) return last;
  try {
    mkdirSync(dir, { recursive: true });
    writeAtomic(join(dir, SNAPSHOT_FILE), runtime.snapshot());
    writeAtomic(join(dir, SNAPSHOT_SERVERS_FILE), `${key}\n`);
    return runtime.version;
  } catch (e) {
    log(`cannot write the registry snapshot in ${dir} (${e.code ?? e.message})`);
    return last;
  }
}

/**
 * Load the working set kept in `dir` into `runtime` (a missing file is an empty set; a bad
 * one is logged and replaced), and return `save()`, which writes it back when it changed.
 * Without `dir` the set lives in memory only (shared by the sessions of this process).
 */
export function openState(runtime, dir, log = () => {}) {
  if (!dir) return { file: null, save() {} };
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new GatewayConfigError(dir, "", `cannot create the state directory (${e.code ?? e.message})`);
  }
  const file = join(dir, WORKING_SET_FILE);
  try {
    runtime.setWorkingSet(file, readFileSync(file, "utf8"));
  } catch (e) {
    if (e?.code !== "ENOENT") log(`${e.message}; starting a new working set`);
  }
  let saved = runtime.workingSet();
  return {
    file,
    /** Write the working set when it changed (last writer wins between processes). */
    save() {
      const now = runtime.workingSet();
      if (now === saved) return;
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, `${now}\n`);
        renameSync(tmp, file);
        saved = now;
      } catch (e) {
        log(`cannot write ${file} (${e.code ?? e.message})`);
      }
    },
  };
}
