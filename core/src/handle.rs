//! Opaque tool handles: `toolh_` + an unguessable token bound to one session,
//! one tool identity (name and descriptor version), one registry version and
//! one schema hash.
//!
//! A token is `hex(tag ‖ (epoch ‖ serial ‖ id) ⊕ mask)`: `id` is a digest of
//! the tool's name and descriptor version, `tag` an HMAC-SHA-256 of epoch,
//! serial and id, and `mask` an HMAC of the tag, both under the session's
//! secret (host-supplied random bytes; the core never generates randomness),
//! so the token looks random and leaks no counter. A token whose tag does not
//! verify was never issued by this session: *forged*. A verified token from an
//! earlier epoch was issued before the current registry version: *stale*. A
//! token whose `id` is not the identity of the binding it names is *forged*
//! too, so even two tables with the same secret (two runtimes given the same
//! explicit secret) can never turn a handle for one tool into another tool.
//! A registry change no longer clears the table: a handle is stale exactly
//! when its tool changed since the inspect that issued it (the runtime checks
//! that per tool, `Runtime::resolve_for`); [`HandleTable::clear`] still
//! starts a new epoch for a host that wants every handle gone.

use holaryn_model::HANDLE_PREFIX;
use holaryn_model::{ct_eq, hex, hmac_sha256, sha256, unhex};
use holaryn_model::{Error, ErrorCode, Result};
use std::collections::BTreeMap;

const TAG_BYTES: usize = 12;
const ID_BYTES: usize = 8;
const PAYLOAD_BYTES: usize = 8 + ID_BYTES;
const TOKEN_BYTES: usize = PAYLOAD_BYTES + TAG_BYTES;

/// Fewest secret bytes a host must supply.
pub const MIN_SECRET_BYTES: usize = 16;

/// What a handle is bound to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// Canonical tool name.
    pub tool: String,
    /// The tool's descriptor version at issue time.
    pub tool_version: String,
    /// Effective registry version at issue time (informational: staleness is per tool).
    pub registry_version: String,
    /// The tool's input-schema hash at issue time.
    pub schema_hash: String,
}

/// Per-session handle table.
#[derive(Clone)]
pub struct HandleTable {
    secret: Vec<u8>,
    epoch: u32,
    serial: u32,
    bindings: BTreeMap<String, Binding>,
    by_tool: BTreeMap<String, String>,
}

impl std::fmt::Debug for HandleTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HandleTable")
            .field("epoch", &self.epoch)
            .field("live", &self.bindings.len())
            .finish_non_exhaustive()
    }
}

impl HandleTable {
    /// A table keyed by host-supplied secret bytes (at least 16).
    pub fn new(secret: &[u8]) -> Result<Self> {
        if secret.len() < MIN_SECRET_BYTES {
            return Err(Error::new(
                ErrorCode::SessionInvalidOptions,
                format!(
                    "the session secret must be at least {MIN_SECRET_BYTES} random bytes, got {}",
                    secret.len()
                ),
            )
            .with_field("secret"));
        }
        Ok(HandleTable {
            secret: secret.to_vec(),
            epoch: 0,
            serial: 0,
            bindings: BTreeMap::new(),
            by_tool: BTreeMap::new(),
        })
    }

    /// A stable, non-secret id derived from the secret (for session ids).
    pub fn derived_id(&self, label: &str) -> String {
        hex(&hmac_sha256(&self.secret, label.as_bytes())[..8])
    }

    /// The current epoch (handles of earlier epochs are stale).
    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// Start at `epoch` (a runtime restored from a snapshot: every handle
    /// issued before it, in an earlier epoch, is stale); never goes back.
    pub fn start_at(&mut self, epoch: u32) {
        self.epoch = self.epoch.max(epoch);
    }

    /// Issue (or re-issue) the handle for a tool in the current epoch.
    pub fn issue(&mut self, binding: Binding) -> String {
        if let Some(h) = self.by_tool.get(&binding.tool) {
            if self.bindings.get(h) == Some(&binding) {
                return h.clone();
            }
        }
        self.serial = self.serial.wrapping_add(1);
        let mut payload = [0u8; PAYLOAD_BYTES];
        payload[..4].copy_from_slice(&self.epoch.to_be_bytes());
        payload[4..8].copy_from_slice(&self.serial.to_be_bytes());
        payload[8..].copy_from_slice(&identity(&binding));
        let tag = self.tag(&payload);
        // Tag first, then the payload masked with a key derived from the tag:
        // the whole token looks random and leaks no counter.
        let mask = self.mask(&tag);
        let mut token = tag.to_vec();
        token.extend(payload.iter().zip(mask).map(|(p, m)| p ^ m));
        let handle = format!("{HANDLE_PREFIX}{}", hex(&token));
        self.by_tool.insert(binding.tool.clone(), handle.clone());
        self.bindings.insert(handle.clone(), binding);
        handle
    }

