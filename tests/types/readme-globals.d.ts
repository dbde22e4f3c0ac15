// The names README.md's examples leave to the reader (scripts/readme-examples.mjs
// copies the examples verbatim into generated/). Module-level names of an
// example shadow these.
declare const githubToolsListJson: string;
declare function callTheTool(
  tool: string,
  args: import("holaryn").JsonValue,
  signal: AbortSignal,
): Promise<import("holaryn").JsonValue>;
declare function askTheUser(req: import("holaryn").ApprovalRequest): Promise<boolean>;
declare const rt: import("holaryn").HolarynRuntime;
declare const session: import("holaryn").HolarynSession;
declare const vectors: number[][];
