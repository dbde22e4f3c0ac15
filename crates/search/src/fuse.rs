//! Fusing the rankings of several phrasings of one request into one.
//!
//! Method: each phrasing's scores are divided by that phrasing's best score
//! (so each contributes on the same 0–1 scale); a tool's fused score is its
//! best normalised score plus [`AGREE`] times the sum of the others, so a
//! tool that several phrasings find beats one that a single phrasing finds
//! about as well. Ties keep document order. The phrasing that gave a tool its
//! best score is the one its `why` explains.

/// Share of the other phrasings' normalised scores that adds to the best.
pub(crate) const AGREE: f32 = 0.35;

/// One candidate: (score, document, index of the phrasing that placed it).
pub(crate) type Cand = (f32, u32, u8);

/// Fuse per-phrasing candidate lists (each `(score, doc)`) into one list.
pub(crate) fn fuse(lists: &[Vec<(f32, u32)>]) -> Vec<Cand> {
    if let [only] = lists {
        return only.iter().map(|(s, d)| (*s, *d, 0)).collect();
    }
    // (best, sum, best phrasing) per document, in first-seen order.
    let mut acc: Vec<(u32, f32, f32, u8)> = Vec::new();
    let mut slot: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    for (q, list) in lists.iter().enumerate() {
        let top = list.iter().map(|(s, _)| *s).fold(0f32, f32::max);
        if top <= 0.0 {
            continue;
        }
        for (s, d) in list {
            let v = s / top;
            let i = *slot.entry(*d).or_insert_with(|| {
                acc.push((*d, 0.0, 0.0, q as u8));
                acc.len() - 1
            });
            let a = &mut acc[i];
            if v > a.1 {
                a.1 = v;
                a.3 = q as u8;
            }
            a.2 += v;
        }
    }
    acc.into_iter()
        .map(|(d, best, sum, q)| (best + AGREE * (sum - best), d, q))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreement_beats_a_single_strong_phrasing() {
        let a = vec![(10.0, 1), (9.0, 2)];
        let b = vec![(4.0, 2), (1.0, 3)];
        let mut f = fuse(&[a, b]);
        f.sort_by(|x, y| y.0.total_cmp(&x.0));
        assert_eq!(f[0].1, 2, "{f:?}");
        assert_eq!(f[0].2, 1);
        assert_eq!(fuse(&[vec![(3.0, 5)]]), vec![(3.0, 5, 0)]);
    }
}
