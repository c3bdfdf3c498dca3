#!/usr/bin/env python3
"""Baseline (b): Python with requests.Session, the way MGnify's own notebooks
and scripts walk the API: one Session (keep-alive), a plain loop, .json() on
each response. Prints the same JSON line as the C++ programs."""

import json
import sys
import time

import requests


def report(seconds, items, nbytes=0):
    print(json.dumps({"seconds": round(seconds, 6), "items": items, "bytes": nbytes}), flush=True)


def protein_accession(i):
    return "MGYP%012d" % (10 + 3 * (i % 2000))


def fanout(a):
    s = requests.Session()
    base = a["proteins"]
    start = time.perf_counter()
    hits = s.get(base + "/protein/search", params={"pfam_accession": a.get("family", "PF00005"),
                                                    "limit": a.get("limit", "1000")}).json()
    n = 0
    for hit in hits:
        r = s.get(base + "/protein/" + hit["mgyp"])
        r.raise_for_status()
        n += 1 if r.json()["sequence"] else 0
    report(time.perf_counter() - start, n)


def linkwalk(a):
    s = requests.Session()
    url = a["v1"] + "/studies"
    params = {"page_size": a.get("page-size", "100")}
    start = time.perf_counter()
    n = 0
    while url:
        r = s.get(url, params=params)
        r.raise_for_status()
        doc = r.json()
        n += len(doc["data"])
        url = doc["links"]["next"]
        params = None  # links.next already carries the query
    report(time.perf_counter() - start, n)


def counted(a):
    s = requests.Session()
    page_size = int(a.get("page-size", "100"))
    start = time.perf_counter()
    n = 0
    page = 1
    while True:
        r = s.get(a["v2"] + "/analyses/", params={"page": page, "page_size": page_size})
        r.raise_for_status()
        doc = r.json()
        n += len(doc["items"])
        if page * page_size >= doc["count"]:
            break
        page += 1
    report(time.perf_counter() - start, n)


def small(a):
    s = requests.Session()
    base = a["proteins"]
    count = int(a.get("count", "10000"))
    start = time.perf_counter()
    n = 0
    for i in range(count):
        r = s.get(base + "/protein/" + protein_accession(i))
        r.raise_for_status()
        n += 1 if r.json()["sequence"] else 0
    report(time.perf_counter() - start, n)


def decode(a):
    docs = []
    with open(a["corpus"], "rb") as f:
        for line in f:
            kind, _, body = line.rstrip(b"\n").partition(b"\t")
            docs.append(body)
    target = int(a.get("mb", "100")) * 1000 * 1000
    nbytes = 0
    items = 0
    i = 0
    start = time.perf_counter()
    while nbytes < target:
        body = docs[i]
        items += len(json.loads(body))
        nbytes += len(body)
        i = (i + 1) % len(docs)
    report(time.perf_counter() - start, items, nbytes)


def main():
    scenario = sys.argv[1]
    rest = sys.argv[2:]
    a = {rest[i][2:]: rest[i + 1] for i in range(0, len(rest), 2)}
    {"fanout": fanout, "linkwalk": linkwalk, "counted": counted, "small": small,
     "decode": decode}[scenario](a)


if __name__ == "__main__":
    main()
