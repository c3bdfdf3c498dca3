#!/usr/bin/env python3
"""Runs every benchmark scenario for the SDK and its baselines, alternating
them run by run, and writes the table of medians and ratios. Called by
bench/run.sh, which builds the programs and starts the mocks."""

import argparse
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import time

p = argparse.ArgumentParser()
p.add_argument("--build", required=True)
p.add_argument("--mock0", required=True, help="origin of the mock with 0 ms latency")
p.add_argument("--mock20", required=True, help="origin of the mock with 20 ms latency")
p.add_argument("--mockgz", required=True, help="origin of the mock with compression on")
p.add_argument("--latency", type=int, default=20)
p.add_argument("--runs", type=int, default=5)
p.add_argument("--quick", action="store_true")
p.add_argument("--out", required=True)
p.add_argument("--workdir", required=True)
p.add_argument("--mock-threads", type=int, required=True)
p.add_argument("--scenarios", default="1,2,3,4,ceiling,5,6",
               help="comma-separated subset to run (for iterating; BENCHMARKS.md comes from all)")
p.add_argument("--before-build", help="build dir of an earlier SDK: scenarios 2, 3 and 5 also run its "
               "bench program, alternating with the current one")
p.add_argument("--before-label", default="before", help="name of the earlier SDK in the table")
args = p.parse_args()

HERE = os.path.dirname(os.path.abspath(__file__))
SDK = os.path.join(args.build, "bench", "mgnify_sdk_bench")
CURL = os.path.join(args.build, "bench", "mgnify_baseline_curl")
PY = ["/usr/bin/python3", os.path.join(HERE, "baseline_requests.py")]
Q = args.quick
BEFORE = os.path.join(args.before_build, "bench", "mgnify_sdk_bench") if args.before_build else None
SCENARIOS = set(args.scenarios.split(","))


def want(name):
    return name in SCENARIOS


def urls(origin):
    return {"proteins": origin + "/metagenomics/proteins/api/v1", "v1": origin + "/metagenomics/api/v1",
            "v2": origin + "/metagenomics/api/v2"}


M0, M20, MGZ = urls(args.mock0), urls(args.mock20), urls(args.mockgz)


def flags(d):
    out = []
    for k, v in d.items():
        out += ["--" + k, str(v)]
    return out


def run_json(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(cmd), r.stderr.strip()))
    return json.loads(r.stdout.strip().splitlines()[-1])


def run_rss(cmd):
    r = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(cmd), r.stderr.strip()))
    kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1))
    out = json.loads(r.stdout.strip().splitlines()[-1])
    out["rss_mb"] = kb / 1024.0
    return out


def alternate(contenders, runs, runner=run_json):
    """contenders: list of (name, cmd). Returns name -> list of results; the
    order of contenders rotates each run so none always goes first."""
    results = {name: [] for name, _ in contenders}
    for r in range(runs):
        order = contenders[r % len(contenders):] + contenders[:r % len(contenders)]
        for name, cmd in order:
            results[name].append(runner(cmd))
    return results


def med(results, key="seconds"):
    return statistics.median(x[key] for x in results)


rows = []  # (scenario, measure, value, ratio text, target text, status)
notes = []


def sh_nproc():
    return str(os.cpu_count())


def status(ok):
    return "met" if ok else "**missed**"


def progress(msg):
    print("[bench] " + msg, file=sys.stderr, flush=True)


lat = args.latency
runs = args.runs

# 1. Fan-out -------------------------------------------------------------
if want("1"):
    limit = 160 if Q else 1000
    conc = 16
    progress("scenario 1: fan-out (%d records, %d ms, concurrency %d)" % (limit, lat, conc))
    res = alternate([
        ("sdk", [SDK, "fanout"] + flags({"proteins": M20["proteins"], "limit": limit, "concurrency": conc})),
        ("python", PY + ["fanout"] + flags({"proteins": M20["proteins"], "limit": limit})),
    ], runs)
    bound = math.ceil(limit / conc) * lat / 1000.0
    sdk_s, py_s = med(res["sdk"]), med(res["python"])
    rows.append(("1 fan-out %d records, %d ms, c=%d" % (limit, lat, conc), "SDK wall time", "%.3f s" % sdk_s,
                 "%.2fx the bound %.2f s" % (sdk_s / bound, bound), "<= 1.3x", status(sdk_s / bound <= 1.3)))
    rows.append(("", "Python serial loop", "%.3f s" % py_s, "SDK %.1fx faster" % (py_s / sdk_s), ">= 10x",
                 status(py_s / sdk_s >= 10)))

