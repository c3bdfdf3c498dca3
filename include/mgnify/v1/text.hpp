#pragma once

// The v1 endpoints that answer with text rather than JSON: an analysis's
// contigs as FASTA and their annotations as GFF, the QC charts' TSV data, and
// any list rendered with `?format=csv`.

#include "mgnify/enum_table.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

/// The QC chart data of an analysis (`analyses/{acc}/{chart}`, text/tsv).
enum class QcChart { gc_distribution, nucleotide_distribution, seq_length, summary };

/// The path segment of each chart.
constexpr auto enum_names(QcChart) {
  return enum_table<QcChart>({
      {QcChart::gc_distribution, "gc-distribution"},
      {QcChart::nucleotide_distribution, "nucleotide-distribution"},
      {QcChart::seq_length, "seq-length"},
      {QcChart::summary, "summary"},
  });
}

/// The path segment of a chart.
inline const char* qc_chart_path(QcChart chart) {
  const char* path = enum_text(chart);
  if (*path == '\0') throw InvalidArgument("unknown QcChart");
  return path;
}

/// Which GFF of a contig: the pipeline's annotations or antiSMASH's (`?antismash=True`).
enum class ContigGff { pipeline, antismash };

/// The largest list the service renders as CSV; a longer one answers 413
/// (payload_too_large) and must be walked page by page instead.
inline constexpr long kMaxCsvRows = 1250;

}  // namespace v1
MGNIFY_NAMESPACE_END
