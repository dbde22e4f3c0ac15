// Command-line arguments for the `holaryn` CLI: each command declares its
// options, Node's util.parseArgs (strict) reads them; an unknown flag, a missing
// value or a bad value is a CliError (exit 2), one line. No IO. Node only
// (node:util): what the browser demo shares with the CLI imports error.mjs.
import { parseArgs as nodeParseArgs } from "node:util";
import { CliError } from "./error.mjs";

export { CliError };

/** Option kinds for a command's declaration: a switch, a string, an integer in [min, max]. */
export const flag = Object.freeze({ type: "boolean" });
export const string = Object.freeze({ type: "string" });
export const integer = (min, max) => Object.freeze({ type: "string", range: [min, max] });

const camel = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

/**
 * Parse `argv` for `command` with `options` ({ top: integer(1, 8), out: string, check: flag, ... }).
 * `-h`/`--help` is always accepted. Returns `{ _: positional[], <camelCaseFlag>: value }`.
 */
export function parseArgs(command, argv, options) {
  const config = { help: { type: "boolean", short: "h" } };
  for (const [name, { type }] of Object.entries(options)) config[name] = { type };
  let parsed;
  try {
    parsed = nodeParseArgs({ args: argv, options: config, strict: true, allowPositionals: true });
  } catch (e) {
    if (!e.code?.startsWith("ERR_PARSE_ARGS_")) throw e;
    // parseArgs words some errors over several lines: the CLI says one.
    throw new CliError(`${e.message.replace(/\s*\n\s*/g, " ")} (see holaryn ${command} --help)`);
  }
  const opts = { _: parsed.positionals };
  for (const [name, value] of Object.entries(parsed.values)) {
    const kind = config[name];
    // What parseArgs lets through: an empty value (`--out=`) and an integer out of range.
    if (kind.type === "string" && value === "") throw new CliError(`--${name} needs a value`);
    opts[camel(name)] = options[name]?.range ? integerOf(name, value, options[name].range) : value;
  }
  return opts;
}

function integerOf(name, value, [min, max]) {
  const n = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new CliError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}