# 2. Link walk -------------------------------------------------------------
if want("2"):
    # The SDK walks with ClientOptions::parallel_pages = K: page URLs guessed from page 1's links,
    # each checked against the previous page's links.next (docs/performance.md). The baselines
    # walk links.next one page at a time, as written.
    K = 8
    progress("scenario 2: v1 link walk at 0 ms")
    walk = {"page-size": 100}
    res = alternate([
        ("sdk", [SDK, "linkwalk"] + flags(dict(walk, v1=M0["v1"], parallel=K))),
        ("curl", [CURL, "linkwalk"] + flags(dict(walk, v1=M0["v1"]))),
        ("python", PY + ["linkwalk"] + flags(dict(walk, v1=M0["v1"]))),
        ("sdk-k1", [SDK, "linkwalk"] + flags(dict(walk, v1=M0["v1"]))),
    ] + ([("before", [BEFORE, "linkwalk"] + flags(dict(walk, v1=M0["v1"])))] if BEFORE else []), runs)
    items = res["sdk"][0]["items"]
    sdk_s, curl_s, py_s, k1_s = med(res["sdk"]), med(res["curl"]), med(res["python"]), med(res["sdk-k1"])
    rows.append(("2 link walk %d v1 studies, 0 ms" % items, "SDK, parallel_pages=%d" % K,
                 "%.0f items/s" % (items / sdk_s),
                 "%.2fx the C++ floor (%.0f items/s)" % (curl_s / sdk_s, items / curl_s), ">= 0.9x",
                 status(curl_s / sdk_s >= 0.9)))
    rows.append(("", "vs Python requests", "%.0f items/s" % (items / py_s), "SDK %.2fx" % (py_s / sdk_s),
                 ">= 1.5x", status(py_s / sdk_s >= 1.5)))
    rows.append(("", "SDK, defaults (parallel_pages=1)", "%.0f items/s" % (items / k1_s),
                 "%.2fx the C++ floor, %.2fx Python" % (curl_s / k1_s, py_s / k1_s), "(info)", ""))
    if BEFORE:
        b_s = med(res["before"])
        rows.append(("", "SDK before (%s)" % args.before_label, "%.0f items/s" % (items / b_s),
                     "%.2fx the C++ floor; now %.2fx faster" % (curl_s / b_s, b_s / sdk_s), "(info)", ""))
    progress("scenario 2: v1 link walk at %d ms" % lat)
    res = alternate([
        ("sdk", [SDK, "linkwalk"] + flags(dict(walk, v1=M20["v1"], parallel=K))),
        ("sdk-k1", [SDK, "linkwalk"] + flags(dict(walk, v1=M20["v1"]))),
        ("sdk-no-ra", [SDK, "linkwalk"] + flags(dict(walk, v1=M20["v1"], **{"read-ahead": 0}))),
        ("curl", [CURL, "linkwalk"] + flags(dict(walk, v1=M20["v1"]))),
    ], runs)
    sdk_s, k1_s, nora_s, curl_s = med(res["sdk"]), med(res["sdk-k1"]), med(res["sdk-no-ra"]), med(res["curl"])
    pages = math.ceil(items / 100)
    rows.append(("2 link walk, %d ms" % lat, "SDK, parallel_pages=%d" % K, "%.2f s" % sdk_s,
                 "%.2fx faster than the C++ floor (%.2f s)" % (curl_s / sdk_s, curl_s), ">= 1.6x",
                 status(curl_s / sdk_s >= 1.6)))
    rows.append(("", "SDK, read-ahead only (parallel_pages=1)", "%.2f s" % k1_s,
                 "%.2fx the C++ floor" % (curl_s / k1_s), "(info)", ""))
    rows.append(("", "SDK without read-ahead", "%.2f s" % nora_s,
                 "parallel_pages=%d gains %.2fx" % (K, nora_s / sdk_s), "(info)", ""))
    notes.append(
        "Link walk at %d ms: followed one page at a time, %d pages cost at least %d x %d ms = %.2f s of "
        "latency, whatever the client: the C++ floor takes %.2f s, the SDK without read-ahead %.2f s and "
        "with read-ahead alone (page N+1 fetched while the caller consumes page N) %.2f s. With parallel_pages=%d the SDK requests pages 2..%d as soon as page 1 is "
        "in, their URLs being page 1's links.next with another page number, and uses each page only if "
        "the page before it named that URL as links.next (else it falls back to following links): "
        "%.2f s, about ceil(%d/%d) + 1 = %d round trips plus decoding."
        % (lat, pages, pages, lat, pages * lat / 1000.0, curl_s, nora_s, k1_s, K, K + 1, sdk_s, pages - 1, K,
           math.ceil((pages - 1) / K) + 1))

