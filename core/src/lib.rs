//! Holaryn core: the sans-IO heart of the capability runtime.
//!
//! No IO happens here: no clock, no randomness, no threads, no host calls.
//! Registry, policy, ranking, sessions, the execution gate and the bounded-code
//! interpreter are plain data and state machines. Where work needs the host
//! (approval, executing a tool, time, randomness for handle secrets), the core
//! returns an effect and the host resumes it with the answer.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod catalog;
pub mod descriptor;
pub mod error;
pub mod hash;
pub mod registry;
pub mod validate;

pub use descriptor::{Source, ToolDescriptor, ToolSpec};
pub use error::{Error, ErrorCode, Result};
pub use registry::{Registry, RegistryChange};
