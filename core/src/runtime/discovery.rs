//! The discovery tools: `tool_search`, `tool_list`, `tool_inspect`, plus the
//! session's model-visible tool list, its byte footprint and the Capability
//! Center table.
//!
//! Search and list are schema-free. Inspect loads an exact schema and issues
//! a handle when policy permits; none of them grants permission to execute.

use super::api::{
    bad_input, bounded, parse_input, search_input, search_limit, ListInput, ListOutput,
    SearchInput, SearchOutput, ToolSummary, LIST_DEFAULT, LIST_MAX, NOTHING_FITS_RESULTS,
};
use super::search_view::{owned, with_answer, Answer, SearchView, SummaryView};
use super::{unknown_session, Runtime};
use crate::activity::{ActivityKind, ActivityRecord};
use crate::availability::AvailabilityState;
use crate::session::Session;
use holaryn_model::Result;
use holaryn_model::ToolDescriptor;
use holaryn_model::{hex, unhex};
use holaryn_search::{SearchHit, SearchIndex};

use serde_json::Value;
use std::borrow::Cow;

/// The hint when nothing fits: how to browse instead of guessing.
fn nothing_fits_hint(index: &SearchIndex, weak: &[SearchHit]) -> String {
    let mut providers: Vec<&str> = Vec::new();
    for h in weak {
        if let Some(t) = index.tool(h.doc) {
            if !providers.contains(&t.provider.id.as_str()) {
                providers.push(&t.provider.id);
            }
        }
    }
    let mut hint = String::from(
        "No tool clearly fits this request. Rephrase it in the words a tool would use \
         (pass other phrasings in `alternatives`), or browse with tool_list \
         (filter by `provider` or `source`)",
    );
    if !providers.is_empty() {
        hint.push_str(&format!(
            "; the closest weak matches came from: {}",
            providers.join(", ")
        ));
    }
    hint.push('.');
    hint
}

