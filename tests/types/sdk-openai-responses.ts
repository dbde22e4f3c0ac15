// The first OpenAI Responses loop lives in tests/agent-loops/openai-responses.ts (run there
// against a scripted model); importing it here type-checks it with the rest. Then the per-format
// shapes and the SDK's own types are assignable where values cross.
import type OpenAI from "openai";
import type {
  HolarynSession,
  OpenAIResponsesFunctionCall,
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesTool,
} from "holaryn";
import { loop } from "../agent-loops/openai-responses.js";

// The loop as a user calls it.
export const firstLoop: (client: OpenAI, session: HolarynSession, prompt: string) => Promise<string> = loop;

declare const sdkCall: OpenAI.Responses.ResponseFunctionToolCall;
declare const tool: OpenAIResponsesTool;
declare const result: OpenAIResponsesFunctionCallOutput;
export const call: OpenAIResponsesFunctionCall = sdkCall;
export const asSdkTool: OpenAI.Responses.FunctionTool = tool;
export const asSdkToolUnion: OpenAI.Responses.Tool = tool;
export const asSdkResult: OpenAI.Responses.ResponseInputItem.FunctionCallOutput = result;
export const asSdkInput: OpenAI.Responses.ResponseInputItem = result;
