// Shared JS entry logic over the wasm-bindgen bindings: typed error classes
// and one generic wrapper that re-parents thrown errors onto them.

/** Base class of every error the runtime throws; `code` is stable. */
export class HolarynError extends Error {
  constructor(message, code = "holaryn.error") {
    super(message);
    this.name = "HolarynError";
    this.code = code;
  }
}
/** Bad tool descriptor (name, alias, schema, source). */
export class DescriptorError extends HolarynError {}
/** Bad catalog file or value. */
export class CatalogError extends HolarynError {}
/** Unknown tool or provider. */
export class ToolError extends HolarynError {}
/** Forged or stale opaque handle. */
export class HandleError extends HolarynError {}
/** Unknown session or invalid session options. */
export class SessionError extends HolarynError {}
/** Malformed project policy or rules. */
export class PolicyError extends HolarynError {}
/** Invalid model-tool input (query, limit, cursor, call shape). */
export class InputError extends HolarynError {}
/** Invalid configuration (e.g. an environment switch). */
export class ConfigError extends HolarynError {}
/** Bounded-code syntax, forbidden construct or limit. */
export class CodeError extends HolarynError {}

const FAMILIES = {
  HolarynError, DescriptorError, CatalogError, ToolError, HandleError,
  SessionError, PolicyError, InputError, ConfigError, CodeError,
};

/** Re-parent a thrown wasm error onto its class (keeps message, code and data). */
export function typed(err) {
  if (err && typeof err === "object" && typeof err.code === "string" && FAMILIES[err.name]) {
    Object.setPrototypeOf(err, FAMILIES[err.name].prototype);
  }
  return err;
}

function wrapClass(cls) {
  for (const target of [cls.prototype, cls]) {
    for (const key of Object.getOwnPropertyNames(target)) {
      if (key === "constructor" || key === "prototype" || key === "length" || key === "name") continue;
      const desc = Object.getOwnPropertyDescriptor(target, key);
      if (!desc || typeof desc.value !== "function" || key.startsWith("__")) continue;
      const original = desc.value;
      Object.defineProperty(target, key, {
        ...desc,
        value: function (...args) {
          let result;
          try {
            result = original.apply(this, args);
          } catch (e) {
            throw typed(e);
          }
          return result instanceof Promise ? result.catch((e) => Promise.reject(typed(e))) : result;
        },
      });
    }
  }
  return cls;
}

/** Build the public API from wasm-bindgen bindings. */
export function expose(bindings) {
  return {
    HolarynRuntime: wrapClass(bindings.HolarynRuntime),
    HolarynSession: wrapClass(bindings.HolarynSession),
  };
}
