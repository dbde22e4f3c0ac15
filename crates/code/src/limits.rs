//! Bounded-code limits: the maxima, the defaults and a host's per-session request.
//!
//! Every limit is explicit and reported in each result. Hosts may choose any
//! value from 1 up to [`CodeLimits::MAX`] per session; nothing can raise a
//! limit past the maximum. A request above the maximum, or of 0, is refused
//! with `session.invalid_options` (it is a session option, checked when the
//! session is created, before any program exists), naming the field in
//! `codeLimits.<field>` form.

use crate::located::located;
use holaryn_model::{Error, ErrorCode, Result};
use serde::{Deserialize, Serialize};

/// The limits in force for one bounded-code run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CodeLimits {
    /// Most `call(...)` sites in a program, and most calls started in a run.
    pub max_calls: u32,
    /// Wall time for the whole run, in ms of host time.
    pub timeout_ms: u64,
    /// Most bytes of serialised JSON output retained in names or returned;
    /// also the most bytes of earlier results one call may pass on (each
    /// use of a name counts).
    pub max_output_bytes: u64,
    /// Most bytes of program source (UTF-8).
    pub max_source_bytes: u32,
    /// Most syntax nodes (what counts as one: `check.rs`).
    pub max_nodes: u32,
}

/// A host's lowered limits: every field optional; omitted fields keep the base.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LimitsRequest {
    /// Requested `maxCalls` (1..=16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_calls: Option<u32>,
    /// Requested `timeoutMs` (1..=30000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// Requested `maxOutputBytes` (1..=65536).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_output_bytes: Option<u64>,
    /// Requested `maxSourceBytes` (1..=16384).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_source_bytes: Option<u32>,
    /// Requested `maxNodes` (1..=256).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_nodes: Option<u32>,
}

/// Source size, checked first (by the compiler and again by the core):
/// more than `maxSourceBytes` UTF-8 bytes is `code.limit` at the first byte past it.
pub fn check_source_size(source: &str, limits: &CodeLimits) -> Result<()> {
    let max_bytes = limits.clamped().max_source_bytes as usize;
    if source.len() <= max_bytes {
        return Ok(());
    }
    let mut at = max_bytes;
    while at > 0 && !source.is_char_boundary(at) {
        at -= 1;
    }
    let msg = format!(
        "source size: the program is {} bytes; the limit is {} bytes",
        source.len(),
        max_bytes
    );
    Err(located(ErrorCode::CodeLimit, msg, source, at))
}

impl CodeLimits {
    /// The hard maxima: 16 calls, 30 s, 64 KiB output, 16 KiB source, 256 nodes.
    pub const MAX: CodeLimits = CodeLimits {
        max_calls: 16,
        timeout_ms: 30_000,
        max_output_bytes: 64 * 1024,
        max_source_bytes: 16 * 1024,
        max_nodes: 256,
    };

    /// The call cap, the one check for both the program's call sites
    /// (compile) and the calls a run starts: true when `count` calls fit.
    pub fn allows_calls(&self, count: u32) -> bool {
        count <= self.max_calls
    }

    /// The defaults: 8 calls, 20 s, 32 KiB output, 16 KiB source, 256 nodes.
    pub fn defaults() -> CodeLimits {
        CodeLimits {
            max_calls: 8,
            timeout_ms: 20_000,
            max_output_bytes: 32 * 1024,
            max_source_bytes: 16 * 1024,
            max_nodes: 256,
        }
    }

    /// Apply a host request on top of `self`: each given field replaces the
    /// base value and must be in `1..=MAX`; above the maximum or 0 is
    /// `session.invalid_options`. The result never exceeds [`CodeLimits::MAX`].
    pub fn lowered(&self, req: &LimitsRequest) -> Result<CodeLimits> {
        let max = CodeLimits::MAX;
        let base = self.clamped();
        Ok(CodeLimits {
            max_calls: pick("maxCalls", req.max_calls, base.max_calls, max.max_calls)?,
            timeout_ms: pick("timeoutMs", req.timeout_ms, base.timeout_ms, max.timeout_ms)?,
            max_output_bytes: pick(
                "maxOutputBytes",
                req.max_output_bytes,
                base.max_output_bytes,
                max.max_output_bytes,
            )?,
            max_source_bytes: pick(
                "maxSourceBytes",
                req.max_source_bytes,
                base.max_source_bytes,
                max.max_source_bytes,
            )?,
            max_nodes: pick("maxNodes", req.max_nodes, base.max_nodes, max.max_nodes)?,
        })
    }

    /// Each field capped at [`CodeLimits::MAX`] (for limits built by hand).
    pub fn clamped(&self) -> CodeLimits {
        let max = CodeLimits::MAX;
        CodeLimits {
            max_calls: self.max_calls.min(max.max_calls),
            timeout_ms: self.timeout_ms.min(max.timeout_ms),
            max_output_bytes: self.max_output_bytes.min(max.max_output_bytes),
            max_source_bytes: self.max_source_bytes.min(max.max_source_bytes),
            max_nodes: self.max_nodes.min(max.max_nodes),
        }
    }
}

impl Default for CodeLimits {
    fn default() -> Self {
        CodeLimits::defaults()
    }
}

/// One field of [`CodeLimits::lowered`]: the request if valid, else the base.
fn pick<T>(name: &str, requested: Option<T>, base: T, max: T) -> Result<T>
where
    T: Copy + PartialOrd + Default + std::fmt::Display,
{
    match requested {
        None => Ok(base),
        Some(v) if v == T::default() => Err(invalid(name, format!("{name} must be at least 1"))),
        Some(v) if v > max => Err(invalid(
            name,
            format!("{name} is {v}; hosts may lower it but never raise it past {max}"),
        )),
        Some(v) => Ok(v),
    }
}

fn invalid(name: &str, message: String) -> Error {
    Error::new(ErrorCode::SessionInvalidOptions, message).with_field(format!("codeLimits.{name}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_within_range_is_applied_and_omitted_fields_keep_the_base() {
        let req = LimitsRequest {
            max_calls: Some(16),
            timeout_ms: Some(5),
            ..LimitsRequest::default()
        };
        let got = CodeLimits::defaults().lowered(&req);
        assert_eq!(
            got.ok(),
            Some(CodeLimits {
                max_calls: 16,
                timeout_ms: 5,
                ..CodeLimits::defaults()
            })
        );
    }

    #[test]
    fn zero_and_above_max_are_refused() {
        for req in [
            LimitsRequest {
                max_calls: Some(17),
                ..LimitsRequest::default()
            },
            LimitsRequest {
                max_nodes: Some(0),
                ..LimitsRequest::default()
            },
            LimitsRequest {
                max_output_bytes: Some(65_537),
                ..LimitsRequest::default()
            },
        ] {
            let err = CodeLimits::defaults().lowered(&req).err();
            assert_eq!(err.map(|e| e.code), Some(ErrorCode::SessionInvalidOptions));
        }
    }

    #[test]
    fn hand_built_limits_are_clamped() {
        let big = CodeLimits {
            max_calls: 1000,
            timeout_ms: u64::MAX,
            max_output_bytes: u64::MAX,
            max_source_bytes: u32::MAX,
            max_nodes: u32::MAX,
        };
        assert_eq!(big.clamped(), CodeLimits::MAX);
    }
}
