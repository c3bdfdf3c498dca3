#pragma once

// An abundance matrix's columns as samples, and the column metadata that
// phyloseq (sample_data) and mia (colData) read from a BIOM file: the study,
// sample, run and analysis accessions and the sample's own fields.
//
// The several-analyses rule: a sample can have several analyses in one
// matrix (several runs of the sample, or a run analysed more than once with
// the same pipeline). by_sample then makes one column of them as `merge` says:
// - SampleMerge::sum adds their counts, as phyloseq's merge_samples and mia's
//   agglomerateByVariable(by = "cols") do when runs are pooled;
// - SampleMerge::first keeps the analysis with the lowest accession (the
//   oldest) and SampleMerge::last the one with the highest (the newest).
// Every column records which analyses it has and which it left out, so the
// caller can say so. An analysis whose sample is not known keeps a column of
// its own, named by the analysis.

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/tables/abundance.hpp"
#include "mgnify/tables/table.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace tables {

/// Where an analysis's counts come from.
struct AnalysisOrigin {
  std::string analysis;
  std::string study;
  std::string sample;  ///< "" when the service named none
  std::string run;     ///< "" for an analysis of an assembly without a run
  std::string experiment_type;
};

enum class SampleMerge { sum, first, last };

/// One column of a matrix and the analyses behind it.
struct MatrixColumn {
  std::string id;  ///< a sample accession, or an analysis accession
  std::string sample;
  /// The analyses of this sample in the matrix, by ascending accession.
  std::vector<std::string> analyses;
  /// Those whose counts are in the column (all of them for sum).
  std::vector<std::string> used;
};

/// A matrix with one column per sample and what each column holds.
struct SampleMatrix {
  AbundanceMatrix matrix;
  std::vector<MatrixColumn> columns;
};

namespace detail {

MGNIFY_DECL const AnalysisOrigin* origin_of(const std::vector<AnalysisOrigin>& origins,
                                            const std::string& analysis);

/// The distinct non-empty values, in the order met, joined by ",".
template <class Get>
std::string distinct_joined(const std::vector<const AnalysisOrigin*>& origins, Get get) {
  std::vector<std::string> seen;
  for (const AnalysisOrigin* o : origins) {
    const std::string& value = get(*o);
    if (!value.empty() && std::find(seen.begin(), seen.end(), value) == seen.end())
      seen.push_back(value);
  }
  std::string out;
  for (const auto& v : seen) out += (out.empty() ? "" : ",") + v;
  return out;
}

}  // namespace detail

/// The columns of a matrix by analysis, each its own.
MGNIFY_DECL std::vector<MatrixColumn> analysis_columns(const AbundanceMatrix& matrix,
                                                       const std::vector<AnalysisOrigin>& origins);

/// The matrix with one column per sample (see the several-analyses rule
/// above), columns in the order their samples' first analyses come in
/// `by_analysis`. Rows keep their order; a feature only the left-out
/// analyses found (first, last) is not in the result.
MGNIFY_DECL SampleMatrix by_sample(const AbundanceMatrix& by_analysis,
                                   const std::vector<AnalysisOrigin>& origins, SampleMerge merge);

/// The column metadata of a matrix: one object per column, every object with
/// the same keys in the same order, each value text ("" where there is none),
/// since phyloseq's import_biom builds sample_data only from columns whose
/// metadata have the same length. The keys: study_accession,
/// sample_accession, run_accession, analysis_accession, experiment_type
/// (several values joined by ","), then every column of `samples` but its
/// first, which is the sample accession the row is found by (the tables of
/// sample_metadata, one per study; a name taken by one of the keys before
/// gets " (sample)" appended).
MGNIFY_DECL std::vector<nlohmann::ordered_json> column_metadata(
    const std::vector<MatrixColumn>& columns, const std::vector<AnalysisOrigin>& origins,
    const std::vector<Table>& samples);

}  // namespace tables
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/tables/impl/sample_columns.ipp"
#endif
