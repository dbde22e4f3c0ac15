#!/usr/bin/env node
// The `holaryn` command line. Exit codes: 0 ok, 1 a gate or regression
// failed, 2 a usage or input error (one line on stderr, never a stack trace).
import { existsSync, readFileSync } from "node:fs";
import { HolarynRuntime } from "../js/node.mjs";
import { CliError, flag, integer, parseArgs, string } from "../js/cli/args.mjs";
import { GATEWAY_USAGE } from "../js/cli/gateway.mjs";
import { rankCommand, searchCommand } from "../js/cli/search.mjs";

// HolarynBench needs the repository's benchmarks/ (catalog, baselines) and
// js-demo/ (the virtual project), which the npm package does not ship: offered
// only in a checkout.
const BENCH = new URL("../benchmarks/tool-discovery/suite.mjs", import.meta.url);
const hasBench = existsSync(BENCH);

const CATALOG_HELP = `A catalog FILE is an MCP tools/list result ({"tools": [...]}), a bare array of
tools, or {"tools": [...]} with inputSchema or input_schema; a DIR registers
one provider per file (named after the file) with names qualified as
provider/name, and *.tools.json files in it as ToolSpec arrays. A tool named
like one of the runtime's own tools (tool_search, ...) is kept as
<provider>/<name>, with a note on stderr. One bad tool never costs the others:
a tool the runtime refuses (and, in a DIR, a file it cannot read or parse) is
skipped with one line on stderr (file, tool, code, pointer), and the command
exits 0 when any tool registered. A server name that is no provider id
("My Server") becomes one by the core's rule ("My-Server"); a schema without
$schema in an older draft's forms is read in that draft, with a note.
  --strict            all-or-nothing: the first skipped tool or file is an error (exit 2)`;

const FILTERS = `  --provider ID       only tools of this provider (as tool_list filters)
  --source SOURCE     only tools of this source: mcp, native, skill, slash_command, browser, ...
  --embeddings FILE   import precomputed vectors (holaryn.embeddings/1) and fuse meaning with words`;

const COMMANDS = {
  search: {
    options: {
      catalog: string,
      top: integer(1, 8),
      provider: string,
      source: string,
      embeddings: string,
      strict: flag,
    },
    usage: `usage: holaryn search --catalog FILE|DIR "query" [--top N] [--provider ID] [--source SOURCE] [--embeddings FILE] [--strict]

Ranks the catalog's tools for the query (tool_search) and prints the top N (1-8,
default 8) with why each matched; says so when nothing fits.
${FILTERS}

${CATALOG_HELP}`,
    run: async (opts) => {
      process.stdout.write(await searchCommand({ HolarynRuntime }, opts));
      return 0;
    },
  },
  rank: {
    options: {
      catalog: string,
      queries: string,
      top: integer(1, 8),
      out: string,
      provider: string,
      source: string,
      embeddings: string,
      strict: flag,
    },
    usage: `usage: holaryn rank --catalog FILE|DIR --queries FILE.jsonl [--top 8] [--out FILE] [--embeddings FILE] [--strict]

Ranks many queries. Input (--queries): one JSON object per line with an "id"
(any JSON value, echoed back) and a string "query", e.g.
  {"id": 1, "query": "create a github issue"}
Output (stdout or --out FILE): one line per query, {"id", "ranked",
"nothingFits", "us"} (plus "hint" when nothingFits is true: tool_search's
flag that no tool clearly fits), or {"id", "error": {"code", "message"}} for
a query the search refuses (too long, empty); the run goes on. A summary (p50/p95 µs) goes to stderr.
${FILTERS}

${CATALOG_HELP}`,
    run: async (opts) => {
      const r = await rankCommand({ HolarynRuntime }, opts);
      process.stdout.write(r.stdout);
      process.stderr.write(r.stderr);
      return 0;
    },
  },
  bench: {
    hidden: !hasBench,
    options: {
      suite: string,
      baseline: string,
      "fail-on-regression": flag,
      "update-baseline": flag,
      "output-dir": string,
      inject: string,
    },
    usage: `usage: holaryn bench run --suite tool-discovery [--baseline FILE] [--fail-on-regression] [--update-baseline] [--output-dir DIR]

HolarynBench (in a checkout of the holaryn repository only): scripted model
trajectories over benchmarks/catalogs; writes results.json, trajectory.jsonl and
report.html. Exit 1 when a gate fails or, with --fail-on-regression, a figure is
worse than the baseline.`,
    run: async (opts) => {
      if (!hasBench)
        throw new CliError(
          "holaryn bench needs a checkout of the holaryn repository (benchmarks/ is not part of the npm package)",
        );
      const { benchCommand } = await import(BENCH.href);
      return benchCommand(opts);
    },
  },
  gateway: {
    options: { config: string, http: string, ui: string, state: string, check: flag, quiet: flag },
    synopsis: "holaryn gateway --config FILE [--http PORT] [--ui PORT] [--state DIR] [--check] [--quiet]",
    usage: GATEWAY_USAGE,
    run: async (opts) => {
      const { gatewayCommand } = await import("../js/cli/gateway.mjs");
      return gatewayCommand(opts);
    },
  },
  version: {
    options: {},
    usage: "usage: holaryn version (or holaryn --version, -v)",
    run: async () => (printVersion(), 0),
  },
};

function printVersion() {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  process.stdout.write(`holaryn ${pkg.version}\n`);
}

const USAGE = `usage:
${Object.entries(COMMANDS)
  .filter(([, c]) => !c.hidden)
  .map(([, c]) => `  ${c.synopsis ?? c.usage.split("\n")[0].replace(/^usage: /, "")}`)
  .join("\n")}
  holaryn COMMAND --help

Exit codes: 0 ok, 1 a gate or regression failed, 2 usage or input error.`;

async function main(argv) {
  const [cmd, ...rest] = argv;
  if (cmd === "--version" || cmd === "-v") return COMMANDS.version.run();
  if (cmd === undefined || cmd === "help" || cmd === "--help" || cmd === "-h") {
    const topic = cmd === "help" ? COMMANDS[rest[0]] : undefined;
    process.stdout.write(`${topic?.usage ?? USAGE}\n`);
    return cmd ? 0 : 2;
  }
  const command = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined; // a hidden command explains itself
  if (!command) throw new CliError(`unknown command \`${cmd}\` (see holaryn --help)`);
  const opts = parseArgs(cmd, rest, command.options);
  if (opts.help) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  return command.run(opts);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    // A user error is one line; anything else is a bug in holaryn: keep its stack.
    process.stderr.write(`holaryn: ${e instanceof CliError ? e.message : (e?.stack ?? e)}\n`);
    process.exit(e instanceof CliError ? e.exitCode : 1);
  },
);
