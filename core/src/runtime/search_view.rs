//! A `tool_search` answer borrowed from the runtime: [`SearchOutput`]'s
//! fields without their copies, for a writer that packs them straight out
//! (the wasm's packed wire form) instead of building owned summaries first.
//!
//! [`SearchView::to_owned`] gives the [`SearchOutput`] `tool_search`
//! returns; [`SearchOutput::view`] borrows one back. Both carry the same
//! values, so any writer reads one answer whichever way it came.

use super::api::{SearchOutput, ToolSummary};
use crate::availability::AvailabilityState;
use holaryn_model::{Error, Result, Source, Trust};
use std::borrow::Cow;

/// Where a search writes its answer (not a type parameter: one copy of the
/// search code in the build, whatever its callers make of the answer).
pub(crate) type Answer<'f> = &'f mut dyn FnMut(&SearchView<'_>);

/// The owned answer of a borrowed one (one function for every caller).
pub(crate) fn owned(v: &SearchView<'_>) -> SearchOutput {
    v.to_owned()
}

/// What `f` makes of the answer `run` writes (`run` writes it once when it
/// succeeds; `missing` is the error when it wrote none).
pub(crate) fn with_answer<R>(
    missing: impl FnOnce() -> Error,
    f: impl FnOnce(&SearchView<'_>) -> R,
    run: impl FnOnce(Answer<'_>) -> Result<()>,
) -> Result<R> {
    let (mut f, mut out) = (Some(f), None);
    run(&mut |v| {
        if let Some(f) = f.take() {
            out = Some(f(v));
        }
    })?;
    out.ok_or_else(missing)
}

/// One result of a search, borrowed: [`ToolSummary`]'s fields.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryView<'a> {
    /// Canonical name.
    pub name: &'a str,
    /// Title.
    pub title: &'a str,
    /// The one-line summary's text (`...` follows when `summary_cut`).
    pub summary: &'a str,
    /// The summary was cut: its text ends with `...`.
    pub summary_cut: bool,
    /// Source.
    pub source: Source,
    /// Provider id.
    pub provider: &'a str,
    /// Availability state.
    pub state: AvailabilityState,
    /// Required permissions.
    pub permissions: &'a [String],
    /// Trust.
    pub trust: Trust,
    /// Whether its schema is loaded in this session.
    pub schema_loaded: bool,
    /// Which fields matched.
    pub why: &'a [String],
    /// The name a client calls it by (its wire name), when not `name`.
    pub call_name: Option<Cow<'a, str>>,
}

/// A search answer, borrowed: [`SearchOutput`]'s fields.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchView<'a> {
    /// Ranked results, best first.
    pub results: Vec<SummaryView<'a>>,
    /// True when no tool clears the bar of a real match.
    pub nothing_fits: bool,
    /// Where to look when nothing fits.
    pub hint: Option<&'a str>,
    /// The session's effective registry version.
    pub registry_version: &'a str,
}

impl SummaryView<'_> {
    /// The owned summary `tool_search` returns.
    pub fn to_owned(&self) -> ToolSummary {
        ToolSummary {
            name: self.name.to_string(),
            title: self.title.to_string(),
            summary: holaryn_model::summary_text(self.summary, self.summary_cut),
            source: self.source,
            provider: self.provider.to_string(),
            state: self.state,
            permissions: self.permissions.to_vec(),
            trust: self.trust,
            schema_loaded: self.schema_loaded,
            why: self.why.to_vec(),
            call_name: self.call_name.as_deref().map(str::to_string),
        }
    }
}

impl SearchView<'_> {
    /// The owned answer `tool_search` returns.
    pub fn to_owned(&self) -> SearchOutput {
        SearchOutput {
            results: self.results.iter().map(SummaryView::to_owned).collect(),
            nothing_fits: self.nothing_fits,
            hint: self.hint.map(str::to_string),
            registry_version: self.registry_version.to_string(),
        }
    }
}

impl ToolSummary {
    /// This summary, borrowed.
    pub fn view(&self) -> SummaryView<'_> {
        SummaryView {
            name: &self.name,
            title: &self.title,
            summary: &self.summary,
            summary_cut: false,
            source: self.source,
            provider: &self.provider,
            state: self.state,
            permissions: &self.permissions,
            trust: self.trust,
            schema_loaded: self.schema_loaded,
            why: &self.why,
            call_name: self.call_name.as_deref().map(Cow::Borrowed),
        }
    }
}

impl SearchOutput {
    /// This answer, borrowed.
    pub fn view(&self) -> SearchView<'_> {
        SearchView {
            results: self.results.iter().map(ToolSummary::view).collect(),
            nothing_fits: self.nothing_fits,
            hint: self.hint.as_deref(),
            registry_version: &self.registry_version,
        }
    }
}
