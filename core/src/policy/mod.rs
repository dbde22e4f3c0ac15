//! Policy: decides, for every tool in every session, what the model may see
//! and do, and says why.
//!
//! Four scopes, in order, each able only to narrow:
//!
//! 1. [`Scope::Provider`]: a tool whose descriptor is `hidden`, or whose
//!    provider the host hides from the session.
//! 2. [`Scope::Profile`]: the agent profile's `allowed_tools` ceiling
//!    (omitted = every tool).
//! 3. [`Scope::Session`]: the host's session rules `{allow, deny}`.
//! 4. [`Scope::Project`]: the project file `.holaryn/tool-policy.json`
//!    (`{allow, deny}`, data only; see [`parse_policy_file`]).
//!
//! Scopes 1–2 *hide* a tool (the model never learns of it); scopes 3–4
//! *deny* it (it stays listed, with the scope and rule that denied it). The
//! first scope that narrows decides. Within a scope deny wins over allow; an
//! omitted `allow` permits every otherwise permitted tool and an empty
//! `allow` permits none. No scope can widen: a later `allow` never brings
//! back what an earlier scope removed. The three [`DISCOVERY_TOOLS`] are not
//! registry tools and are always allowed whatever the rules say.
//!
//! Entry grammar and what an entry is compared with: see [`pattern`].
//!
//! **Evaluation.** [`Policy::evaluate`] scans each scope's entries in order
//! without allocating; it is fine for the handful of entries real policies
//! have. For bulk work (a search over thousands of tools) build a
//! [`CompiledPolicy`] once with [`Policy::compile`]: exact names go into hash
//! maps, prefixes into a list. Both give identical decisions (a property test
//! checks it), including which rule is reported (the first in list order).
//! Aliases are matched against each tool's own alias list rather than by
//! resolving entries through the registry at compile time, which is
//! equivalent (an alias belongs to exactly one tool) and means a compiled
//! policy never goes stale when the catalog changes; recompile only when the
//! rules change.

mod compiled;
mod decide;
pub mod pattern;
mod rules;
mod warnings;

pub use compiled::CompiledPolicy;
pub use decide::{Decision, Policy, Scope};
pub use pattern::Pattern;
pub use rules::{parse_patterns, parse_policy_file, Rules, POLICY_SCHEMA};
pub use warnings::PolicyWarning;