# 3. Counted walk -----------------------------------------------------------
if want("3"):
    k = 8
    progress("scenario 3: v2 counted walk, %d pages in parallel" % k)
    res = alternate([
        ("sdk", [SDK, "counted"] + flags({"v2": M20["v2"], "page-size": 100, "parallel": k})),
        ("curl", [CURL, "counted"] + flags({"v2": M20["v2"], "page-size": 100})),
    ] + ([("before", [BEFORE, "counted"] + flags({"v2": M20["v2"], "page-size": 100, "parallel": k}))]
         if BEFORE else []), runs)
    items = res["sdk"][0]["items"]
    pages = math.ceil(items / 100)
    bound = math.ceil(pages / k) * lat / 1000.0
    sdk_s, curl_s = med(res["sdk"]), med(res["curl"])
    rows.append(("3 counted walk %d v2 analyses, %d ms, k=%d" % (items, lat, k), "SDK", "%.3f s" % sdk_s,
                 "%.2fx the bound %.2f s" % (sdk_s / bound, bound), "<= 1.5x", status(sdk_s / bound <= 1.5)))
    rows.append(("", "C++ floor, serial pages", "%.3f s" % curl_s, "SDK %.2fx faster" % (curl_s / sdk_s),
                 "(info)", ""))
    if BEFORE:
        b_s = med(res["before"])
        rows.append(("", "SDK before (%s)" % args.before_label, "%.3f s" % b_s,
                     "%.2fx the bound; now %.2fx faster" % (b_s / bound, b_s / sdk_s), "(info)", ""))
    serial0 = {"v2": M0["v2"], "page-size": 100, "parallel": 1, "read-ahead": 0}
    res0 = alternate([
        ("sdk", [SDK, "counted"] + flags(serial0)),
        ("curl", [CURL, "counted"] + flags({"v2": M0["v2"], "page-size": 100})),
    ] + ([("before", [BEFORE, "counted"] + flags(serial0))] if BEFORE else []), runs)
    sdk0, curl0 = med(res0["sdk"]), med(res0["curl"])
    rows.append(("3 same walk at 0 ms, serial", "SDK, client work per page", "%.1f ms" % (sdk0 * 1000 / pages),
                 "C++ floor %.1f ms per page" % (curl0 * 1000 / pages), "(info)", ""))
    if BEFORE:
        b0 = med(res0["before"])
        rows.append(("", "SDK before (%s), per page" % args.before_label, "%.1f ms" % (b0 * 1000 / pages),
                     "now %.2fx faster" % (b0 / sdk0), "(info)", ""))
    notes.append(
        "Counted walk: at 0 ms latency and one page at a time the SDK needs %.1f ms per v2 page of 100 "
        "analyses (the C++ floor, which only parses, %.1f ms, which includes the mock rendering the page). "
        "%d pages therefore cost about %.1f s of CPU (client and mock) on this %s-core machine before any "
        "latency, against a latency bound of %.2f s. " % (sdk0 * 1000 / pages, curl0 * 1000 / pages, pages, sdk0,
                                                            sh_nproc(), bound)
        + ("With k=%d the walk is CPU-bound, not latency-bound." % k if sdk0 >= bound else
           "The walk fetches page 1 alone (its count decides the other page numbers), then %d pages with "
           "%d in flight: %d round trips, at least %.2f s at %d ms; the rest is that CPU, shared by %d "
           "requests in flight, the mock and the other load of the machine (load average above). A "
           "request leaves as soon as an earlier response is in (not when its page has been decoded and "
           "consumed), and pages decode at most one per core, the page the walk needs next first, so "
           "that decoding overlaps the round trips instead of following them."
           % (pages - 1, k, 1 + math.ceil((pages - 1) / k), (1 + math.ceil((pages - 1) / k)) * lat / 1000.0,
              lat, k)))

