// Shared JS entry logic over the wasm-bindgen bindings: typed error classes
// and one generic wrapper that re-parents thrown errors onto them.
import { packSearches } from "./wire.mjs";

/** Base class of every error the runtime throws; `code` is stable. */
export class HolarynError extends Error {
  constructor(message, code = "holaryn.error") {
    super(message);
    this.name = new.target.name;
    this.code = code;
  }
}

// Generated from wasm/src/errors.rs CLASSES, do not edit: HOLARYN_BLESS=1 cargo test -p holaryn-wasm errors
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
/** A snapshot refused by `HolarynRuntime.restore` (not one, another build, bytes changed): register instead. */
export class SnapshotError extends HolarynError {}

/** Each class by the `name` the wasm gives the errors it throws. */
const FAMILIES = {
  HolarynError,
  DescriptorError,
  CatalogError,
  ToolError,
  HandleError,
  SessionError,
  PolicyError,
  InputError,
  ConfigError,
  CodeError,
  SnapshotError,
};
// End of the generated error classes.

/** Re-parent a thrown wasm error onto its class (keeps message, code and data). */
export function typed(err) {
  if (err && typeof err === "object" && typeof err.code === "string" && FAMILIES[err.name]) {
    Object.setPrototypeOf(err, FAMILIES[err.name].prototype);
  }
  return err;
}

/** wasm-bindgen class → its wrapped (Proxy) version; bindings module → its health. */
const proxyOf = new WeakMap();

/**
 * One wasm instance's health. Set once the instance traps
 * (`WebAssembly.RuntimeError`, e.g. `unreachable`): its memory may be
 * inconsistent, so from then on every call throws (and every pending call
 * rejects with) a `HolarynError` with code `runtime.failed` instead of
 * trapping again.
 */
function health() {
  return { failure: null, pending: new Set() };
}

function failedError(state) {
  return new HolarynError(
    `the Holaryn runtime failed earlier (WebAssembly trap: ${state.failure}) and cannot be used any more; reload the module`,
    "runtime.failed",
  );
}

/** A thrown or rejected value, typed; a trap marks the instance failed. */
function settle(state, e) {
  if (typeof WebAssembly === "object" && e instanceof WebAssembly.RuntimeError) {
    state.failure ??= e.message || "trap";
    for (const reject of state.pending) reject(failedError(state));
    state.pending.clear();
    return failedError(state);
  }
  return typed(e);
}

/**
 * Stack the runtime may need below a call, in argument slots (8 bytes each,
 * 32 KiB; probing costs a few microseconds). A call made with less left (a
 * host deep in its own recursion) is refused typed before it enters the wasm:
 * a stack overflow inside the wasm would abandon Rust frames mid-step and
 * leave the runtime's state borrowed for good.
 */
const HEADROOM = new Array(4096).fill(0);
const noop = () => {};

function stackError() {
  return new HolarynError(
    "not enough JavaScript stack left to enter the runtime safely (the caller is deep in a recursion); nothing was changed",
    "runtime.stack_exhausted",
  );
}

/** Wrap one function so sync throws and Promise rejections come out typed. */
function wrapFn(fn, state) {
  return function (...args) {
    if (state.failure !== null) throw failedError(state);
    try {
      Reflect.apply(noop, undefined, HEADROOM);
    } catch {
      throw stackError();
    }
    let result;
    try {
      result = fn.apply(this, args);
    } catch (e) {
      throw settle(state, e);
    }
    if (!(result instanceof Promise)) return result;
    return new Promise((resolve, reject) => {
      state.pending.add(reject);
      result.then(resolve, (e) => reject(settle(state, e))).finally(() => state.pending.delete(reject));
    });
  };
}

/**
 * Patch a wasm-bindgen class in place: every method and accessor (instance and
 * static, except wasm-bindgen's internal `__…` ones) is wrapped by `wrapFn`;
 * the constructor through a Proxy. Objects the wasm creates itself (e.g.
 * sessions) share the patched prototype, and `instanceof` sees through the
 * Proxy to the original class.
 */