    /// Check a handle: its binding, or `handle.forged` / `handle.stale`.
    pub fn check(&self, handle: &str) -> Result<&Binding> {
        let forged = || {
            Error::new(
                ErrorCode::HandleForged,
                "this handle was not issued by this session",
            )
            .with_next_action("call tool_inspect with the tool's name to get a handle")
        };
        let token = handle
            .strip_prefix(HANDLE_PREFIX)
            .and_then(unhex)
            .filter(|t| t.len() == TOKEN_BYTES)
            .ok_or_else(forged)?;
        let (tag, masked) = token.split_at(TAG_BYTES);
        let mask = self.mask(tag);
        let payload: Vec<u8> = masked.iter().zip(mask).map(|(p, m)| p ^ m).collect();
        if !ct_eq(&self.tag(&payload), tag) {
            return Err(forged());
        }
        let epoch = u32::from_be_bytes([payload[0], payload[1], payload[2], payload[3]]);
        if epoch < self.epoch {
            return Err(Error::new(
                ErrorCode::HandleStale,
                "this handle was issued before the tool registry changed",
            )
            .with_next_action("call tool_inspect again to get a current handle"));
        }
        let binding = self.bindings.get(handle).ok_or_else(forged)?;
        if !ct_eq(&identity(binding), &payload[8..]) {
            return Err(forged());
        }
        Ok(binding)
    }

    /// Invalidate every handle (a registry change).
    pub fn clear(&mut self) {
        self.epoch = self.epoch.saturating_add(1);
        self.bindings.clear();
        self.by_tool.clear();
    }

    /// The live handle of a tool, if one was issued this epoch.
    pub fn handle_for(&self, tool: &str) -> Option<&str> {
        self.by_tool.get(tool).map(String::as_str)
    }

    /// Number of live handles.
    pub fn live(&self) -> usize {
        self.bindings.len()
    }

    fn mask(&self, tag: &[u8]) -> [u8; PAYLOAD_BYTES] {
        let mut msg = b"holaryn-handle-mask-v2".to_vec();
        msg.extend_from_slice(tag);
        let mac = hmac_sha256(&self.secret, &msg);
        let mut m = [0u8; PAYLOAD_BYTES];
        m.copy_from_slice(&mac[..PAYLOAD_BYTES]);
        m
    }

    fn tag(&self, payload: &[u8]) -> [u8; TAG_BYTES] {
        let mut msg = b"holaryn-handle-v2".to_vec();
        msg.extend_from_slice(payload);
        let mac = hmac_sha256(&self.secret, &msg);
        let mut tag = [0u8; TAG_BYTES];
        tag.copy_from_slice(&mac[..TAG_BYTES]);
        tag
    }
}

/// The tool identity a handle carries: a digest of name and descriptor version.
fn identity(b: &Binding) -> [u8; ID_BYTES] {
    let mut msg = b"holaryn-handle-tool-v1\0".to_vec();
    msg.extend_from_slice(b.tool.as_bytes());
    msg.push(0);
    msg.extend_from_slice(b.tool_version.as_bytes());
    let digest = sha256(&msg);
    let mut id = [0u8; ID_BYTES];
    id.copy_from_slice(&digest[..ID_BYTES]);
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binding(tool: &str) -> Binding {
        Binding {
            tool: tool.into(),
            tool_version: "t1".into(),
            registry_version: "v1".into(),
            schema_hash: "s".into(),
        }
    }

    #[test]
    fn issued_handles_check_and_are_reused() {
        let mut t = HandleTable::new(&[7; 32]).expect("secret");
        let h = t.issue(binding("read_file"));
        assert!(h.starts_with("toolh_"));
        assert_eq!(t.issue(binding("read_file")), h);
        assert_eq!(t.check(&h).map(|b| b.tool.as_str()), Ok("read_file"));
    }

    #[test]
    fn other_sessions_handles_are_forged_and_old_ones_stale() {
        let mut a = HandleTable::new(&[1; 16]).expect("secret");
        let mut b = HandleTable::new(&[2; 16]).expect("secret");
        let ha = a.issue(binding("x"));
        let _ = b.issue(binding("x"));
        assert_eq!(
            b.check(&ha).err().map(|e| e.code),
            Some(ErrorCode::HandleForged)
        );
        a.clear();
        assert_eq!(
            a.check(&ha).err().map(|e| e.code),
            Some(ErrorCode::HandleStale)
        );
        for junk in ["", "toolh_", "toolh_zz", "toolh_00", "read_file"] {
            assert_eq!(
                a.check(junk).err().map(|e| e.code),
                Some(ErrorCode::HandleForged)
            );
        }
    }

    #[test]
    fn short_secrets_are_refused() {
        assert!(HandleTable::new(&[0; 15]).is_err());
    }
}