# 4. Small requests --------------------------------------------------------
if want("4"):
    count = 1000 if Q else 10000
    progress("scenario 4: %d sequential detail GETs" % count)
    res = alternate([
        ("sdk", [SDK, "small"] + flags({"proteins": M0["proteins"], "count": count})),
        ("curl", [CURL, "small"] + flags({"proteins": M0["proteins"], "count": count})),
        ("python", PY + ["small"] + flags({"proteins": M0["proteins"], "count": count})),
    ], runs)
    sdk_s, curl_s, py_s = med(res["sdk"]), med(res["curl"]), med(res["python"])
    rows.append(("4 %d sequential GETs, 0 ms" % count, "SDK", "%.0f req/s" % (count / sdk_s),
                 "%.2fx the C++ floor (%.0f req/s)" % (curl_s / sdk_s, count / curl_s), ">= 0.8x",
                 status(curl_s / sdk_s >= 0.8)))
    rows.append(("", "vs Python requests", "%.0f req/s" % (count / py_s), "SDK %.2fx" % (py_s / sdk_s), ">= 3x",
                 status(py_s / sdk_s >= 3)))

# Ceiling: the mock's own capacity, measured with wrk -------------------------
if want("ceiling"):
    progress("ceiling: wrk against the mock")
    ceiling = {}
    for name, url in [("detail", M0["proteins"] + "/protein/MGYP000000000010"),
                      ("v1 page", M0["v1"] + "/studies?page_size=100")]:
        r = subprocess.run(["wrk", "-t1", "-c16", "-d%ds" % (2 if Q else 5), url], capture_output=True, text=True)
        m = re.search(r"Requests/sec:\s+([\d.]+)", r.stdout)
        ceiling[name] = float(m.group(1)) if m else float("nan")
    rows.append(("ceiling (wrk -c16, 0 ms)", "mock capacity, detail GET", "%.0f req/s" % ceiling["detail"], "", "", ""))
    rows.append(("", "mock capacity, v1 page of 100", "%.0f pages/s" % ceiling["v1 page"], "", "", ""))

# 5. Decode ------------------------------------------------------------------
if want("5"):
    corpus = os.path.join(args.workdir, "decode_corpus.tsv")
    mb = 10 if Q else 100
    progress("scenario 5: decoding %d MB" % mb)
    if not os.path.exists(corpus):
        run_json([SDK, "corpus"] + flags({"v1": M0["v1"], "proteins": M0["proteins"], "out": corpus}))
    res = alternate([
        ("sdk", [SDK, "decode"] + flags({"corpus": corpus, "mb": mb, "mode": "sdk"})),
        ("parse", [SDK, "decode"] + flags({"corpus": corpus, "mb": mb, "mode": "parse"})),
        ("nlohmann", [SDK, "decode"] + flags({"corpus": corpus, "mb": mb, "mode": "nlohmann"})),
        ("python", PY + ["decode"] + flags({"corpus": corpus, "mb": mb})),
    ] + ([("before", [BEFORE, "decode"] + flags({"corpus": corpus, "mb": mb, "mode": "sdk"}))]
         if BEFORE else []), runs)
    mbps = {n: statistics.median(x["bytes"] / x["seconds"] / 1e6 for x in v) for n, v in res.items()}
    rows.append(("5 decode %d MB (v1 pages + protein records)" % mb, "SDK typed decoding", "%.1f MB/s" % mbps["sdk"],
                 "%.2fx Python json.loads (%.1f MB/s)" % (mbps["sdk"] / mbps["python"], mbps["python"]), ">= 2.0x",
                 status(mbps["sdk"] / mbps["python"] >= 2.0)))
    rows.append(("", "nlohmann::json::parse alone", "%.1f MB/s" % mbps["parse"],
                 "SDK %.2fx of parse alone" % (mbps["sdk"] / mbps["parse"]), "(info)", ""))
    rows.append(("", "SDK nlohmann path (json.get<T>())", "%.1f MB/s" % mbps["nlohmann"],
                 "%.2fx Python" % (mbps["nlohmann"] / mbps["python"]), "(info)", ""))
    if BEFORE:
        rows.append(("", "SDK before (%s)" % args.before_label, "%.1f MB/s" % mbps["before"],
                     "%.2fx Python; now %.2fx faster" % (mbps["before"] / mbps["python"],
                                                         mbps["sdk"] / mbps["before"]), "(info)", ""))

