//! Holaryn core: the sans-IO heart of the capability runtime.
//!
//! No IO happens here: no clock, no randomness, no threads, no host calls.
//! Registry, policy, ranking, sessions, the execution gate and the bounded-code
//! interpreter are plain data and state machines. Where work needs the host
//! (approval, executing a tool, time, randomness for handle secrets), the core
//! returns an effect and the host resumes it with the answer.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// `Error` carries its location (file, pointer, line:column, suggestions) inline;
// errors are the cold path, so the size of `Result` is an accepted cost.
#![allow(clippy::result_large_err)]

pub mod activity;
pub mod args;
pub mod availability;
pub mod builtin;
pub mod catalog;
pub mod code;
pub mod codes;
pub mod config;
pub mod descriptor;
pub mod discovery;
pub mod embeddings;
pub mod error;
pub mod formats;
pub mod gate;
pub mod handle;
pub mod hash;
pub mod inspect;
pub mod json_size;
pub mod names;
pub mod policy;
pub mod registry;
pub mod runtime;
pub mod schema_check;
pub mod schemas;
pub mod search;
pub mod semantic;
pub mod session;
pub mod validate;
pub mod version_tree;

pub use codes::Code;
pub use descriptor::{Source, ToolDescriptor, ToolSpec};
pub use error::{Error, ErrorCode, Result};
pub use registry::{Registry, RegistryChange};
pub use runtime::{Event, Runtime};
