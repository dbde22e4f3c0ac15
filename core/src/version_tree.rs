//! The tools part of the registry version: a SHA-256 hash tree over every
//! tool's (name, version) leaf, updated in O(changed tools × depth).
//!
//! A tool's bucket is the first 16 bits of SHA-256 of its name. A bucket's
//! digest covers its leaves in name order; each inner node (16-ary, four
//! levels) covers its present children with their nibble; the root covers
//! the top level. Equal content gives an equal root whatever order it was
//! registered in, and any change to a name or version changes the root.
//! Only the buckets a change touches, and their ancestors, are re-hashed.

use holaryn_model::{sha256, Blob};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Levels of 4 bits each between the root and the buckets.
const DEPTH: u32 = 4;

/// The hash tree; [`VersionTree::root`] brings it up to date. A snapshot
/// keeps its digests (`TreeImage`): a restore re-hashes nothing.
#[derive(Debug, Clone, Default)]
pub struct VersionTree {
    /// Bucket → name → leaf digest.
    buckets: HashMap<u16, BTreeMap<String, [u8; 32]>>,
    /// Per level (1 = just below the root, `DEPTH` = buckets): prefix → digest.
    nodes: [HashMap<u16, [u8; 32]>; DEPTH as usize],
    /// Buckets changed since the last [`VersionTree::root`].
    dirty: BTreeSet<u16>,
    root: [u8; 32],
}

/// A clean tree as a snapshot keeps it (`core/src/snapshot`): per tool (in
/// the registry's name order, names kept by the registry) its bucket and
/// leaf digest, per level every node's prefix and digest, and the root.
#[derive(Debug, Clone, Default)]
pub(crate) struct TreeImage {
    leaves: Blob,
    /// One per level.
    nodes: Vec<Blob>,
    root: Blob,
}

holaryn_model::packed!(TreeImage {
    leaves,
    nodes,
    root
});

/// `key` (LE) then `digest`.
fn put(out: &mut Blob, key: u16, digest: &[u8; 32]) {
    out.0.extend_from_slice(&key.to_le_bytes());
    out.0.extend_from_slice(digest);
}

/// The next `key` and digest of a [`put`] sequence.
fn next(r: &mut holaryn_model::Reader) -> Option<(u16, [u8; 32])> {
    let key = r.take(2)?;
    let mut digest = [0u8; 32];
    digest.copy_from_slice(r.take(32)?);
    Some((u16::from_le_bytes([key[0], key[1]]), digest))
}

impl VersionTree {
    /// The tree as a snapshot keeps it, its leaves in the order of `names`
    /// (every tool in it, each once); `None` when a name has no leaf or the
    /// tree has changes not hashed yet (the registry hashes every change).
    pub(crate) fn image<'a>(&self, names: impl Iterator<Item = &'a str>) -> Option<TreeImage> {
        if !self.dirty.is_empty() {
            return None;
        }
        let root = self.root;
        let at: HashMap<&str, (u16, &[u8; 32])> = (self.buckets.iter())
            .flat_map(|(b, leaves)| leaves.iter().map(move |(n, d)| (n.as_str(), (*b, d))))
            .collect();
        let mut leaves = Blob::default();
        for name in names {
            let (b, d) = at.get(name)?;
            put(&mut leaves, *b, d);
        }
        let nodes = (self.nodes.iter())
            .map(|level| {
                let mut out = Blob::default();
                for (k, d) in level {
                    put(&mut out, *k, d);
                }
                out
            })
            .collect();
        Some(TreeImage {
            leaves,
            nodes,
            root: Blob(root.to_vec()),
        })
    }

    /// True when the image has one leaf per tool of `count` and whole nodes
    /// (what a restore checks before it keeps the image unbuilt).
    pub(crate) fn fits(image: &TreeImage, count: usize) -> bool {
        image.leaves.0.len() == count * 34
            && image.nodes.len() == DEPTH as usize
            && image.nodes.iter().all(|n| n.0.len() % 34 == 0)
            && image.root.0.len() == 32
    }

    /// The tree an image keeps, with the names its leaves are in order of;
    /// `None` when the image does not fit them.
    pub(crate) fn from_image<'a>(
        image: &TreeImage,
        names: impl Iterator<Item = &'a str>,
    ) -> Option<VersionTree> {
        let mut tree = VersionTree::default();
        let mut r = image.leaves.reader();
        for name in names {
            let (b, d) = next(&mut r)?;
            tree.buckets
                .entry(b)
                .or_default()
                .insert(name.to_string(), d);
        }
        if !r.done() {
            return None;
        }
        if image.nodes.len() != DEPTH as usize {
            return None;
        }
        for (level, blob) in image.nodes.iter().enumerate() {
            let mut r = blob.reader();
            while !r.done() {
                let (k, d) = next(&mut r)?;
                tree.nodes[level].insert(k, d);
            }
        }
        tree.root.copy_from_slice(image.root.0.get(..32)?);
        Some(tree)
    }
}

