// The gateway's state directory (`--state DIR`): the working set of recently
// inspected tools, kept across sessions and gateway processes so that a
// client which starts a gateway per command (the MCP Inspector CLI) finds
// the tool it inspected a command ago in `tools/list`. What the set holds and
// what a session may list from it is the core's rule (core/src/working_set.rs);
// here only the file is read and written.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GatewayConfigError } from "./config.mjs";

/** The working set's file name inside the state directory. */
export const WORKING_SET_FILE = "working-set.json";

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
