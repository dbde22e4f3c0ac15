// The gateway's config file: the `{"mcpServers": {...}}` shape MCP clients
// already use, plus holaryn's own settings under a "holaryn" key. Every
// problem is reported with the file, a JSON pointer, the line:column
// (UTF-16, 1-based) of the value it names, and what is wrong; nothing starts
// until the whole file is valid.

import { readFile } from "node:fs/promises";
import path from "node:path";
import { ConfigError } from "../core.mjs";

/** Settings under `"holaryn"` and their checks (type, allowed values). */
const HOLARYN_KEYS = {
  boundedCodeMode: "boolean",
  policyFile: "string",
  rules: "object",
  profileAllowedTools: "string[]",
  hiddenProviders: "string[]",
  approvalFallback: ["deny", "allow"],
  activityFile: "string",
  qualifyNames: "boolean",
  callTimeoutMs: "positive",
  callbackTimeoutMs: "positive",
};

/** One problem in a config file. */
export class GatewayConfigError extends ConfigError {
  constructor(file, pointer, message, position) {
    const at = position ? `:${position.line}:${position.column}` : "";
    super(`${file}${at}: ${pointer || "(root)"}: ${message}`, "config.invalid");
    this.file = file;
    this.pointer = pointer;
    this.line = position?.line;
    this.column = position?.column;
    this.detail = message;
  }
}

/** Read and check a config file; throws `GatewayConfigError` naming the first problem. */
export async function loadGatewayConfig(file) {
  let text;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new GatewayConfigError(file, "", `cannot read the file (${e.code ?? e.message})`);
  }
  return parseGatewayConfig(text, file);
}

/** Check config text; `file` names it in errors and anchors relative paths. */
export function parseGatewayConfig(text, file = "<config>") {
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const offset = /position (\d+)/.exec(e.message)?.[1];
    const pos = offset === undefined ? undefined : lineColumn(text, Number(offset));
    throw new GatewayConfigError(
      file,
      "",
      `not valid JSON (${e.message.replace(/ in JSON at position \d+.*$/, "")})`,
      pos,
    );
  }
  const fail = (pointer, message) => {
    throw new GatewayConfigError(file, pointer, message, positionOf(text, pointer));
  };
  if (!isObject(value)) fail("", 'the config must be a JSON object with an "mcpServers" object');
  for (const key of Object.keys(value)) {
    if (key !== "mcpServers" && key !== "holaryn")
      fail(`/${esc(key)}`, `unknown key (expected "mcpServers" and optionally "holaryn")`);
  }
  if (!isObject(value.mcpServers)) fail("/mcpServers", '"mcpServers" must be an object of named servers');
  const base = path.dirname(path.resolve(file));
  const servers = Object.entries(value.mcpServers).map(([name, s]) => checkServer(name, s, fail, base));
  const holaryn = checkHolaryn(value.holaryn ?? {}, fail, base);
  return { file, servers, holaryn };
}

function checkServer(name, s, fail, base) {
  const at = `/mcpServers/${esc(name)}`;
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)) {
    fail(
      at,
      "a server name must be 1-64 letters, digits, '_', '-' or '.', starting with a letter or digit (it becomes the provider id)",
    );
  }
  if (name.toLowerCase() === "holaryn") fail(at, '"holaryn" is reserved for the runtime\'s own tools');
  if (!isObject(s)) fail(at, 'a server must be an object with "command" (stdio) or "url" (Streamable HTTP)');
  if (s.disabled === true) return { name, disabled: true };
  if (typeof s.command === "string" && s.url !== undefined) fail(at, 'give "command" or "url", not both');
  if (typeof s.command === "string") {
    if (!s.command.trim()) fail(`${at}/command`, "must not be empty");
    const args = s.args ?? [];
    if (!Array.isArray(args) || args.some((a) => typeof a !== "string"))
      fail(`${at}/args`, "must be an array of strings");
    const env = s.env ?? {};
    if (!isObject(env) || Object.values(env).some((v) => typeof v !== "string"))
      fail(`${at}/env`, "must be an object of strings");
    if (s.cwd !== undefined && typeof s.cwd !== "string") fail(`${at}/cwd`, "must be a string");
    return { name, kind: "stdio", command: s.command, args, env, cwd: s.cwd ? path.resolve(base, s.cwd) : undefined };
  }
  if (typeof s.url === "string") {
    let url;
    try {
      url = new URL(s.url);
    } catch {
      fail(`${at}/url`, "not a valid URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") fail(`${at}/url`, "must be an http: or https: URL");
    const headers = s.headers ?? {};
    if (!isObject(headers) || Object.values(headers).some((v) => typeof v !== "string"))
      fail(`${at}/headers`, "must be an object of strings");
    return { name, kind: "http", url: url.href, headers };
  }
  if (s.command !== undefined) fail(`${at}/command`, "must be a string");
  if (s.url !== undefined) fail(`${at}/url`, "must be a string");
  return fail(at, 'a server needs "command" (stdio) or "url" (Streamable HTTP)');
}

