// The CLI's flags are read by Node's util.parseArgs (strict): every flag,
// default and camelCase name as before; an unknown flag, a missing or empty
// value or an integer out of range is exit 2 with one line naming the flag.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { CliError, flag, integer, parseArgs, string } from "../../js/cli/args.mjs";
import { root } from "./helpers.mjs";

const options = { catalog: string, top: integer(1, 8), "output-dir": string, "fail-on-regression": flag };
const parse = (...argv) => parseArgs("search", argv, options);

test("flags, positionals, `--` and -h/--help parse to camelCase options", () => {
  assert.deepEqual(
    parse("--catalog", "c.json", "find", "--top=3", "a file", "--output-dir", "d", "--fail-on-regression"),
    {
      _: ["find", "a file"],
      catalog: "c.json",
      top: 3,
      outputDir: "d",
      failOnRegression: true,
    },
  );
  assert.deepEqual(parse("q", "--", "--top", "-"), { _: ["q", "--top", "-"] });
  assert.deepEqual(parse("-h"), { _: [], help: true });
  assert.deepEqual(parse("--help"), { _: [], help: true });
  assert.deepEqual(parse("--top", "1", "--top", "8"), { _: [], top: 8 }, "the last one wins");
});

test("what parseArgs refuses is one CliError line, exit code 2, pointing at the command's help", () => {
  const cases = [
    [["--colour"], /^Unknown option '--colour'\..*\(see holaryn search --help\)$/],
    [["-x"], /^Unknown option '-x'/],
    [["--top"], /^Option '--top <value>' argument missing/],
    [["--top", "--catalog", "c"], /^Option '--top' argument is ambiguous\. .*'--top=-XYZ'/],
    [["--fail-on-regression=yes"], /^Option '--fail-on-regression' does not take an argument/],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => parse(...argv),
      (e) => e instanceof CliError && e.exitCode === 2 && message.test(e.message) && !e.message.includes("\n"),
      argv.join(" "),
    );
  }
});

test("what parseArgs lets through is checked here: empty values and integer ranges", () => {
  const cases = [
    [["--top="], "--top needs a value"],
    [["--catalog", ""], "--catalog needs a value"],
    [["--top", "abc"], '--top must be an integer from 1 to 8, got "abc"'],
    [["--top=0"], '--top must be an integer from 1 to 8, got "0"'],
    [["--top", "9"], '--top must be an integer from 1 to 8, got "9"'],
    [["--top=1.5"], '--top must be an integer from 1 to 8, got "1.5"'],
  ];
  for (const [argv, message] of cases) {
    assert.throws(() => parse(...argv), { name: "CliError", message, exitCode: 2 }, argv.join(" "));
  }
});

test("the CLI: a flag error is exit 2 and one line on stderr, for each command", () => {
  const bin = join(root, "bin/holaryn.mjs");
  const cases = [
    [["search", "--catalog", "c.json", "--colour", "x"], /Unknown option '--colour'.*see holaryn search --help/],
    [["rank", "--top"], /Option '--top <value>' argument missing/],
    [["gateway", "--check=1"], /Option '--check' does not take an argument/],
    [["gateway", "--config", "c.json", "--http", "x"], /--http needs a port number 0-65535, not "x"/],
    [["version", "--all"], /Unknown option '--all'/],
  ];
  for (const [args, message] of cases) {
    const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message, args.join(" "));
    assert.match(r.stderr, /^holaryn: [^\n]*\n$/, `one line: ${r.stderr}`);
  }
});
