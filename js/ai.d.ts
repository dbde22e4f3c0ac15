import type { ToolSet } from "ai";
import type { HolarynSession, Host } from "./index.d.ts";

/** A refused or failed gated call, as the AI SDK hands it to the model (`message`: the error JSON). */
export class HolarynToolError extends Error {
  /** The stable outcome code (`policy.denied`, `args.invalid`, ...). */
  code?: string;
  /** What the model can do next, when there is something. */
  nextAction?: string;
}
/** A ToolSet that follows one session, and what keeps it current. */
export interface HolarynTools {
  /** Pass as `tools`: the discovery tools, then every inspected tool (provider-safe names); updated in place. */
  tools: ToolSet;
  /** Pass as `activeTools` for the first step. */
  activeTools: string[];
  /** Pass as `prepareStep`: refreshes `tools` and returns the step's `activeTools`. */
  prepareStep: () => { activeTools: string[] };
  /** Refresh now; returns the active tool names. */
  refresh(): string[];
}
/** Vercel AI SDK tools for `session`; gated calls use `options.host` (`execute`, `approve`, ...). */
export function holarynTools(session: HolarynSession, options?: { host?: Host }): HolarynTools;
