#!/usr/bin/env python3
"""Merges per-study tables of `mgnify abundance-table --format tsv` into one
feature-by-analysis matrix, and per-study `mgnify samples-table --format tsv`
into one metadata table.

Matrix: the union of the features (first column), in the order first met; a
column per analysis (MGYA accession) of every study, in study order; 0 where a
study's table does not list a feature (each table lists every feature its
analyses found, so an absent feature was not found); the feature's attribute
columns (taxonomy ranks, descriptions) kept, their first non-empty value. An
analysis in two studies' tables, or a feature whose attribute differs between
tables, is an error rather than a silent choice.

Metadata: every row of every samples table with a leading `study` column, and
the union of the columns (empty where a study has no such column).

Standard library only, so it runs wherever snakemake does.
"""

import argparse
import csv
import re
import sys

ANALYSIS = re.compile(r"^MGYA\d+$")


def read_tsv(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_MINIMAL))
    if not rows:
        sys.exit(f"merge_tables: {path} is empty")
    return rows[0], rows[1:]


def merge_abundance(paths):
    feature_name = None
    attributes = []  # attribute column names, in order first met
    analyses = []
    features = {}  # feature -> {"attrs": {name: value}, "counts": {analysis: text}}
    order = []
    for path in paths:
        header, rows = read_tsv(path)
        if feature_name is None:
            feature_name = header[0]
        elif header[0] != feature_name:
            sys.exit(f"merge_tables: {path} has features '{header[0]}', not '{feature_name}'")
        cols = [(i, name) for i, name in enumerate(header) if i > 0]
        for _, name in cols:
            if ANALYSIS.match(name):
                if name in analyses:
                    sys.exit(f"merge_tables: analysis {name} is in more than one table ({path})")
                analyses.append(name)
            elif name not in attributes:
                attributes.append(name)
        for line, row in enumerate(rows, start=2):
            if len(row) != len(header):
                sys.exit(f"merge_tables: {path} line {line} has {len(row)} cells, not {len(header)}")
            key = row[0]
            entry = features.get(key)
            if entry is None:
                entry = features[key] = {"attrs": {}, "counts": {}}
                order.append(key)
            for i, name in cols:
                if ANALYSIS.match(name):
                    entry["counts"][name] = row[i]
                elif row[i]:
                    old = entry["attrs"].get(name)
                    if old and old != row[i]:
                        sys.exit(f"merge_tables: {key}: {name} is '{old}' in one table and "
                                 f"'{row[i]}' in {path}")
                    entry["attrs"][name] = row[i]
    header = [feature_name] + attributes + analyses
    out = [header]
    for key in order:
        e = features[key]
        out.append([key] + [e["attrs"].get(a, "") for a in attributes] +
                   [e["counts"].get(a, "0") for a in analyses])
    return out


def merge_metadata(studies, paths):
    columns = []
    rows = []
    for study, path in zip(studies, paths):
        header, body = read_tsv(path)
        for name in header:
            if name not in columns:
                columns.append(name)
        for row in body:
            rows.append((study, dict(zip(header, row))))
    out = [["study"] + columns]
    for study, cells in rows:
        out.append([study] + [cells.get(c, "") for c in columns])
    return out


def write_tsv(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        writer.writerows(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--studies", nargs="+", required=True)
    parser.add_argument("--tables", nargs="+", required=True)
    parser.add_argument("--samples", nargs="+", required=True)
    parser.add_argument("--abundance-out", required=True)
    parser.add_argument("--metadata-out", required=True)
    args = parser.parse_args()
    if not (len(args.studies) == len(args.tables) == len(args.samples)):
        sys.exit("merge_tables: give one table and one samples table per study")
    write_tsv(args.abundance_out, merge_abundance(args.tables))
    write_tsv(args.metadata_out, merge_metadata(args.studies, args.samples))


if __name__ == "__main__":
    main()
