"""Loads a BIOM file with the BIOM format's reference implementation
(biom.load_table, Debian's python3-biom-format) and prints what it read as
JSON: {"rows": [...], "columns": [...], "counts": [[...], ...] (rows by
columns), "taxonomy": {row: [rank, ...]}, "sample_metadata": {column: {...}}}.

usage: read_biom.py FILE
Exits 77 when biom-format is not installed, so that the test reports a skip.
"""
import json
import sys


def main():
    try:
        import biom
    except ImportError:
        sys.exit(77)
    table = biom.load_table(sys.argv[1])
    rows = [str(i) for i in table.ids(axis="observation")]
    columns = [str(i) for i in table.ids(axis="sample")]
    dense = table.matrix_data.toarray()
    counts = [[float(v) for v in row] for row in dense]
    taxonomy = {}
    for row in rows:
        metadata = table.metadata(row, axis="observation")
        if metadata and "taxonomy" in metadata:
            taxonomy[row] = [str(rank) for rank in metadata["taxonomy"]]
    sample_metadata = {}
    for column in columns:
        metadata = table.metadata(column, axis="sample")
        sample_metadata[column] = {str(k): v for k, v in (metadata or {}).items()}
    print(json.dumps({"rows": rows, "columns": columns, "counts": counts,
                      "taxonomy": taxonomy, "sample_metadata": sample_metadata}))


main()
