//! STUB
#![allow(missing_docs, dead_code, unused)]
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeLimits {
    pub max_calls: u32,
    pub timeout_ms: u64,
    pub max_output_bytes: u64,
    pub max_source_bytes: u32,
    pub max_nodes: u32,
}
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitsRequest {}
impl CodeLimits {
    pub fn defaults() -> CodeLimits {
        CodeLimits {
            max_calls: 8,
            timeout_ms: 20000,
            max_output_bytes: 32768,
            max_source_bytes: 16384,
            max_nodes: 256,
        }
    }
    pub fn lowered(&self, r: &LimitsRequest) -> Result<CodeLimits> {
        Ok(*self)
    }
}
pub struct Program;
pub fn compile(source: &str, limits: &CodeLimits) -> Result<Program> {
    Ok(Program)
}
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CodeStatus {
    Completed,
    Rejected,
    Denied,
    Failed,
    Cancelled,
    TimedOut,
    LimitExceeded,
}
impl CodeStatus {
    pub fn as_str(self) -> &'static str {
        "completed"
    }
}
#[derive(Debug, Clone, Serialize)]
pub struct CodeResult {
    pub status: CodeStatus,
}
pub struct CodeSummary {
    pub status: CodeStatus,
    pub calls_attempted: u32,
    pub output_bytes: u64,
    pub duration_ms: u64,
}
impl CodeResult {
    pub fn rejected(run_id: String, l: CodeLimits, e: &Error) -> CodeResult {
        CodeResult {
            status: CodeStatus::Rejected,
        }
    }
    pub fn summary(&self) -> CodeSummary {
        CodeSummary {
            status: self.status,
            calls_attempted: 0,
            output_bytes: 0,
            duration_ms: 0,
        }
    }
}
pub struct CodeRun;
#[derive(Debug)]
pub struct PendingCall {
    h: String,
    a: Value,
}
pub enum CodeStep {
    Call(PendingCall),
    Done(CodeResult),
}
impl CodeRun {
    pub fn start(p: Program, run_id: String, l: CodeLimits, now_ms: u64) -> CodeStep {
        CodeStep::Done(CodeResult {
            status: CodeStatus::Completed,
        })
    }
}
impl PendingCall {
    pub fn handle(&self) -> &str {
        &self.h
    }
    pub fn args(&self) -> &Value {
        &self.a
    }
    pub fn deadline_ms(&self) -> u64 {
        0
    }
    pub fn resume(self, o: CallOutcome, now_ms: u64) -> CodeStep {
        CodeStep::Done(CodeResult {
            status: CodeStatus::Completed,
        })
    }
    pub fn cancel(self, now_ms: u64) -> CodeResult {
        CodeResult {
            status: CodeStatus::Cancelled,
        }
    }
}
pub enum CallOutcome {
    Ok {
        tool: String,
        output: Value,
        duration_ms: u64,
    },
    Refused {
        tool: Option<String>,
        code: String,
        message: String,
    },
    Denied {
        tool: String,
        code: String,
        message: String,
    },
    Failed {
        tool: String,
        code: String,
        message: String,
        duration_ms: u64,
    },
    TimedOut {
        tool: String,
        duration_ms: u64,
    },
    Cancelled {
        tool: String,
        duration_ms: u64,
    },
    OutputTooLarge {
        tool: String,
        bytes: u64,
    },
}
