// `holaryn search` says when nothing fits: the hint (where to browse instead)
// comes before the few weak guesses; a request that fits prints no such line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./helpers.mjs";

const bin = join(root, "bin/holaryn.mjs");
const holaryn = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });
const tool = (name, description) => ({
  name,
  description,
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
});

function catalog() {
  const file = join(mkdtempSync(join(tmpdir(), "search-")), "tools.json");
  writeFileSync(
    file,
    JSON.stringify({
      tools: [tool("send_invoice", "Send an invoice to a customer."), tool("rename_file", "Rename or move a file.")],
    }),
  );
  return file;
}

test("search prints the hint when nothing fits", () => {
  const r = holaryn("search", "--catalog", catalog(), "qwzx vbnm plokij");
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^nothing fits: .*tool_list/m);
});

test("search prints no nothing-fits line when a tool fits", () => {
  const r = holaryn("search", "--catalog", catalog(), "rename a file");
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /nothing fits/);
  assert.match(r.stdout, /1\. rename_file/);
});
