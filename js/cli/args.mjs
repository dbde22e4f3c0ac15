// Command-line arguments for the `holaryn` CLI: each command declares its
// flags; an unknown flag, a missing value or a bad value is a CliError (exit 2)
// that names the flag. No dependencies, no IO.

/** A user error: printed as one line (no stack trace), exit code 2 unless said otherwise. */
export class CliError extends Error {
  constructor(message, exitCode = 2) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

/** Flag kinds: `true` (a switch), `"string"`, or `{ int: [min, max] }`. */
const camel = (flag) => flag.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

/**
 * Parse `argv` for `command` with `flags` ({ "top": { int: [1, 8] }, "out": "string", ... }).
 * `-h`/`--help` is always accepted. Returns `{ _: positional[], <camelCaseFlag>: value }`.
 */
export function parseArgs(command, argv, flags) {
  const opts = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      opts._.push(...argv.slice(i + 1));
      break;
    }
    if (a === "-h" || a === "--help") {
      opts.help = true;
      continue;
    }
    if (!a.startsWith("-") || a === "-") {
      opts._.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = a.startsWith("--") ? a.slice(2, eq > 0 ? eq : undefined) : "";
    const kind = flags[name];
    if (kind === undefined) {
      throw new CliError(
        `unknown flag ${eq > 0 ? a.slice(0, eq) : a} for \`holaryn ${command}\` (see holaryn ${command} --help)`,
      );
    }
    if (kind === true) {
      if (eq > 0) throw new CliError(`--${name} takes no value`);
      opts[camel(name)] = true;
      continue;
    }
    let value;
    if (eq > 0) value = a.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) value = argv[++i];
    if (value === undefined || value === "") throw new CliError(`--${name} needs a value`);
    if (kind.int) {
      const [min, max] = kind.int;
      const n = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
      if (!Number.isInteger(n) || n < min || n > max) {
        throw new CliError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
      }
      value = n;
    }
    opts[camel(name)] = value;
  }
  return opts;
}
