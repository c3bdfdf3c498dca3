// The enum tables of enum_table.hpp: each lists every value of its enum once
// (the open v2 enums are checked in tests/v2/models_test.cpp), and text and
// value convert both ways through it.

#include "mgnify/enum_table.hpp"

#include <catch2/catch.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "mgnify/files/checksum.hpp"
#include "mgnify/genome_search/models.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/proteins/search_query.hpp"
#include "mgnify/proteins/sequence_search.hpp"
#include "mgnify/v1/query.hpp"
#include "mgnify/v1/text.hpp"

namespace {

/// The table names the enumerators 0..`last` (or 0..`last` - 1 when `last`
/// is an open enum's `unknown`), each once and in declaration order, so a
/// new enumerator without a text fails here as a missing switch case would.
template <class E>
constexpr bool names_each_value_up_to(E last, bool last_is_unknown) {
  std::size_t count = 0;
  for (const auto& name : enum_names(last)) {
    if (static_cast<std::size_t>(name.value) != count) return false;
    ++count;
  }
  return count == static_cast<std::size_t>(last) + (last_is_unknown ? 0 : 1);
}

using mgnify::files::HashAlgorithm;
using mgnify::http::Method;
using mgnify::proteins::SequenceDatabase;
using Filter = mgnify::proteins::SearchQuery::Filter;
using mgnify::JobState;
using mgnify::v1::QcChart;
using mgnify::v1::TaxonomyKind;

static_assert(names_each_value_up_to(Method::options, false));
static_assert(names_each_value_up_to(QcChart::summary, false));
static_assert(names_each_value_up_to(TaxonomyKind::unite, false));
static_assert(names_each_value_up_to(SequenceDatabase::partial, false));
static_assert(names_each_value_up_to(Filter::biome_lineage, false));
static_assert(names_each_value_up_to(HashAlgorithm::sha256, false));
static_assert(names_each_value_up_to(JobState::unknown, true));

// The table's size is its list's length, and lookups work at compile time.
static_assert(enum_names(Method{}).size() == 7);
static_assert(std::string_view(mgnify::enum_text(Method::del)) == "DELETE");
static_assert(mgnify::enum_value<QcChart>("seq-length") == QcChart::seq_length);
static_assert(!mgnify::enum_value<QcChart>("seq_length").has_value());

template <class E>
void check_round_trips(E any) {
  for (const auto& name : enum_names(any)) {
    CAPTURE(name.text);
    CHECK(std::string(mgnify::enum_text(name.value)) == name.text);
    CHECK(mgnify::enum_value<E>(name.text) == std::optional<E>(name.value));
  }
}

}  // namespace

TEST_CASE("every enum table reads its texts back as their values", "[enum-table]") {
  check_round_trips(Method{});
  check_round_trips(QcChart{});
  check_round_trips(TaxonomyKind{});
  check_round_trips(SequenceDatabase{});
  check_round_trips(Filter{});
  check_round_trips(HashAlgorithm{});
  check_round_trips(JobState{});
}

TEST_CASE("the named helpers read the same tables", "[enum-table]") {
  CHECK(std::string(mgnify::v1::qc_chart_path(QcChart::nucleotide_distribution)) ==
        "nucleotide-distribution");
  CHECK(std::string(mgnify::v1::taxonomy_path(TaxonomyKind::itsonedb)) == "taxonomy/itsonedb");
  CHECK(std::string(mgnify::proteins::database_name(SequenceDatabase::all)) == "all");
  CHECK(mgnify::proteins::parse_sequence_database("partial") == SequenceDatabase::partial);
  CHECK_FALSE(mgnify::proteins::parse_sequence_database("Partial").has_value());
  CHECK(std::string(mgnify::files::hash_algorithm_name(HashAlgorithm::sha1)) == "SHA1");
  // Case and separators do not matter to the algorithm names.
  CHECK(mgnify::files::parse_hash_algorithm("sha-256") == HashAlgorithm::sha256);
  CHECK(mgnify::files::parse_hash_algorithm("Md5") == HashAlgorithm::md5);
  CHECK(mgnify::files::parse_hash_algorithm("SHA_1") == HashAlgorithm::sha1);
  CHECK_FALSE(mgnify::files::parse_hash_algorithm("sha512").has_value());
}

TEST_CASE("a job state the table does not know keeps its text", "[enum-table]") {
  const mgnify::JobStatus known("PARTIAL_SUCCESS");
  CHECK(known.state() == JobState::partial_success);
  CHECK(known.has_results());
  const mgnify::JobStatus fresh("CANCELLED");
  CHECK(fresh.state() == JobState::unknown);
  CHECK(fresh.text == "CANCELLED");
  CHECK_FALSE(fresh.finished());
  CHECK(mgnify::JobStatus("queued").state() == JobState::unknown);
}

TEST_CASE("a value cast outside its enum's set is refused, not sent as another value",
          "[enum-table]") {
  // Each of these builds a request: a default in place of the value asked
  // for would fetch another list, search another database or filter on
  // another field.
  CHECK_THROWS_AS(mgnify::v1::taxonomy_path(static_cast<TaxonomyKind>(99)),
                  mgnify::InvalidArgument);
  CHECK_THROWS_AS(mgnify::proteins::database_name(static_cast<SequenceDatabase>(99)),
                  mgnify::InvalidArgument);
  CHECK_THROWS_AS(mgnify::proteins::SearchQuery::parameter_name(static_cast<Filter>(99)),
                  mgnify::InvalidArgument);
  CHECK_THROWS_WITH(mgnify::v1::taxonomy_path(static_cast<TaxonomyKind>(99)),
                    Catch::Contains("TaxonomyKind 99"));
}