impl Runtime {
    /// A tool's schema-free descriptor in `session`, borrowed: its summary
    /// parts, why and call name as given (`state` when the search already read it).
    fn summary_view<'a>(
        &self,
        session: &Session,
        tool: &'a ToolDescriptor,
        (summary, summary_cut): (&'a str, bool),
        why: &'a [String],
        state: Option<AvailabilityState>,
        call_name: Option<Cow<'a, str>>,
    ) -> SummaryView<'a> {
        let state = state.unwrap_or_else(|| self.state_of(session, tool));
        SummaryView {
            name: &tool.name,
            title: &tool.title,
            summary,
            summary_cut,
            source: tool.source,
            provider: &tool.provider.id,
            state,
            permissions: &tool.permissions,
            trust: tool.trust,
            schema_loaded: state == AvailabilityState::Loaded,
            why,
            call_name,
        }
    }

    /// `tool_search`: at most 8 ranked, schema-free descriptors (lexical
    /// ranking; [`Runtime::search_step`] adds the host embedder).
    pub fn tool_search(&mut self, sid: &str, input: &Value, now_ms: u64) -> Result<SearchOutput> {
        let (input, limit) = search_input(input)?;
        with_answer(
            || unknown_session(sid),
            owned,
            |w| self.search_read(sid, &input, limit, now_ms, w),
        )
    }

    /// [`Runtime::tool_search`] of the input `{"query": query}`, without a
    /// JSON value to read (the same checks, answer and refusals).
    pub fn tool_search_query(
        &mut self,
        sid: &str,
        query: String,
        now_ms: u64,
    ) -> Result<SearchOutput> {
        self.tool_search_query_view(sid, query, now_ms, owned)
    }

    /// [`Runtime::tool_search_query`] with its answer borrowed from the
    /// runtime and handed to `f` (a writer that packs it needs no owned
    /// copy of every result's strings).
    pub fn tool_search_query_view<R>(
        &mut self,
        sid: &str,
        query: String,
        now_ms: u64,
        f: impl FnOnce(&SearchView<'_>) -> R,
    ) -> Result<R> {
        let input = SearchInput {
            query,
            ..SearchInput::default()
        };
        let limit = search_limit(&input)?;
        with_answer(
            || unknown_session(sid),
            f,
            |w| self.search_read(sid, &input, limit, now_ms, w),
        )
    }

    /// `tool_search` of a read and checked input, its answer handed to `f`.
    fn search_read(
        &mut self,
        sid: &str,
        input: &SearchInput,
        limit: usize,
        now_ms: u64,
        f: Answer<'_>,
    ) -> Result<()> {
        // Each accepted tool's state, kept for its summary: policy is read
        // once per result, not once to filter and again to describe it.
        let states = std::cell::RefCell::new(Vec::with_capacity(limit));
        let hits = {
            let session = self.sessions.get(sid).ok_or_else(|| unknown_session(sid))?;
            let accept = |doc: usize| match self.accepted_state(session, input, doc) {
                Some(state) => {
                    states.borrow_mut().push((doc, state));
                    true
                }
                None => false,
            };
            self.index.search_all(&input.phrasings(), limit, &accept)
        };
        let states = states.into_inner();
        self.finish_search(sid, hits.hits, hits.nothing_fits, now_ms, &states, f)
    }

    /// The state of the tool in `doc` when [`Runtime::search_filter`] accepts it.
    fn accepted_state(
        &self,
        session: &Session,
        input: &SearchInput,
        doc: usize,
    ) -> Option<AvailabilityState> {
        let tool = self.index.tool(doc)?;
        if input.source.is_some_and(|s| s != tool.source)
            || input
                .provider
                .as_ref()
                .is_some_and(|p| *p != tool.provider.id)
        {
            return None;
        }
        let decision = self.decide(session, tool);
        if matches!(decision, crate::policy::Decision::Hidden { .. }) {
            return None;
        }
        let state = self.state_given(session, tool, &decision);
        match input.state {
            None => Some(state),
            Some(want) => (state != AvailabilityState::Hidden && state == want).then_some(state),
        }
    }

    /// Which index documents a search may return: the input's source,
    /// provider and state filters, and never a hidden tool.
    pub(crate) fn search_filter<'a>(
        &'a self,
        session: &'a Session,
        input: &'a SearchInput,
    ) -> impl Fn(usize) -> bool + 'a {
        move |doc: usize| self.accepted_state(session, input, doc).is_some()
    }

    /// Summaries for ranked hits, handed to `f`, and the activity record of the search.
    pub(crate) fn finish_search(
        &mut self,
        sid: &str,
        hits: Vec<SearchHit>,
        nothing_fits: bool,
        now_ms: u64,
        states: &[(usize, AvailabilityState)],
        f: Answer<'_>,
    ) -> Result<()> {
        let session = self.sessions.get(sid).ok_or_else(|| unknown_session(sid))?;
        let mut hits = hits;
        let hint = nothing_fits.then(|| {
            hits.truncate(NOTHING_FITS_RESULTS);
            nothing_fits_hint(&self.index, &hits)
        });
        // Only indexed tools have a summary (the rest cannot be described).
        hits.retain(|h| self.index.tool(h.doc).is_some());
        // The record first: it needs the runtime mutably, the answer borrows it.
        let rec = ActivityRecord {
            count: Some(hits.len() as u64),
            ..ActivityRecord::new(
                ActivityKind::Search,
                session.version(),
                holaryn_model::Code::Ok,
                "tool_search ran",
            )
        }
        .session(sid);
        self.record(rec, now_ms);
        let session = self.sessions.get(sid).ok_or_else(|| unknown_session(sid))?;
        // Every result's call name in one buffer (not a string each).
        let mut names = String::new();
        let spans: Vec<Option<std::ops::Range<usize>>> = hits
            .iter()
            .map(|h| {
                let tool = self.index.tool(h.doc)?;
                self.push_call_name(&tool.name, &mut names)
            })
            .collect();
        let results: Vec<SummaryView<'_>> = hits
            .iter()
            .zip(spans)
            .filter_map(|(h, span)| {
                let tool = self.index.tool(h.doc)?;
                let parts = self.index.summary_parts(h.doc)?;
                let state = states.iter().find(|(d, _)| *d == h.doc).map(|(_, s)| *s);
                let call_name = span.and_then(|r| names.get(r)).map(Cow::Borrowed);
                Some(self.summary_view(session, tool, parts, &h.why, state, call_name))
            })
            .collect();
        f(&SearchView {
            results,
            nothing_fits: hint.is_some(),
            hint: hint.as_deref(),
            registry_version: session.version(),
        });
        Ok(())
    }

    /// `tool_list`: a bounded, stable, filtered page.
    pub fn tool_list(&mut self, sid: &str, input: &Value, now_ms: u64) -> Result<ListOutput> {
        let input: ListInput = parse_input(holaryn_model::TOOL_LIST, input)?;
        let limit = bounded(input.limit, LIST_DEFAULT, LIST_MAX, "limit")?;
        let after = match &input.cursor {
            None => None,
            Some(c) => Some(
                c.strip_prefix("cur_")
                    .and_then(unhex)
                    .and_then(|b| String::from_utf8(b).ok())
                    .ok_or_else(|| {
                        bad_input("`cursor` is not a cursor this tool returned", "cursor")
                    })?,
            ),
        };
        let session = self.sessions.get(sid).ok_or_else(|| unknown_session(sid))?;
        let mut matching: Vec<&ToolDescriptor> = Vec::new();
        let mut tools: Vec<&std::sync::Arc<ToolDescriptor>> = self.index.tools().collect();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        for tool in tools {
            if input.source.is_some_and(|s| s != tool.source)
                || input
                    .provider
                    .as_ref()
                    .is_some_and(|p| *p != tool.provider.id)
            {
                continue;
            }
            let state = self.state_of(session, tool);
            // Hidden tools never reach the model; the Capability Center shows them.
            if state == AvailabilityState::Hidden || input.state.is_some_and(|s| s != state) {
                continue;
            }
            matching.push(tool);
        }
        let total = matching.len();
        let start = match &after {
            Some(name) => matching.partition_point(|t| t.name.as_str() <= name.as_str()),
            None => 0,
        };
        let page: Vec<&ToolDescriptor> = matching.iter().skip(start).take(limit).copied().collect();
        let next_cursor = if start + page.len() < total {
            page.last()
                .map(|t| format!("cur_{}", hex(t.name.as_bytes())))
        } else {
            None
        };
        let version = session.version().to_string();
        let tools: Vec<ToolSummary> = page
            .iter()
            .map(|t| {
                let call_name = self.call_name(&t.name).map(Cow::Owned);
                self.summary_view(session, t, t.summary_parts(), &[], None, call_name)
                    .to_owned()
            })
            .collect();
        let rec = ActivityRecord {
            count: Some(tools.len() as u64),
            ..ActivityRecord::new(
                ActivityKind::List,
                &version,
                holaryn_model::Code::Ok,
                "tool_list ran",
            )
        }
        .session(sid);
        self.record(rec, now_ms);
        Ok(ListOutput {
            tools,
            next_cursor,
            total,
            registry_version: version,
        })
    }
}