function checkHolaryn(h, fail, base) {
  if (!isObject(h)) fail("/holaryn", "must be an object");
  for (const [key, v] of Object.entries(h)) {
    const at = `/holaryn/${esc(key)}`;
    const want = HOLARYN_KEYS[key];
    if (!want) fail(at, `unknown setting (known: ${Object.keys(HOLARYN_KEYS).join(", ")})`);
    if (Array.isArray(want) && !want.includes(v))
      fail(at, `must be one of ${want.map((w) => JSON.stringify(w)).join(", ")}`);
    if (want === "boolean" && typeof v !== "boolean") fail(at, "must be true or false");
    if (want === "string" && (typeof v !== "string" || !v)) fail(at, "must be a non-empty string");
    if (want === "positive" && !(Number.isInteger(v) && v > 0))
      fail(at, "must be a positive whole number of milliseconds");
    if (want === "string[]" && !(Array.isArray(v) && v.every((x) => typeof x === "string")))
      fail(at, "must be an array of strings");
    if (want === "object" && !isObject(v)) fail(at, 'must be an object like {"allow": [...], "deny": [...]}');
  }
  const resolve = (p) => (p === undefined ? undefined : path.resolve(base, p));
  return {
    ...h,
    policyFile: resolve(h.policyFile),
    activityFile: resolve(h.activityFile),
    approvalFallback: h.approvalFallback ?? "deny",
  };
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const esc = (key) => key.replaceAll("~", "~0").replaceAll("/", "~1");

/** 1-based line and UTF-16 column of a UTF-16 offset (lines end at \n, \r\n or a lone \r). */
export function lineColumn(text, offset) {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text[i];
    if (c === "\n" || (c === "\r" && text[i + 1] !== "\n")) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** Where the value at a JSON pointer starts in `text` (undefined if it is absent). */
export function positionOf(text, pointer) {
  const want =
    pointer === ""
      ? []
      : pointer
          .slice(1)
          .split("/")
          .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\r\n".includes(text[i])) i++;
  };
  const str = () => {
    const s = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(s, i));
  };
  const skip = () => {
    ws();
    const c = text[i];
    if (c === '"') return void str();
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      ws();
      while (text[i] !== close && i < text.length) {
        if (c === "{") {
          str();
          ws();
          i++;
        }
        skip();
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      i++;
      return;
    }
    while (i < text.length && !",}] \t\r\n".includes(text[i])) i++;
  };
  // Walk down the pointer, one token per level; the last duplicate key wins, as in JSON.parse.
  for (const token of want) {
    ws();
    const c = text[i];
    let found = -1;
    if (c === "{") {
      i++;
      ws();
      while (text[i] !== "}" && i < text.length) {
        const key = str();
        ws();
        i++;
        ws();
        if (key === token) found = i;
        skip();
        ws();
        if (text[i] === ",") i++;
        ws();
      }
    } else if (c === "[") {
      i++;
      let n = 0;
      ws();
      while (text[i] !== "]" && i < text.length) {
        ws();
        if (String(n) === token) found = i;
        skip();
        ws();
        if (text[i] === ",") i++;
        n++;
        ws();
      }
    }
    if (found < 0) return undefined;
    i = found;
  }
  ws();
  return lineColumn(text, i);
}
