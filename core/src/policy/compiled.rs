//! A precompiled policy for bulk evaluation.
//!
//! Each entry list becomes a [`Matcher`]: exact names in a hash map (keyed by
//! the name, and for entries containing `/` also by every `provider`/`local`
//! split so a tool's qualified name is looked up without building it), `*`
//! entries and prefixes in short lists. A lookup returns the *first* matching
//! entry in list order, so decisions and the reported rule are identical to
//! [`Policy::evaluate`](super::Policy::evaluate).

use super::decide::{decide, Decision, FirstMatch, Policy, Scope, ScopeRules};
use super::pattern::{Name, Pattern};
use super::rules::Rules;
use holaryn_model::ToolDescriptor;
use std::collections::{HashMap, HashSet};

/// One entry list, indexed.
#[derive(Debug, Clone, Default)]
pub(crate) struct Matcher {
    patterns: Vec<Pattern>,
    /// Indices of `*` / `source:*` entries, ascending.
    any: Vec<usize>,
    /// Indices of prefix entries, ascending.
    prefixes: Vec<usize>,
    /// Exact name → indices, ascending.
    exact: HashMap<String, Vec<usize>>,
    /// Exact names containing `/`, split as provider → local → indices.
    qualified: HashMap<String, HashMap<String, Vec<usize>>>,
}

impl Matcher {
    fn new(patterns: &[Pattern]) -> Matcher {
        let mut m = Matcher {
            patterns: patterns.to_vec(),
            ..Matcher::default()
        };
        for (i, p) in patterns.iter().enumerate() {
            match p.name() {
                Name::Any => m.any.push(i),
                Name::Prefix(_) => m.prefixes.push(i),
                Name::Exact(n) => {
                    m.index_exact(n, i);
                    // The same entry with its provider part slugged, as `Pattern::matches` reads it.
                    if let Some(Name::Exact(slugged)) = p.slugged_name() {
                        m.index_exact(slugged, i);
                    }
                }
            }
        }
        m
    }

    /// Index exact name `n` of entry `i` by name and by every `provider/local` split.
    fn index_exact(&mut self, n: &str, i: usize) {
        self.exact.entry(n.to_string()).or_default().push(i);
        for (at, _) in n.match_indices('/') {
            self.qualified
                .entry(n[..at].to_string())
                .or_default()
                .entry(n[at + 1..].to_string())
                .or_default()
                .push(i);
        }
    }

    /// Lowest index in `candidates` whose source fits the tool.
    fn first_fitting(&self, candidates: Option<&Vec<usize>>, tool: &ToolDescriptor) -> usize {
        candidates
            .and_then(|c| {
                c.iter()
                    .copied()
                    .find(|&i| self.patterns[i].source().is_none_or(|s| s == tool.source))
            })
            .unwrap_or(usize::MAX)
    }
}

impl FirstMatch for Matcher {
    fn first_match(&self, tool: &ToolDescriptor) -> Option<&Pattern> {
        let mut best = self.first_fitting(Some(&self.any), tool);
        if !self.exact.is_empty() {
            let names = std::iter::once(&tool.name).chain(&tool.aliases);
            for name in names {
                best = best.min(self.first_fitting(self.exact.get(name.as_str()), tool));
            }
            let by_local = self.qualified.get(tool.provider.id.as_str());
            let hits = by_local.and_then(|m| m.get(tool.local_name.as_str()));
            best = best.min(self.first_fitting(hits, tool));
        }
        for &i in self.prefixes.iter().take_while(|&&i| i < best) {
            if self.patterns[i].matches(tool) {
                best = i;
                break;
            }
        }
        self.patterns.get(best)
    }

    fn is_empty_list(&self) -> bool {
        self.patterns.is_empty()
    }
}

#[derive(Debug, Clone)]
struct CompiledRules {
    allow: Option<Matcher>,
    deny: Matcher,
}

impl CompiledRules {
    fn new(r: &Rules) -> CompiledRules {
        CompiledRules {
            allow: r.allow.as_deref().map(Matcher::new),
            deny: Matcher::new(&r.deny),
        }
    }

    fn scope(&self, scope: Scope) -> ScopeRules<'_, Matcher> {
        ScopeRules {
            scope,
            allow: self.allow.as_ref(),
            deny: &self.deny,
        }
    }
}

/// A [`Policy`] precompiled for fast, repeated evaluation.
#[derive(Debug, Clone)]
pub struct CompiledPolicy {
    hidden_providers: HashSet<String>,
    profile: Option<Matcher>,
    session: CompiledRules,
    project: Option<CompiledRules>,
    digest: String,
}

impl CompiledPolicy {
    /// Compile `policy` (same as [`Policy::compile`]).
    pub fn new(policy: &Policy) -> CompiledPolicy {
        CompiledPolicy {
            hidden_providers: policy.hidden_providers.iter().cloned().collect(),
            profile: policy.profile_allowed.as_deref().map(Matcher::new),
            session: CompiledRules::new(&policy.session),
            project: policy.project.as_ref().map(|(_, r)| CompiledRules::new(r)),
            digest: policy.digest(),
        }
    }

    /// Decide for one tool; identical to [`Policy::evaluate`].
    pub fn evaluate(&self, tool: &ToolDescriptor) -> Decision {
        decide(
            tool,
            self.hidden_providers.contains(tool.provider.id.as_str()),
            self.profile.as_ref(),
            [
                Some(self.session.scope(Scope::Session)),
                self.project.as_ref().map(|r| r.scope(Scope::Project)),
            ],
        )
    }

    /// The digest of the policy this was compiled from.
    pub fn digest(&self) -> &str {
        &self.digest
    }
}