# 6. Memory ------------------------------------------------------------------
if want("6"):
    mem_items = 10000 if Q else 100000
    progress("scenario 6: memory walking %d v1 samples" % mem_items)
    res = alternate([
        ("base", [SDK, "memory"] + flags({"v1": M0["v1"], "items": 0})),
        ("page", [SDK, "memory"] + flags({"v1": M0["v1"], "items": 100, "read-ahead": 0})),
        ("ra", [SDK, "memory"] + flags({"v1": M0["v1"], "items": mem_items})),
        ("nora", [SDK, "memory"] + flags({"v1": M0["v1"], "items": mem_items, "read-ahead": 0})),
    ], runs, runner=run_rss)
    base = statistics.median(x["rss_mb"] for x in res["base"])
    ra = statistics.median(x["rss_mb"] for x in res["ra"])
    nora = statistics.median(x["rss_mb"] for x in res["nora"])
    walked = res["ra"][0]["items"]
    # What one page costs this process at its peak (body, DOM, typed items):
    # a walk of exactly one page, minus the baseline.
    page_mb = statistics.median(x["rss_mb"] for x in res["page"]) - base
    rows.append(("6 memory, %d v1 samples walked" % walked, "peak RSS above baseline, read-ahead",
                 "%.1f MB" % (ra - base), "baseline %.1f MB, peak %.1f MB" % (base, ra), "< 40 MB",
                 status(ra - base < 40)))
    rows.append(("", "read-ahead vs none", "%+.1f MB" % (ra - nora), "without read-ahead %.1f MB" % (nora - base),
                 "<= one page (%.1f MB)" % page_mb, status(ra - nora <= page_mb)))
    if walked > 12000:
        notes.append("Memory: the v1 mock holds 12,000 samples, so the %d samples are walked as consecutive "
                     "walks of the samples list (page size 100); memory depends on the page, not on the "
                     "length of the list." % walked)

# Transport facts --------------------------------------------------------------
transport = subprocess.run([SDK, "transport", "--v1", MGZ["v1"]], capture_output=True, text=True).stdout.strip()


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except Exception:
        return "?"


cpu = sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip()
machine = [
    "nproc: %s" % sh("nproc"),
    "CPU: %s" % cpu,
    "kernel: %s" % platform.release(),
    "compiler: %s" % sh("c++ --version | head -1"),
    "Python: %s, requests %s" % (sh("/usr/bin/python3 -c 'import sys;print(sys.version.split()[0])'"),
                                 sh("/usr/bin/python3 -c 'import requests;print(requests.__version__)'")),
    "load average at the end: %s" % sh("cut -d' ' -f1-3 /proc/loadavg"),
]

header = "| Scenario | Measure | Median | Ratio | Target | Status |\n|---|---|---|---|---|---|\n"
table = header + "".join("| %s | %s | %s | %s | %s | %s |\n" % r for r in rows)
print(table)

# bench/compile_time.sh owns its section of the same file; keep it across runs.
compile_section = ""
if os.path.exists(args.out):
    with open(args.out) as previous:
        found = re.search(r"<!-- compile-time: begin.*?<!-- compile-time: end -->\n", previous.read(), re.S)
        compile_section = found.group(0) if found else ""

with open(args.out, "w") as f:
    f.write("# Benchmarks\n\n")
    f.write("Generated by `bench/run.sh%s` on %s. Medians of %d runs per contender; contenders "
            "alternate run by run. The mock (`mgnify-mock`, %d worker threads, latency added as a "
            "sleep in the handler) runs on loopback with compression off (the v1 mock still sends "
            "its cached pages gzip-compressed to any client accepting gzip, as all contenders do), so "
            "every client receives the same bytes.%s\n\n"
            % ((" --quick" if Q else "") + (" --before " + args.before_label if BEFORE else ""), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), runs,
               args.mock_threads, " **Quick run: reduced sizes, not the issue's figures.**" if Q else ""))
    f.write("## Machine\n\n" + "".join("- %s\n" % m for m in machine) + "\n")
    f.write("## Results\n\n" + table + "\n")
    if compile_section:
        f.write(compile_section + "\n")
    f.write("## Notes\n\n" + "".join("- %s\n" % n for n in notes))
    f.write("\n## Transport\n\n```\n%s\n```\n" % transport)
    analysis = os.path.join(HERE, "analysis.md")
    if os.path.exists(analysis):
        with open(analysis) as a:
            f.write("\n" + a.read())