fn bucket_of(name: &str) -> u16 {
    let h = sha256(name.as_bytes());
    u16::from_be_bytes([h[0], h[1]])
}

fn leaf(name: &str, version: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update((name.len() as u64).to_be_bytes());
    h.update(name.as_bytes());
    h.update(version.as_bytes());
    h.finalize().into()
}

impl VersionTree {
    /// An empty tree.
    pub fn new() -> Self {
        let mut t = VersionTree::default();
        t.root = t.compute_root();
        t
    }

    /// Set (or replace) a tool's version.
    pub fn set(&mut self, name: &str, version: &str) {
        let b = bucket_of(name);
        self.buckets
            .entry(b)
            .or_default()
            .insert(name.to_string(), leaf(name, version));
        self.dirty.insert(b);
    }

    /// Remove a tool.
    pub fn remove(&mut self, name: &str) {
        let b = bucket_of(name);
        if let Some(bucket) = self.buckets.get_mut(&b) {
            bucket.remove(name);
            if bucket.is_empty() {
                self.buckets.remove(&b);
            }
        }
        self.dirty.insert(b);
    }

    /// The root digest over every tool, re-hashing only what changed.
    pub fn root(&mut self) -> [u8; 32] {
        if self.dirty.is_empty() {
            return self.root;
        }
        let mut changed: BTreeSet<u16> = std::mem::take(&mut self.dirty);
        let buckets = &self.buckets;
        let bottom = &mut self.nodes[DEPTH as usize - 1];
        for b in &changed {
            match buckets.get(b) {
                Some(leaves) => {
                    let mut h = Sha256::new();
                    h.update([0u8]);
                    for digest in leaves.values() {
                        h.update(digest);
                    }
                    bottom.insert(*b, h.finalize().into());
                }
                None => {
                    bottom.remove(b);
                }
            }
        }
        for level in (1..DEPTH).rev() {
            changed = changed.iter().map(|k| k >> 4).collect();
            let (upper, lower) = self.nodes.split_at_mut(level as usize);
            let (parents, children) = (&mut upper[level as usize - 1], &lower[0]);
            for p in &changed {
                match node_digest(*p, children) {
                    Some(d) => parents.insert(*p, d),
                    None => parents.remove(p),
                };
            }
        }
        self.root = self.compute_root();
        self.root
    }

    fn compute_root(&self) -> [u8; 32] {
        node_digest(0, &self.nodes[0]).unwrap_or_else(|| sha256(&[2]))
    }
}

/// Digest of the node `prefix` over its present children (`prefix << 4 | nibble`).
fn node_digest(prefix: u16, children: &HashMap<u16, [u8; 32]>) -> Option<[u8; 32]> {
    let mut h = Sha256::new();
    h.update([1u8]);
    let mut any = false;
    for nibble in 0..16u16 {
        if let Some(d) = children.get(&(prefix << 4 | nibble)) {
            h.update([nibble as u8]);
            h.update(d);
            any = true;
        }
    }
    any.then(|| h.finalize().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_does_not_matter_and_every_change_shows() {
        let mut a = VersionTree::new();
        let mut b = VersionTree::new();
        let empty = a.root();
        for i in 0..500 {
            a.set(&format!("t{i}"), "v1");
        }
        for i in (0..500).rev() {
            b.set(&format!("t{i}"), "v1");
        }
        assert_eq!(a.root(), b.root());
        let before = a.root();
        a.set("t7", "v2");
        assert_ne!(a.root(), before);
        a.set("t7", "v1");
        assert_eq!(a.root(), before);
        a.remove("t7");
        assert_ne!(a.root(), before);
        for i in 0..500 {
            a.remove(&format!("t{i}"));
        }
        assert_eq!(a.root(), empty);
    }
}
