//! STUB
#![allow(missing_docs, dead_code, unused)]
use crate::descriptor::ToolDescriptor;
use std::sync::Arc;
#[derive(Debug)]
pub struct SearchIndex {
    n: usize,
}
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    pub doc: usize,
    pub score: f32,
    pub why: Vec<String>,
}
impl SearchIndex {
    pub fn build(tools: &[Arc<ToolDescriptor>]) -> SearchIndex {
        SearchIndex { n: tools.len() }
    }
    pub fn search(
        &self,
        query: &str,
        limit: usize,
        accept: &dyn Fn(usize) -> bool,
    ) -> Vec<SearchHit> {
        (0..self.n)
            .filter(|d| accept(*d))
            .take(limit)
            .map(|doc| SearchHit {
                doc,
                score: 1.0,
                why: vec![],
            })
            .collect()
    }
}
