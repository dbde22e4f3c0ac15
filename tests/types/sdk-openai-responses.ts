// The first OpenAI Responses loop lives in tests/agent-loops/openai-responses.ts (run there
// against a scripted model); importing it here type-checks it with the rest. Then the per-format
// shapes and the SDK's own types are assignable where values cross.
import type OpenAI from "openai";
import type { OpenAIResponsesFunctionCall, OpenAIResponsesFunctionCallOutput, OpenAIResponsesTool } from "holaryn";
export { loop } from "../agent-loops/openai-responses.js";

declare const sdkCall: OpenAI.Responses.ResponseFunctionToolCall;
declare const tool: OpenAIResponsesTool;
declare const result: OpenAIResponsesFunctionCallOutput;
export const call: OpenAIResponsesFunctionCall = sdkCall;
export const asSdkTool: OpenAI.Responses.FunctionTool = tool;
export const asSdkToolUnion: OpenAI.Responses.Tool = tool;
export const asSdkResult: OpenAI.Responses.ResponseInputItem.FunctionCallOutput = result;
export const asSdkInput: OpenAI.Responses.ResponseInputItem = result;
