#pragma once

// The files of a study, analysis or genome as one flat table (the manifest),
// from either API, filtered like mg-toolkit's `bulk_download -p VERSION -g GROUP`.

#include <cstddef>
#include <exception>
#include <map>
#include <mgnify/files/manifest.hpp>
#include <set>
#include <string>
#include <vector>

#include "settings.hpp"

namespace mgnify_cli {

// The manifest's row, columns and reader are the library's (mgnify/files/manifest.hpp).
using mgnify::files::FileRow;
using mgnify::files::manifest_columns;
using mgnify::files::read_manifest;

enum class Api { v1, v2 };

struct Selection {
  Api api = Api::v2;
  std::string accession;
  std::string pipeline;             // -p: "5.0", "V6", "6.1"; empty: every version
  std::vector<std::string> groups;  // -g: any of these; empty: every group
  bool study_summaries = false;     // a study's own summary files instead of its analyses' files
  std::size_t concurrency = 4;
};

/// "V5", "v5.0" and "5" name the same pipeline: "5".
std::string normalise_version(const std::string& version);
/// "Taxonomic analysis SSU rRNA" and "taxonomic_analysis_ssu_rrna" are the same group.
std::string normalise_group(const std::string& group);

/// The groups -g is known to take, for completion: v2 download groups, v2
/// download types and v1 group types, in the normalised spelling. -g takes
/// any other group too; the services add groups without notice.
std::vector<std::string> known_groups();

/// The v1 group type (as normalise_group spells it) that holds what the v2
/// download group `v2_group` holds, so that a v2 command's pre-V6 fallback
/// can name the API v1 command that works; any other group as it is.
std::string v1_group_of(const std::string& v2_group);

/// What a listing met before its -p and -g filters: what those filters could
/// have named instead when they matched nothing.
struct Available {
  std::set<std::string> pipelines;
  std::set<std::string> groups;  // as -g takes them: v1 group types, v2 download groups and types
  // The objects listed whose pipeline -p selected, in listing order, whether
  // or not -g left a file of theirs: the analyses a table must account for.
  std::vector<std::string> owners;
};

/// Lists the selected files. Per-object failures (one analysis of a study)
/// are printed to stderr and reported through `first_error`; the other rows
/// are still returned. `available`, when given, receives what the filters saw.
std::vector<FileRow> list_files(const Selection& selection, const Settings& settings,
                                std::exception_ptr& first_error, Available* available = nullptr);

/// A study's listing reads every analysis (a request each) before -g can be
/// judged, so a mistyped group is caught first: -g groups that are none MGnify
/// is known to publish, and that no file of the study's first analysis has
/// either, throw NothingMatched (exit 3) after two requests, naming that
/// analysis's groups. Anything else returns, for the listing to judge.
void check_groups_first(const Selection& selection, const Settings& settings);

/// "0 files matched -p 5.0 -g taxonomic_analysis; pipelines available: V6, V6.1; groups
/// available: ..." when a filter left nothing of a listing, else "".
std::string no_match_message(const Selection& selection, const std::vector<FileRow>& rows,
                             const Available& available);

/// API v2 lists pre-V6 (legacy) results without a URL; API v1 serves them.
/// v2 imported each legacy analysis under its v1 accession with the files'
/// v1 aliases, so a file is found on v1 by owner accession (MGYA analysis or
/// MGYS study) and alias.
struct LegacyRouting {
  std::vector<bool> from_v1;        // per row: its URL and checksum come from API v1
  std::size_t unrouted = 0;         // rows still without a URL
  std::size_t failed_lookups = 0;   // owners whose v1 listing failed
  std::exception_ptr lookup_error;  // the first of those failures
  // Per owner accession, why its v1 listing failed: its files are then not
  // known to be missing from v1, only not looked up.
  std::map<std::string, std::exception_ptr> lookup_error_of;
};

/// The settings for reaching API v1 on behalf of a v2 command: --base-url
/// and --token-env name the v2 service, so v1 is found through its own
/// environment variable (else the public service), and its files, which are
/// public, are fetched without the token.
Settings legacy_v1_settings(const Settings& settings);

/// Fills `url` and the v1 checksum of every row without a URL that API v1
/// lists under the same owner and alias. One v1 listing per owner.
LegacyRouting route_legacy_files(std::vector<FileRow>& rows, const Settings& settings,
                                 std::size_t concurrency);

/// The one line that says how many files stayed without a URL and the
/// command that fetches them from API v1.
std::string unrouted_message(const std::vector<FileRow>& rows, const LegacyRouting& routing,
                             const Selection& selection, bool from_manifest,
                             const std::string& dir);

/// `text` as one shell word: as it is when that is safe, else single-quoted.
std::string shell_word(const std::string& text);

/// True for an accession a suggested command may name: an MGYS, MGYA or
/// MGYG accession or an INSDC study accession, each exactly in the
/// services' spelling (upper case, MGnify's zero padding).
bool pasteable_accession(const std::string& text);

}  // namespace mgnify_cli
