//! The crate's hash map: looked up for every request word (term ids,
//! lexicon and relatedness entries, names, mentions, providers), so keyed
//! with foldhash's fast per-map seed instead of SipHash. No ranking reads a
//! map's order.

/// A hash map keyed with foldhash's fast hasher.
pub(crate) type Map<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
