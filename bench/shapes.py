#!/usr/bin/env python3
"""Submitter-shaped data against the `mgnify` tool: what a response of a given
shape costs in time and peak memory, at a size N and at 4N, so that the cost
is shown to grow with the input (or, where the output must grow faster, to be
refused with a stated limit).

Shapes, each served by a local HTTP server on 127.0.0.1 in the services'
response format:
  repeated-keys-listing  one v1 sample repeating one metadata key N times,
                         listed as TSV (`mgnify v1 samples list --format tsv`)
  repeated-keys-table    the same sample in `samples-table --api v1`
  wide-metadata          S samples each with K metadata keys no other sample
                         has, in `samples-table` (v2): N = K keys a sample,
                         4N = 4K; the table is S x (S*K) cells, so it is also
                         run at the issue's sizes for the absolute memory
  gather-children        (with --mock) a `genome gather` job of N searches
                         (signatures x catalogues), each search's result CSV
                         about 2 MB (mgnify-mock's mock-rows-N signatures);
                         time includes the job's ~2.5 s of status polls

Time is the wall time of the whole command, memory its peak RSS
(ru_maxrss of the child). Each measurement is the median of --runs runs,
alternating sizes (and the --before binary, when given) run by run.

  bench/shapes.py --mgnify build/release/tools/mgnify/mgnify [--before OLD_MGNIFY]
                  [--mock build/release/tools/mock/mgnify-mock] [--runs 3] [--quick] [--out FILE]
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--mgnify", required=True, help="the mgnify binary under test")
p.add_argument("--before", help="an earlier mgnify binary, run beside it")
p.add_argument("--mock", help="the mgnify-mock binary, for the gather scenario")
p.add_argument("--runs", type=int, default=3)
p.add_argument("--quick", action="store_true", help="smaller N, for iterating")
p.add_argument("--timeout", type=float, default=180.0, help="seconds before a run counts as failed")
p.add_argument("--out", help="also write the table (Markdown) here")
p.add_argument("--only", help="comma-separated scenario names to run (for iterating)")
args = p.parse_args()

# ---- the server ---------------------------------------------------------------

SHAPE = {}  # what the server answers now: set by each measurement
SHAPE_LOCK = threading.Lock()


def v1_sample(accession, metadata, origin):
    return {
        "type": "samples",
        "id": accession,
        "attributes": {"accession": accession, "sample-name": "bench " + accession, "latitude": 51.5,
                       "longitude": -0.1, "host-tax-id": None, "sample-metadata": metadata},
        "relationships": {},
        "links": {"self": origin + "/metagenomics/api/v1/samples/" + accession},
    }


def v2_sample(accession, metadata):
    return {"accession": accession, "ena_accessions": [accession], "sample_title": "bench " + accession,
            "biome": {"biome_name": "Marine", "lineage": "root:Environmental:Aquatic:Marine"},
            "updated_at": "2026-01-01T00:00:00Z", "metadata": metadata}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send_json(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlparse(self.path)
        query = parse_qs(url.query)
        page = int(query.get("page", ["1"])[0])
        size = int(query.get("page_size", ["25"])[0])
        origin = "http://%s:%d" % self.server.server_address[:2]
        with SHAPE_LOCK:
            shape = dict(SHAPE)
        items = shape.get("items", [])
        start, end = (page - 1) * size, page * size
        if re.fullmatch(r"/metagenomics/api/v1/(samples|studies/[^/]+/samples)/?", url.path):
            pages = max(1, -(-len(items) // size))
            data = [v1_sample(acc, md, origin) for acc, md in items[start:end]]
            nxt = None
            if page < pages:
                nxt = "%s%s?page=%d&page_size=%d" % (origin, url.path, page + 1, size)
            self.send_json({"links": {"next": nxt, "prev": None},
                            "data": data, "meta": {"pagination": {"page": page, "pages": pages,
                                                                  "count": len(items)}}})
            return
        if re.fullmatch(r"/metagenomics/api/v2/studies/[^/]+/samples/?", url.path):
            self.send_json({"count": len(items), "items": [v2_sample(acc, md) for acc, md in items[start:end]]})
            return
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
ORIGIN = "http://127.0.0.1:%d" % server.server_address[1]
ENV = dict(os.environ, MGNIFY_API_V1_URL=ORIGIN + "/metagenomics/api/v1",
           MGNIFY_API_V2_URL=ORIGIN + "/metagenomics/api/v2", MGNIFY_CACHE_DIR="")

# ---- the shapes ---------------------------------------------------------------


def repeated_keys(n):
    return [("ERS0000001", [{"key": "depth", "value": str(i), "unit": "m"} for i in range(n)])]


def wide(samples, keys):
    return [("SAMEA%07d" % s, {"s%d_k%d" % (s, k): k for k in range(keys)}) for s in range(samples)]


def run_once(binary, argv, items, env=None):
    with SHAPE_LOCK:
        SHAPE.clear()
        SHAPE["items"] = items
    started = time.monotonic()
    # Unpaced: the cost measured is the tool's, not the polite request rate's.
    if "--rate-limit" not in argv:
        argv = ["--rate-limit", "0"] + argv
    child = subprocess.Popen([binary] + argv, env=env or ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out_bytes = 0
    killer = threading.Timer(args.timeout, child.kill)
    killer.start()
    try:
        # Read stdout as it comes (a TSV of millions of cells), counting it.
        while True:
            chunk = child.stdout.read(1 << 20)
            if not chunk:
                break
            out_bytes += len(chunk)
        err = child.stderr.read().decode(errors="replace")
        _, status, usage = os.wait4(child.pid, 0)
    finally:
        killer.cancel()
    seconds = time.monotonic() - started
    code = os.waitstatus_to_exitcode(status)
    return {"seconds": seconds, "rss_mb": usage.ru_maxrss / 1024.0, "exit": code, "out_mb": out_bytes / 1e6,
            "stderr": err.strip().splitlines()[-1] if err.strip() else ""}


def measure(binary, argv, items, env=None):
    runs = [run_once(binary, argv, items, env) for _ in range(args.runs)]
    return {"seconds": statistics.median(r["seconds"] for r in runs),
            "rss_mb": statistics.median(r["rss_mb"] for r in runs),
            "exit": runs[-1]["exit"], "out_mb": runs[-1]["out_mb"], "stderr": runs[-1]["stderr"]}


N_REPEAT_LISTING = 250 if args.quick else 1000
N_REPEAT_TABLE = 500 if args.quick else 2000
WIDE_SAMPLES = 500
WIDE_KEYS = 10 if args.quick else 40
RAISED = ["--max-cells", "1000000000", "--max-columns", "10000000"]

SCENARIOS = [
    ("repeated-keys-listing", "one sample, one key N times, v1 TSV listing",
     lambda n: (["v1", "samples", "list", "--format", "tsv"], repeated_keys(n)), N_REPEAT_LISTING),
    ("repeated-keys-table", "one sample, one key N times, samples-table --api v1",
     lambda n: (["samples-table", "MGYS00099001", "--api", "v1", "--format", "tsv"], repeated_keys(n)),
     N_REPEAT_TABLE),
    ("wide-metadata", "%d samples x N keys no other sample has, samples-table" % WIDE_SAMPLES,
     lambda n: (["samples-table", "MGYS00099001", "--format", "tsv"] + RAISED, wide(WIDE_SAMPLES, n)),
     WIDE_KEYS),
]

# The gather scenario runs against mgnify-mock, whose genome search answers a
# signature named mock-rows-R with R result rows per catalogue (~190 bytes each).
MOCK_ENV = None
SIGNATURES = None
if args.mock:
    mock = subprocess.Popen([args.mock, "--port", "0"], stdout=subprocess.PIPE, text=True)
    mock_urls = {}
    for _ in range(3):
        kind, url = mock.stdout.readline().split()
        mock_urls[kind] = url
    MOCK_ENV = dict(os.environ, MGNIFY_API_V2_URL=mock_urls["v2"], MGNIFY_CACHE_DIR="")
    SIGNATURES = tempfile.mkdtemp(prefix="mgnify-shapes-")
    ROWS = 2000 if args.quick else 10000
    for i in range(64):
        name = "mock-rows-%d" % (ROWS + i)  # distinct names, one size
        with open(os.path.join(SIGNATURES, "s%d.sig" % i), "w") as f:
            json.dump([{"class": "sourmash_signature", "email": "", "hash_function": "0.murmur64",
                        "filename": name + ".fa", "name": name, "license": "CC0",
                        "signatures": [{"num": 0, "ksize": 31, "seed": 42, "max_hash": 18446744073709552,
                                        "mins": [11, 22, 33], "md5sum": "0123456789abcdef",
                                        "molecule": "DNA"}], "version": 0.4}], f)
    CATALOGUES = "human-gut-v2-0,marine-v1-0"

    def gather(n):
        # n searches: n/2 signatures against the two catalogues.
        sigs = [os.path.join(SIGNATURES, "s%d.sig" % i) for i in range(n // 2)]
        return (["--rate-limit", "0", "--format", "tsv", "genome", "gather"] + sigs +
                ["--catalogue", CATALOGUES, "--max-searches", "100000"], [])

    SCENARIOS.append(("gather-children", "a gather job of N searches, ~2 MB of CSV each", gather, 8))

if args.only:
    SCENARIOS = [s for s in SCENARIOS if s[0] in args.only.split(",")]

rows = []
for name, what, make, n in SCENARIOS:
    env = MOCK_ENV if name == "gather-children" else None
    for label, binary in [("now", args.mgnify)] + ([("before", args.before)] if args.before else []):
        at = {}
        for size in (n, 4 * n):
            argv, items = make(size)
            if label == "before":
                # The earlier tool has no limits to raise.
                argv = [a for a in argv]
                for flag in ("--max-cells", "--max-columns", "--max-searches"):
                    while flag in argv:
                        i = argv.index(flag)
                        del argv[i:i + 2]
            print("shapes: %s (%s) N=%d ..." % (name, label, size), file=sys.stderr, flush=True)
            at[size] = measure(binary, argv, items, env)
        small, large = at[n], at[4 * n]
        rows.append({
            "scenario": name, "what": what, "binary": label, "n": n,
            "seconds_n": small["seconds"], "seconds_4n": large["seconds"],
            "time_ratio": large["seconds"] / small["seconds"] if small["seconds"] else float("nan"),
            "rss_n": small["rss_mb"], "rss_4n": large["rss_mb"],
            "rss_ratio": large["rss_mb"] / small["rss_mb"] if small["rss_mb"] else float("nan"),
            "exit": (small["exit"], large["exit"]), "out_mb": large["out_mb"], "stderr": large["stderr"],
        })

# The absolute sizes for wide metadata: 500 and 1000 samples x 40 keys
# (the second is over the default --max-cells, so it is run with it raised,
# and once with the default to show the refusal).
absolute = []
if not args.quick and (not args.only or "wide-metadata" in args.only.split(",")):
    for samples in (500, 1000):
        argv = ["samples-table", "MGYS00099001", "--format", "tsv"] + RAISED
        print("shapes: wide-metadata %d x 40 ..." % samples, file=sys.stderr, flush=True)
        absolute.append(("%d samples x 40 keys (limits raised)" % samples,
                         measure(args.mgnify, argv, wide(samples, 40))))
    print("shapes: wide-metadata 1000 x 40, default limits ...", file=sys.stderr, flush=True)
    absolute.append(("1000 samples x 40 keys (default limits)",
                     measure(args.mgnify, ["samples-table", "MGYS00099001", "--format", "tsv"], wide(1000, 40))))

lines = ["| scenario | tool | N | time N | time 4N | time ratio (target <= 5) | peak RSS N | peak RSS 4N | "
         "RSS ratio (target <= 5) | exit N / 4N |", "|---|---|---|---|---|---|---|---|---|---|"]
for r in rows:
    lines.append("| %s | %s | %d | %.2f s | %.2f s | %.2fx %s | %.0f MB | %.0f MB | %.2fx %s | %d / %d |" % (
        r["scenario"], r["binary"], r["n"], r["seconds_n"], r["seconds_4n"], r["time_ratio"],
        "met" if r["time_ratio"] <= 5 else "missed", r["rss_n"], r["rss_4n"], r["rss_ratio"],
        "met" if r["rss_ratio"] <= 5 else "missed", r["exit"][0], r["exit"][1]))
if absolute:
    lines += ["", "| wide metadata at the issue's sizes | time | peak RSS (target < 300 MB) | output | exit | last stderr line |",
              "|---|---|---|---|---|---|"]
    for label, m in absolute:
        lines.append("| %s | %.2f s | %.0f MB %s | %.1f MB | %d | %s |" % (
            label, m["seconds"], m["rss_mb"], "met" if m["rss_mb"] < 300 else "missed", m["out_mb"], m["exit"],
            m["stderr"].replace("|", "\\|")[:160]))
text = "\n".join(lines) + "\n"
print(text)
if args.out:
    with open(args.out, "w") as f:
        f.write(text)
server.shutdown()
if args.mock:
    mock.terminate()
    mock.wait()
    shutil.rmtree(SIGNATURES, ignore_errors=True)
failed = [r for r in rows if r["binary"] == "now" and (r["exit"] != (0, 0))]
sys.exit(1 if failed else 0)
