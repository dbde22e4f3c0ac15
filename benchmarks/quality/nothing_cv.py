#!/usr/bin/env python3
"""Nested cross-validation of the "nothing fits" bars on the dev half only.

Input: the per-request evidence rows of the dev split (standard library only),
    cargo run --release -p holaryn-core --example nothing_sweep -- dev --rows \
        > /tmp/rows.jsonl
    python3 benchmarks/quality/nothing_cv.py /tmp/rows.jsonl

A row with a gold tool that is flagged is a wrong flag. For each family of
bars (a grid of conjunctive thresholds) and each selection criterion, every
one of 10 x 5 stratified folds (kind x writing batch) chooses the bars on the
other four fifths -- the most right flags among bars whose training precision
reaches the target -- and is measured on its held-out fifth. The pooled
held-out precision estimates what the *procedure* gives on unseen requests;
the fold-wise spread says how stable it is. Leave-one-batch-out trains on two
writing batches (README: first 525, second batch, third batch of nothing-fits
requests) and measures on the third. It reads nothing of the test half.
"""
import itertools
import json
import math
import random
import sys

# First id of the second writing batch per kind (README: "Ids continue each
# kind's numbering"); nothing-fits none-104.. are the third batch.
BATCH2 = {"paraphrase": 119, "entity": 91, "multi-step": 74, "exact-name": 67,
          "provider-scoped": 51, "schema-field": 64, "nothing-fits": 66}
INF = 99.0
REPS, K = 10, 5


def batch(r):
    n = int(r["id"].rsplit("-", 1)[1])
    if r["kind"] == "nothing-fits" and n >= 104:
        return 3
    return 2 if n >= BATCH2[r["kind"]] else 1


def load(path):
    rows = [json.loads(line) for line in open(path) if line.strip()]
    for r in rows:
        r["y"] = int(r["none"])
        r["c1"] = (r["cos"] or [0.0])[0]
        r["mil"] = INF if r["meaning_in_lex"] is None else r["meaning_in_lex"]
    return rows


def words(cov, uw, us, title0=False, ask=INF):
    """Most words unknown to every tool, under a lexical coverage."""
    def flag(r):
        return not r["hit"] or (
            not r["exact"] and r["coverage"] < cov and r["unknown_words"] >= uw
            and r["unknown_share"] >= us and (not title0 or r["title"] == 0)
            and r["ask_rarest"] < ask)
    return flag


def families():
    """Each family: a list of (label, flag)."""
    full = [((c, u, s, t, a), words(c, u, s, t, a)) for c, u, s, t, a in itertools.product(
        [0.15, 0.2, 0.25], [1, 2, 3, 4], [0, .25, .34, .4, .5, .6, .75], [False, True],
        [INF, 5, 4, 3.5, 3.1])]
    small = [((c, u, s), words(c, u, s)) for c, u, s in itertools.product(
        [0.2, 0.25], [1, 2, 3], [0, .25, .34, .5])]

    def far(base, cov, cos):
        return lambda r: base(r) or (not r["exact"] and r["coverage"] < cov and r["c1"] < cos)

    def veto(base, cos):
        return lambda r: base(r) and r["c1"] < cos

    def disagree(base, share):
        return lambda r: base(r) or (not r["exact"] and r["coverage"] < 0.25
                                     and r["unknown_share"] >= share and r["mil"] >= 15)
    union = [((k, cv, a), far(f, cv, a)) for (k, f), cv, a in itertools.product(
        small, [0.25, 0.3], [0, 0.2, 0.21, 0.22, 0.23, 0.24])]
    vetoed = [((k, a), veto(f, a)) for (k, f), a in itertools.product(
        small, [0.3, 0.35, 0.4, 0.45, INF])]
    disagreeing = [((k, s), disagree(f, s)) for (k, f), s in itertools.product(
        small, [0.25, 0.34, 0.5, INF])]
    return {
        "words, round-5 grid (+ title, common words)": full,
        "words (coverage, unknown words, share)": small,
        "words or far cosine": union,
        "words and not a close cosine": vetoed,
        "words or rankings disagree": disagreeing,
    }


