// Types of the holaryn package (Node and browser entries share them). The data types and
// classes come from wasm-bindgen's output for wasm/src (dist/web, the one build Node and
// browsers share; holaryn_wasm.api.d.ts is its .d.ts without the loader, see scripts/build.sh).
export type * from "../dist/web/holaryn_wasm.api.js";
export { HolarynRuntime, HolarynSession } from "../dist/web/holaryn_wasm.api.js";
import type { HolarynRuntime, HolarynSession } from "../dist/web/holaryn_wasm.api.js";
export type { OutcomeCode } from "./codes.js";

/** Base class of every error the runtime throws; `code` is stable (e.g. `handle.stale`). */
export class HolarynError extends Error {
  constructor(message: string, code?: string);
  /** The error family: `"PolicyError"`, `"HandleError"`, … */
  name: string;
  /** Stable machine-readable code, e.g. `policy.malformed`, `handle.forged`. */
  code: string;
  detail?: string;
  tool?: string;
  field?: string;
  file?: string;
  pointer?: string;
  line?: number;
  column?: number;
  suggestions?: string[];
  nextAction?: string;
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
// End of the generated error classes.
/** Re-parent a thrown runtime error onto its class. */
export function typed<T>(err: T): T;
/** Load the wasm. Required once in browsers and workers; a no-op in Node. */
export function init(input?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<void>;
/**
 * Load the bounded-code compiler (a second wasm) now. Optional: a session with
 * bounded code mode loads it before its first `call`/`dispatch`/`dispatchModelCall`
 * (sync in Node, fetched in browsers); pass `input` where the default URL
 * (dist/web/holaryn_code_bg.wasm next to the build) does not resolve.
 */
export function initCode(
  input?: string | URL | Request | Response | BufferSource | WebAssembly.Module,
): Promise<void> | void;
/** The two classes of one wasm-bindgen build. */
export interface HolarynBindings {
  HolarynRuntime: typeof HolarynRuntime;
  HolarynSession: typeof HolarynSession;
}
/** The bounded-code module's `compile(source, limitsJson)`, for {@link expose}. */
export type CodeCompile = (source: string, limits: string) => string;
/**
 * Wrap a wasm-bindgen build (`dist/web`) into the public classes: thrown errors typed,
 * a WebAssembly trap turned into `runtime.failed`, too little stack refused. The entries do this already;
 * it is for hosts that load the wasm themselves. `loadCode` returns the bounded-code module's
 * `compile` (or a Promise of it); sessions with bounded code mode call it once, on demand.
 * Idempotent per build.
 */
export function expose(
  bindings: HolarynBindings,
  loadCode?: () => CodeCompile | Promise<CodeCompile>,
): HolarynBindings & { loadCode(): Promise<void> };
