// The CLI's user error. No imports: the catalog-directory convention
// (catalog-rule.mjs) throws it and also runs in the browser (js-demo/).

/** A user error: printed as one line (no stack trace), exit code 2 unless said otherwise. */
export class CliError extends Error {
  constructor(message, exitCode = 2) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}
