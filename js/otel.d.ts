import type { Attributes, Tracer } from "@opentelemetry/api";
import type { ActivityRecord, HolarynRuntime } from "./index.d.ts";

/** Turn every activity record of `runtime` into a span (`execute_tool {tool}` for calls, else `holaryn.{kind}`). */
export function instrumentActivity(runtime: HolarynRuntime, options?: { tracer?: Tracer }): { stop(): void };
/** The attributes of a record's span: GenAI tool-execution attributes plus `holaryn.*`; never arguments or outputs. */
export function spanAttributes(record: ActivityRecord): Attributes;
/** The span name of a record. */
export function spanName(record: ActivityRecord): string;