def select(rules, train, target):
    best = None
    for label, flag in rules:
        got = [r["y"] for r in train if flag(r)]
        if got and sum(got) / len(got) >= target:
            key = (sum(got), -len(got))
            if best is None or key > best[0]:
                best = (key, label, flag)
    return best


def folds(rows, rep):
    rnd = random.Random(1 + rep)
    strata = {}
    for r in rows:
        strata.setdefault((r["kind"], batch(r)), []).append(r)
    fold = {}
    for key in sorted(strata):
        v = strata[key][:]
        rnd.shuffle(v)
        off = rnd.randrange(K)
        for i, r in enumerate(v):
            fold[r["id"]] = (i + off) % K
    return fold


def nested(rows, rules, target):
    right = flagged = 0
    per_fold, chosen = [], {}
    for rep in range(REPS):
        fold = folds(rows, rep)
        for f in range(K):
            train = [r for r in rows if fold[r["id"]] != f]
            held = [r for r in rows if fold[r["id"]] == f]
            best = select(rules, train, target)
            label = best[1] if best else None
            chosen[label] = chosen.get(label, 0) + 1
            got = [r["y"] for r in held if best and best[2](r)]
            right += sum(got)
            flagged += len(got)
            per_fold.append((sum(got), len(got)))
    return right, flagged, per_fold, chosen


def quantile(xs, q):
    return xs[int(q * (len(xs) - 1))] if xs else float("nan")


def main():
    rows = load(sys.argv[1] if len(sys.argv) > 1 else "/dev/stdin")
    none = sum(r["y"] for r in rows)
    print(f"dev: {len(rows)} requests, {none} without a tool")
    gate = [r for r in rows if r["hit"] and not r["exact"] and r["coverage"] < 0.25]
    pos = sum(r["y"] for r in gate)
    print(f"\nlikelihood ratio of each condition, coverage < 0.25 ({pos} without a tool,"
          f" {len(gate) - pos} with):")
    conditions = {
        "unknown words >= 2": lambda r: r["unknown_words"] >= 2,
        "unknown share > 1/3": lambda r: r["unknown_share"] >= 0.34,
        "no word in name/title": lambda r: r["title"] == 0,
        "no rare word (IDF < 5)": lambda r: r["rarest"] < 5,
        "common words (IDF < 4)": lambda r: r["ask_rarest"] < 4,
        "best cosine < 0.3": lambda r: r["c1"] < 0.3,
        "meaning top not in lexical 15": lambda r: r["mil"] >= 15,
    }
    for name, c in conditions.items():
        a = sum(1 for r in gate if r["y"] and c(r))
        b = sum(1 for r in gate if not r["y"] and c(r))
        lr = (a / max(pos, 1)) / max(b / max(len(gate) - pos, 1), 1e-9)
        print(f"  {name:<30} {a:>3} / {b:>3}  LR {lr:.2f}")
    print(f"\nnested CV, {REPS} x {K} folds: held-out right/flagged, precision, recall;"
          " fold-wise precision min / p10 / median")
    for fam, rules in families().items():
        for target in (0.9, 0.85):
            right, flagged, per_fold, chosen = nested(rows, rules, target)
            ps = sorted(k / n for k, n in per_fold if n)
            empty = sum(1 for _, n in per_fold if n == 0)
            modal = max(chosen.items(), key=lambda x: x[1])
            full = select(rules, rows, target)
            dev = [r["y"] for r in rows if full and full[2](r)]
            print(f"  {fam} | train P >= {target}: {right}/{flagged} "
                  f"P {right / max(flagged, 1):.2f} R {right / (REPS * none):.2f} | "
                  f"{quantile(ps, 0):.2f} / {quantile(ps, .1):.2f} / {quantile(ps, .5):.2f}"
                  f" ({empty} empty) | modal {modal[0]} in {modal[1]} | all dev "
                  f"{full[1] if full else None}: {sum(dev)}/{len(dev)}")
            if target == 0.85:
                out = []
                for b in (1, 2, 3):
                    best = select(rules, [r for r in rows if batch(r) != b], target)
                    got = [r["y"] for r in rows if batch(r) == b and best and best[2](r)]
                    out.append(f"batch {b}: {sum(got)}/{len(got)}")
                print("      leave one batch out: " + ", ".join(out))


if __name__ == "__main__":
    main()
