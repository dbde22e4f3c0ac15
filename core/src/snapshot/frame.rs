//! A snapshot's frame: magic, format version, the build that wrote it, the
//! payload, and an XXH64 checksum over everything before it.
//!
//! `magic (8) ‖ format (u32 LE) ‖ build length (u32 LE) ‖ build ‖ payload ‖ xxh64 (u64 LE)`
//!
//! The checksum is a fast non-cryptographic hash (XXH64, several GB/s
//! natively): it finds accidental changes (a flipped or lost byte, a
//! truncated write, a mixed-up file), not a deliberate forger, who can
//! recompute it. Bytes are refused in this order, each with
//! `snapshot.refused` and the part that failed as the error's field:
//! `magic`, `format`, `checksum`, `build`.

use holaryn_model::{Error, ErrorCode, Result};

/// The first bytes of every snapshot.
pub const MAGIC: &[u8; 8] = b"HOLARYN\x01";
/// The layout version this build reads and writes.
pub const FORMAT: u32 = 1;

/// The bytes of a snapshot of `payload` written by `build`.
pub(crate) fn frame(build: &str, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(MAGIC.len() + 8 + build.len() + payload.len() + 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(&(build.len() as u32).to_le_bytes());
    out.extend_from_slice(build.as_bytes());
    out.extend_from_slice(payload);
    let sum = xxh64(&out, 0);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// A refusal naming the part of the frame that failed.
pub(crate) fn refused(part: &str, why: String) -> Error {
    Error::new(ErrorCode::SnapshotRefused, why)
        .with_field(part)
        .with_next_action("register the tools again (and take a new snapshot)")
}

/// The payload of `bytes` when they are a whole snapshot of this format
/// written by `build`.
pub(crate) fn unframe<'a>(bytes: &'a [u8], build: &str) -> Result<&'a [u8]> {
    let head = MAGIC.len() + 8;
    if bytes.len() < head + 8 || &bytes[..MAGIC.len()] != MAGIC {
        return Err(refused(
            "magic",
            "these bytes are not a Holaryn snapshot".into(),
        ));
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let format = word(MAGIC.len());
    if format != FORMAT {
        return Err(refused(
            "format",
            format!("the snapshot has format version {format}; this build reads version {FORMAT}"),
        ));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    let mut kept = [0u8; 8];
    kept.copy_from_slice(sum);
    if xxh64(body, 0) != u64::from_le_bytes(kept) {
        return Err(refused(
            "checksum",
            "the snapshot's checksum does not match: its bytes changed since it was written".into(),
        ));
    }
    let len = word(MAGIC.len() + 4) as usize;
    let writer = body
        .get(head..head + len)
        .and_then(|b| std::str::from_utf8(b).ok())
        .ok_or_else(|| refused("build", "the snapshot's build id is unreadable".into()))?;
    if writer != build {
        return Err(refused(
            "build",
            format!("the snapshot was written by build `{writer}`; this is build `{build}`"),
        ));
    }
    Ok(&body[head + len..])
}

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;
const P5: u64 = 0x27D4_EB2F_1656_67C5;

#[inline(always)]
fn round(acc: u64, lane: u64) -> u64 {
    acc.wrapping_add(lane.wrapping_mul(P2))
        .rotate_left(31)
        .wrapping_mul(P1)
}

#[inline(always)]
fn merge(h: u64, v: u64) -> u64 {
    (h ^ round(0, v)).wrapping_mul(P1).wrapping_add(P4)
}

#[inline(always)]
fn u64_at(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[..8]);
    u64::from_le_bytes(w)
}

/// XXH64 of `data` (the reference algorithm).
pub(crate) fn xxh64(data: &[u8], seed: u64) -> u64 {
    let mut rest = data;
    let mut h = if data.len() >= 32 {
        let mut v = [
            seed.wrapping_add(P1).wrapping_add(P2),
            seed.wrapping_add(P2),
            seed,
            seed.wrapping_sub(P1),
        ];
        let mut stripes = data.chunks_exact(32);
        for s in &mut stripes {
            for (i, lane) in v.iter_mut().enumerate() {
                *lane = round(*lane, u64_at(&s[i * 8..]));
            }
        }
        rest = stripes.remainder();
        let h = v[0]
            .rotate_left(1)
            .wrapping_add(v[1].rotate_left(7))
            .wrapping_add(v[2].rotate_left(12))
            .wrapping_add(v[3].rotate_left(18));
        v.iter().fold(h, |h, lane| merge(h, *lane))
    } else {
        seed.wrapping_add(P5)
    };
    h = h.wrapping_add(data.len() as u64);
    let mut words = rest.chunks_exact(8);
    for w in &mut words {
        h = (h ^ round(0, u64_at(w)))
            .rotate_left(27)
            .wrapping_mul(P1)
            .wrapping_add(P4);
    }
    rest = words.remainder();
    if rest.len() >= 4 {
        let w = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
        h = (h ^ u64::from(w).wrapping_mul(P1))
            .rotate_left(23)
            .wrapping_mul(P2)
            .wrapping_add(P3);
        rest = &rest[4..];
    }
    for b in rest {
        h = (h ^ u64::from(*b).wrapping_mul(P5))
            .rotate_left(11)
            .wrapping_mul(P1);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(P2);
    h ^= h >> 29;
    h = h.wrapping_mul(P3);
    h ^ (h >> 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xxh64_matches_the_reference_vectors() {
        assert_eq!(xxh64(b"", 0), 0xEF46_DB37_51D8_E999);
        assert_eq!(xxh64(b"a", 0), 0xD24E_C4F1_A98C_6E5B);
        assert_eq!(xxh64(b"abc", 0), 0x44BC_2CF5_AD77_0999);
        let long = b"Nobody inspects the spammish repetition";
        assert_eq!(xxh64(long, 0), 0xFBCE_A83C_8A37_8BF1);
    }

    #[test]
    fn frames_round_trip_and_refuse_each_part() {
        let bytes = frame("b1", b"payload");
        assert_eq!(unframe(&bytes, "b1").ok(), Some(&b"payload"[..]));
        let field = |bytes: &[u8], build: &str| unframe(bytes, build).err().and_then(|e| e.field);
        assert_eq!(field(&bytes, "b2").as_deref(), Some("build"));
        assert_eq!(field(&bytes[..10], "b1").as_deref(), Some("magic"));
        let mut flipped = bytes.clone();
        flipped[MAGIC.len() + 9] ^= 1;
        assert_eq!(field(&flipped, "b1").as_deref(), Some("checksum"));
        let mut later = bytes.clone();
        later[MAGIC.len()] = 2;
        assert_eq!(field(&later, "b1").as_deref(), Some("format"));
    }
}
