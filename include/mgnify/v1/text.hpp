#pragma once

// The v1 endpoints that answer with text rather than JSON: an analysis's
// contigs as FASTA and their annotations as GFF, the QC charts' TSV data, and
// any list rendered with `?format=csv`.

#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

/// The QC chart data of an analysis (`analyses/{acc}/{chart}`, text/tsv).
enum class QcChart { gc_distribution, nucleotide_distribution, seq_length, summary };

/// The path segment of a chart.
inline const char* qc_chart_path(QcChart chart) {
  switch (chart) {
    case QcChart::gc_distribution:
      return "gc-distribution";
    case QcChart::nucleotide_distribution:
      return "nucleotide-distribution";
    case QcChart::seq_length:
      return "seq-length";
    case QcChart::summary:
      return "summary";
  }
  throw InvalidArgument("unknown QcChart");
}

/// Which GFF of a contig: the pipeline's annotations or antiSMASH's (`?antismash=True`).
enum class ContigGff { pipeline, antismash };

/// The largest list the service renders as CSV; a longer one answers 413
/// (payload_too_large) and must be walked page by page instead.
inline constexpr long kMaxCsvRows = 1250;

}  // namespace v1
MGNIFY_NAMESPACE_END
