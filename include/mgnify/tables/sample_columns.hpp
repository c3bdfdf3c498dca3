#pragma once

// An abundance matrix's columns as samples, and the column metadata that
// phyloseq (sample_data) and mia (colData) read from a BIOM file: the study,
// sample, run and analysis accessions and the sample's own fields.
//
// The several-analyses rule: a sample can have several analyses in one
// matrix: a run analysed more than once (again with a newer pipeline, or
// the same pipeline twice), several runs of the sample, or runs of different
// experiment types (an amplicon run and a metagenome). by_sample makes its
// columns as `merge` says:
// - SampleMerge::pool_runs (the default) never adds a run to itself: of the
//   analyses of one run it keeps one, the newest pipeline version and then
//   the newest analysis (highest accession); an analysis whose counts are
//   identical to a kept one's (the same file again, under another run or
//   none) is not added either. The runs left are pooled, their counts
//   summed as phyloseq's merge_samples and mia's agglomerateByVariable do,
//   when they share an experiment type; runs of different experiment types
//   are never summed: the sample gets one column per type, named
//   "SAMPLE_TYPE".
// - SampleMerge::first keeps the analysis with the lowest accession (the
//   oldest) and SampleMerge::last the one with the highest (the newest).
// Every column records which analyses it has, which it used, and why each
// other one was left out, so the caller can say so. An analysis whose sample
// is not known keeps a column of its own, named by the analysis.

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
#include "mgnify/tables/sample_metadata.hpp"
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
  std::string pipeline_version;  ///< "V6", "5.0"; "" when unknown (oldest)
};

enum class SampleMerge {
  pool_runs,
  first,
  last,
  /// The former name of pool_runs, which never added re-analyses of a run either.
  sum [[deprecated("use SampleMerge::pool_runs")]] = pool_runs
};

/// An analysis a column does not use, and why.
struct LeftOut {
  enum class Reason {
    same_run,          ///< another analysis of its run was kept
    identical_counts,  ///< its counts equal those of `kept`
    not_chosen         ///< SampleMerge::first or last chose `kept`
  };
  std::string analysis;
  std::string kept;  ///< the analysis used in its place
  Reason reason;
};

/// One column of a matrix and the analyses behind it.
struct MatrixColumn {
  std::string id;  ///< a sample accession (with "_TYPE" when split by type), or an analysis
  std::string sample;
  /// The analyses of this column in the matrix, by ascending accession.
  std::vector<std::string> analyses;
  /// Those whose counts are in the column.
  std::vector<std::string> used;
  /// The others, each with the analysis kept instead and why.
  std::vector<LeftOut> left_out;
  /// Set when the sample's runs had several experiment types: this column's.
  std::string experiment_type;
};

/// Whether pipeline version `a` is older than `b`: numbers compared part by
/// part ("V4.1" < "5.0" < "V6" < "V6.1"); a leading "v" is ignored, and an
/// unknown ("") version is the oldest.
MGNIFY_DECL bool older_pipeline(const std::string& a, const std::string& b);

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

/// The matrix with one column per sample (one per sample and experiment
/// type where its runs have several; see the several-analyses rule above),
/// columns in the order their samples' first analyses come in `by_analysis`.
/// Rows keep their order; a feature only the left-out analyses found is not
/// in the result.
MGNIFY_DECL SampleMatrix by_sample(const AbundanceMatrix& by_analysis,
                                   const std::vector<AnalysisOrigin>& origins,
                                   SampleMerge merge = SampleMerge::pool_runs);

/// The column metadata of a matrix: one object per column, every object with
/// the same keys in the same order, each value text ("" where there is none),
/// since phyloseq's import_biom builds sample_data only from columns whose
/// metadata have the same length. The keys: study_accession,
/// sample_accession, run_accession, analysis_accession, experiment_type
/// (several values joined by ","), then every column of `samples` but its
/// first, which is the sample accession the row is found by (the tables of
/// sample_metadata, one per study; a name taken by one of the keys before
/// gets " (sample)" appended).
///
/// Every object has every key, so the result holds columns times keys
/// values: past TableLimits::max_cells (or keys past max_columns) it throws
/// TableLimitError instead.
MGNIFY_DECL std::vector<nlohmann::ordered_json> column_metadata(
    const std::vector<MatrixColumn>& columns, const std::vector<AnalysisOrigin>& origins,
    const std::vector<SampleMetadataTable>& samples, const TableLimits& limits = {});

/// As above, from the samples' tables as text cells.
MGNIFY_DECL std::vector<nlohmann::ordered_json> column_metadata(
    const std::vector<MatrixColumn>& columns, const std::vector<AnalysisOrigin>& origins,
    const std::vector<Table>& samples, const TableLimits& limits = {});

}  // namespace tables
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/tables/impl/sample_columns.ipp"
#endif
