#!/usr/bin/env node
// The `holaryn` command line.
import { readFileSync } from "node:fs";
import { HolarynRuntime } from "../js/node.mjs";
import { CliError } from "../js/cli/catalog.mjs";
import { rankCommand, searchCommand } from "../js/cli/search.mjs";

const USAGE = `usage:
  holaryn search --catalog FILE|DIR "query" [--top N] [--embeddings FILE]
  holaryn rank --catalog FILE|DIR --queries QUERIES.jsonl [--top 8] [--out FILE] [--embeddings FILE]
  holaryn bench run --suite tool-discovery [--baseline FILE] [--fail-on-regression] [--update-baseline] [--output-dir DIR]
  holaryn gateway --config FILE [--http PORT] [--check]   (see holaryn gateway --help)
  holaryn version

A catalog FILE is an MCP tools/list result ({"tools": [...]}), a bare array of
tools, or {"tools": [...]} with inputSchema or input_schema; a DIR registers
one provider per file with names qualified as provider/name. A tool named like
one of the runtime's own tools (tool_search, ...) is kept as <provider>/<name>
(the provider is the file's "server" field or its name), with a note on stderr.
rank writes one line per query: {"id", "ranked", "us"}, or
{"id", "error": {"code", "message"}} for a query the search refuses (the run
goes on).
--embeddings FILE imports precomputed vectors (holaryn.embeddings/1) and fuses
meaning with words.
Exit codes: 0 ok, 1 a gate or regression failed, 2 usage or input error.`;

function parseArgs(argv) {
  const opts = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith("--")) {
      const key = a.slice(2).replace(/-([a-z])/g, (_, c) => c.toUpperCase());
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("--")) opts[key] = true;
      else opts[key] = argv[++i];
    } else opts._.push(a);
  }
  return opts;
}

async function main(argv) {
  const [cmd, ...rest] = argv;
  const opts = parseArgs(rest);
  switch (cmd) {
    case "version": {
      const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
      process.stdout.write(`holaryn ${pkg.version}\n`);
      return 0;
    }
    case "search":
      process.stdout.write(await searchCommand({ HolarynRuntime }, opts));
      return 0;
    case "rank": {
      const r = await rankCommand({ HolarynRuntime }, opts);
      process.stdout.write(r.stdout);
      process.stderr.write(r.stderr);
      return 0;
    }
    case "gateway": {
      const { gatewayCommand } = await import("../js/cli/gateway.mjs");
      return gatewayCommand(opts);
    }
    case "bench": {
      const { benchCommand } = await import("../js/cli/bench.mjs");
      return benchCommand(opts);
    }
    case undefined:
    case "help":
    case "--help":
      process.stdout.write(`${USAGE}\n`);
      return cmd ? 0 : 2;
    default:
      throw new CliError(`unknown command \`${cmd}\`\n${USAGE}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`holaryn: ${e instanceof CliError ? e.message : (e?.stack ?? e)}\n`);
    process.exit(e instanceof CliError ? e.exitCode : 1);
  },
);
