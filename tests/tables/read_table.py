"""Reads a TSV or CSV file the way its users do, with each reader's defaults,
and prints what it read as JSON: {"columns": [...], "rows": [[cell, ...], ...]},
a cell null where the reader found no value.

usage: read_table.py csv|pandas SEPARATOR FILE
Exits 77 when the reader is not installed, so that the test reports a skip.
"""
import json
import sys


def main():
    reader, separator, path = sys.argv[1], sys.argv[2], sys.argv[3]
    if separator == "tab":
        separator = "\t"
    if reader == "csv":
        import csv
        # Python's csv refuses fields over 128 KiB unless told otherwise; the
        # dialect (quoting, doubled quotes, no escape character) stays the default.
        csv.field_size_limit(1 << 30)
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f, delimiter=separator))
        print(json.dumps({"columns": rows[0], "rows": rows[1:]}))
    elif reader == "pandas":
        try:
            import pandas
        except ImportError:
            sys.exit(77)
        frame = pandas.read_csv(path, sep=separator)
        rows = [[None if pandas.isna(v) else str(v) for v in row]
                for row in frame.itertuples(index=False, name=None)]
        print(json.dumps({"columns": [str(c) for c in frame.columns], "rows": rows}))
    else:
        sys.exit("unknown reader " + reader)


main()