function wrapClass(cls, state) {
  for (const target of [cls.prototype, cls]) {
    for (const key of Object.getOwnPropertyNames(target)) {
      if (["constructor", "prototype", "length", "name"].includes(key) || key.startsWith("__")) continue;
      const desc = Object.getOwnPropertyDescriptor(target, key);
      if (!desc?.configurable) continue;
      if (typeof desc.value === "function") desc.value = wrapFn(desc.value, state);
      else if (desc.get || desc.set) {
        if (desc.get) desc.get = wrapFn(desc.get, state);
        if (desc.set) desc.set = wrapFn(desc.set, state);
      } else continue;
      Object.defineProperty(target, key, desc);
    }
  }
  const proxy = new Proxy(cls, {
    construct(target, args, newTarget) {
      if (state.failure !== null) throw failedError(state);
      try {
        return Reflect.construct(target, args, newTarget);
      } catch (e) {
        throw settle(state, e);
      }
    },
  });
  Object.defineProperty(cls.prototype, "constructor", { value: proxy, writable: true, configurable: true });
  return proxy;
}
/**
 * The bounded-code compiler (a second wasm module) for one bindings module,
 * loaded at most once: `load()` returns its `compile` function (Node, sync)
 * or a Promise of it (browsers). `ensure()` returns nothing once loaded or a
 * Promise while loading; a failed load may be retried and surfaces as
 * `code.unavailable`.
 */
function codeLoader(bindings, load) {
  let pending = null;
  const unavailable = (e) =>
    new HolarynError(`the bounded-code module could not be loaded: ${e?.message ?? e}`, "code.unavailable");
  const ready = () => typeof bindings.hasCodeCompiler === "function" && bindings.hasCodeCompiler();
  return {
    ready,
    ensure() {
      if (ready() || !load) return undefined;
      if (pending) return pending;
      let got;
      try {
        got = load();
      } catch (e) {
        throw unavailable(e);
      }
      if (!(got instanceof Promise)) {
        bindings.setCodeCompiler(got);
        return undefined;
      }
      pending = got.then(
        (compile) => bindings.setCodeCompiler(compile),
        (e) => {
          pending = null;
          throw unavailable(e);
        },
      );
      return pending;
    },
  };
}

/** Methods that may run bounded code: they wait for the code module first. */
const CODE_METHODS = ["call", "dispatch", "dispatchModelCall"];

/**
 * Patch createSession (start loading the code module for a session with
 * bounded code mode) and the async session methods (wait for it).
 */
function loadCodeOnDemand(bindings, loader) {
  const codeMode = (session) => {
    try {
      return session.boundedCodeMode === true;
    } catch {
      return false; // a closed session: the method itself reports it
    }
  };
  const rt = bindings.HolarynRuntime.prototype;
  const create = rt.createSession;
  rt.createSession = function (...args) {
    const session = create.apply(this, args);
    if (codeMode(session)) {
      try {
        loader.ensure()?.catch(() => {}); // the first call reports a failure
      } catch {
        // Node: reported by the first call, which tries again
      }
    }
    return session;
  };
  const proto = bindings.HolarynSession.prototype;
  for (const name of CODE_METHODS) {
    const method = proto[name];
    proto[name] = function (...args) {
      if (loader.ready() || !codeMode(this)) return method.apply(this, args);
      let waiting;
      try {
        waiting = loader.ensure();
      } catch (e) {
        return Promise.reject(e);
      }
      return waiting ? waiting.then(() => method.apply(this, args)) : method.apply(this, args);
    };
  }
}

/** Build the public API from wasm-bindgen bindings (`loadCode`: see `codeLoader`). */
export function expose(bindings, loadCode) {
  const api = {};
  // One health record per instance (both classes share its memory).
  const state = proxyOf.get(bindings) ?? health();
  proxyOf.set(bindings, state);
  const loader = codeLoader(bindings, loadCode);
  // Idempotent: the same bindings module may be exposed twice.
  if (!proxyOf.has(bindings.HolarynRuntime)) {
    loadCodeOnDemand(bindings, loader);
    packSearches(bindings);
  }
  for (const name of ["HolarynRuntime", "HolarynSession"]) {
    const cls = bindings[name];
    if (!proxyOf.has(cls)) proxyOf.set(cls, wrapClass(cls, state));
    api[name] = proxyOf.get(cls);
  }
  api.loadCode = () => Promise.resolve(loader.ensure());
  return api;
}
