#include "file_listing.hpp"

#include <cctype>
#include <exception>
#include <iostream>
#include <map>
#include <mgnify/accession.hpp>
#include <mgnify/concurrency/parallel_map.hpp>
#include <mgnify/v1.hpp>
#include <mgnify/v2.hpp>
#include <mutex>
#include <optional>
#include <sstream>

#include "output.hpp"
#include "progress.hpp"

namespace mgnify_cli {

namespace v1 = mgnify::v1;
namespace v2 = mgnify::v2;

std::string normalise_version(const std::string& version) {
  std::string v;
  for (char c : version) {
    if (!std::isspace(static_cast<unsigned char>(c)))
      v.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  if (!v.empty() && v.front() == 'v') v.erase(v.begin());
  while (v.size() > 2 && v.compare(v.size() - 2, 2, ".0") == 0) v.resize(v.size() - 2);
  return v;
}

std::string normalise_group(const std::string& group) {
  std::string out;
  for (char c : group) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      out.push_back(static_cast<char>(std::tolower(u)));
    } else if (!out.empty() && out.back() != '_') {
      out.push_back('_');
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

std::vector<std::string> known_groups() {
  // v2 groups from the API's documentation and captured responses; v2
  // download types and v1 group types as normalise_group spells them.
  return {"quality_control",
          "taxonomies",
          "taxonomies.closed_reference",
          "taxonomies.closed_reference.ssu",
          "taxonomies.closed_reference.lsu",
          "taxonomies.closed_reference.its",
          "taxonomies.closed_reference.uniref",
          "taxonomies.asv",
          "functional_annotation",
          "functional_annotation.pfams",
          "functional_annotation.interpro_identifiers",
          "functional_annotation.go_slims",
          "functional_annotation.go_terms",
          "functional_annotation.kegg",
          "functional_annotation.eggnog",
          "functional_annotation.dbcan",
          "functional_annotation.rhea_reactions",
          "pathways_and_systems",
          "annotation_summary",
          "mobilome_annotation_pipeline",
          "virify",
          "primer_identification",
          "study_summary",
          "coding_sequences",
          "sequence_data",
          "functional_analysis",
          "taxonomic_analysis",
          "statistics",
          "non_coding_rnas",
          "genome_analysis",
          "taxonomic_analysis_ssu_rrna",
          "taxonomic_analysis_lsu_rrna"};
}

std::string v1_group_of(const std::string& v2_group) {
  auto under = [&v2_group](const std::string& prefix) {
    return v2_group == prefix || v2_group.rfind(prefix + ".", 0) == 0;
  };
  if (under("taxonomies.closed_reference.ssu")) return "taxonomic_analysis_ssu_rrna";
  if (under("taxonomies.closed_reference.lsu")) return "taxonomic_analysis_lsu_rrna";
  if (under("taxonomies")) return "taxonomic_analysis";
  if (under("functional_annotation")) return "functional_analysis";
  if (under("pathways_and_systems")) return "pathways_and_systems";
  return v2_group;
}

namespace {

enum class Kind { study, ena_study, analysis, genome };

Kind kind_of(const std::string& accession) {
  switch (mgnify::accession_kind(accession).value_or(mgnify::AccessionKind::protein)) {
    case mgnify::AccessionKind::analysis:
      return Kind::analysis;
    case mgnify::AccessionKind::genome:
      return Kind::genome;
    case mgnify::AccessionKind::study:
      return mgnify::is_insdc_study_accession(accession) ? Kind::ena_study : Kind::study;
    default:
      break;
  }
  throw UsageError("cannot tell what '" + accession +
                   "' is: give an MGYS study (or its ERP/SRP/DRP/PRJ accession), MGYA analysis "
                   "or MGYG genome accession");
}

bool pipeline_selected(const Selection& s, const std::string& version) {
  return s.pipeline.empty() || normalise_version(s.pipeline) == normalise_version(version);
}

bool v1_group_selected(const Selection& s, const std::string& group) {
  if (s.groups.empty()) return true;
  for (const auto& g : s.groups) {
    if (normalise_group(g) == normalise_group(group)) return true;
  }
  return false;
}

bool v2_group_selected(const Selection& s, const v2::DownloadFile& file) {
  if (s.groups.empty()) return true;
  for (const auto& g : s.groups) {
    // The dotted group ("taxonomies.closed_reference") as a prefix, or mg-toolkit's
    // names for the download type ("taxonomic_analysis").
    if (file.in_group(g)) return true;
    if (normalise_group(g) == normalise_group(file.download_type.text)) return true;
    if (file.download_group && normalise_group(g) == normalise_group(*file.download_group))
      return true;
  }
  return false;
}

FileRow v1_row(const std::string& owner, const v1::Download& d, const std::string& pipeline,
               const std::string& experiment_type) {
  FileRow row;
  row.accession = owner;
  row.alias = d.alias.empty() ? d.id() : d.alias;
  row.pipeline_version = d.pipeline_version().value_or(pipeline);
  row.group = d.group_type.value_or("");
  if (d.description) row.description = d.description->label;
  if (d.file_format) row.file_type = d.file_format->name;
  row.experiment_type = experiment_type;
  row.url = d.self_link().value_or("");
  if (d.file_checksum) {
    row.checksum_algorithm = d.file_checksum->checksum_algorithm;
    row.checksum = d.file_checksum->checksum;
  }
  return row;
}

FileRow v2_row(const std::string& owner, const v2::DownloadFile& d, const std::string& pipeline,
               const std::string& experiment_type) {
  FileRow row;
  row.accession = owner;
  row.alias = d.alias;
  row.pipeline_version = pipeline;
  row.group = d.download_group.value_or("");
  row.description = d.short_description;
  row.file_type = d.file_type.text;
  row.experiment_type = experiment_type;
  row.url = d.url.value_or("");
  if (d.file_size_bytes && *d.file_size_bytes >= 0)
    row.size_bytes = static_cast<std::uint64_t>(*d.file_size_bytes);
  return row;
}

/// fetch(i) for every i < count, `concurrency` at a time, with a progress
/// line ("listing: 3/10 analyses") on a terminal.
template <class Fetch>
auto map_with_progress(const char* label, const char* what, std::size_t count,
                       std::size_t concurrency, Fetch fetch) {
  ProgressBar bar(label);
  std::mutex mutex;
  std::size_t done = 0;
  auto results = mgnify::parallel_map(count, concurrency, [&](std::size_t i) {
    auto value = fetch(i);
    std::lock_guard<std::mutex> lock(mutex);
    bar.items(++done, count, what);
    return value;
  });
  bar.finish();
  return results;
}

void note_failure(const std::string& what, const std::exception_ptr& error,
                  std::exception_ptr& first_error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    print_error(what + ": " + e.what());
  }
  if (!first_error) first_error = error;
}

std::vector<FileRow> list_v1(const Selection& s, const Settings& settings,
                             std::exception_ptr& first_error, Available& available) {
  const v1::LegacyClient client(client_options(settings, Service::v1));
  std::vector<FileRow> rows;
  auto add = [&](const std::string& owner, const std::vector<v1::Download>& downloads,
                 const std::string& pipeline, const std::string& experiment_type) {
    if (pipeline_selected(s, pipeline)) available.owners.push_back(owner);
    for (const auto& d : downloads) {
      FileRow row = v1_row(owner, d, pipeline, experiment_type);
      if (!row.pipeline_version.empty()) available.pipelines.insert(row.pipeline_version);
      if (!row.group.empty()) available.groups.insert(normalise_group(row.group));
      if (pipeline_selected(s, row.pipeline_version) && v1_group_selected(s, row.group))
        rows.push_back(std::move(row));
    }
  };
  // v1 names studies by their ENA accessions as well.
  mgnify::ListOptions pages;
  pages.page_size = v1::kMaxPageSize;
  switch (kind_of(s.accession)) {
    case Kind::genome:
      add(s.accession, client.genome_downloads(s.accession, {}, pages).collect(), "", "");
      break;
    case Kind::analysis: {
      const v1::Analysis analysis = client.analysis(s.accession);
      add(analysis.accession.empty() ? s.accession : analysis.accession,
          client.analysis_downloads(s.accession, {}, pages).collect(),
          analysis.pipeline_version.value_or(""), analysis.experiment_type.value_or(""));
      break;
    }
    case Kind::study:
    case Kind::ena_study: {
      if (s.study_summaries) {
        add(s.accession, client.study_downloads(s.accession, {}, pages).collect(), "", "");
        break;
      }
      std::vector<v1::Analysis> analyses;
      std::string first_analysis;
      for (auto& a : client.study_analyses(s.accession, pages)) {
        if (first_analysis.empty()) first_analysis = a.accession;
        if (a.pipeline_version) available.pipelines.insert(*a.pipeline_version);
        if (pipeline_selected(s, a.pipeline_version.value_or(""))) analyses.push_back(std::move(a));
      }
      if (analyses.empty() && !s.groups.empty() && !first_analysis.empty()) {
        // -p left no analysis, so no group was seen; one analysis shows what -g could name.
        for (const auto& d : client.analysis_downloads(first_analysis, {}, pages)) {
          if (d.group_type) available.groups.insert(normalise_group(*d.group_type));
        }
      }
      const auto results = map_with_progress(
          "listing", "analyses", analyses.size(), s.concurrency, [&](std::size_t i) {
            return client.analysis_downloads(analyses[i].accession, {}, pages).collect();
          });
      for (std::size_t i = 0; i < results.size(); ++i) {
        if (!results[i]) {
          note_failure(analyses[i].accession, results[i].exception(), first_error);
          continue;
        }
        add(analyses[i].accession, *results[i], analyses[i].pipeline_version.value_or(""),
            analyses[i].experiment_type.value_or(""));
      }
      break;
    }
  }
  return rows;
}

/// v2 files can be selected by dotted download group and by download type.
void note_v2_groups(const std::vector<v2::DownloadFile>& downloads, Available& available) {
  for (const auto& d : downloads) {
    if (d.download_group) available.groups.insert(*d.download_group);
    available.groups.insert(normalise_group(d.download_type.text));
  }
}

std::string pipeline_text(const v2::Analysis& a) {
  return a.pipeline_version ? a.pipeline_version->text : "";
}

std::vector<FileRow> list_v2(const Selection& s, const Settings& settings,
                             std::exception_ptr& first_error, Available& available) {
  const v2::V2Client client(client_options(settings, Service::v2));
  std::vector<FileRow> rows;
  auto add = [&](const std::string& owner, const std::vector<v2::DownloadFile>& downloads,
                 const std::string& pipeline, const std::string& experiment_type) {
    if (!pipeline.empty()) available.pipelines.insert(pipeline);
    if (pipeline_selected(s, pipeline)) available.owners.push_back(owner);
    note_v2_groups(downloads, available);
    for (const auto& d : downloads) {
      if (!pipeline_selected(s, pipeline) || !v2_group_selected(s, d)) continue;
      rows.push_back(v2_row(owner, d, pipeline, experiment_type));
    }
  };
  const Kind kind = kind_of(s.accession);
  // v2 names studies by MGYS only; an ENA accession is looked up first (a 404 if MGnify has none).
  const std::string study_accession = kind == Kind::ena_study
                                          ? client.study_by_insdc_accession(s.accession).accession
                                          : s.accession;
  switch (kind) {
    case Kind::genome: {
      const auto genome = client.genome(s.accession);
      add(s.accession, genome.downloads, "", "");
      break;
    }
    case Kind::analysis: {
      const auto analysis = client.analysis(s.accession);
      add(analysis.accession, analysis.downloads, pipeline_text(analysis),
          analysis.experiment_type.text);
      break;
    }
    case Kind::study:
    case Kind::ena_study: {
      if (s.study_summaries) {
        const auto study = client.study(study_accession);
        add(study.accession, study.downloads, "", "");
        break;
      }
      std::vector<std::string> accessions;
      std::string first_analysis;
      for (const auto& a : client.study_analyses(study_accession)) {
        if (first_analysis.empty()) first_analysis = a.accession;
        if (!pipeline_text(a).empty()) available.pipelines.insert(pipeline_text(a));
        if (pipeline_selected(s, pipeline_text(a))) accessions.push_back(a.accession);
      }
      if (accessions.empty() && !s.groups.empty() && !first_analysis.empty()) {
        // -p left no analysis, so no group was seen; one analysis shows what -g could name.
        note_v2_groups(client.analysis(first_analysis).downloads, available);
      }
      const auto results =
          map_with_progress("listing", "analyses", accessions.size(), s.concurrency,
                            [&](std::size_t i) { return client.analysis(accessions[i]); });
      for (std::size_t i = 0; i < results.size(); ++i) {
        if (!results[i]) {
          note_failure(accessions[i], results[i].exception(), first_error);
          continue;
        }
        add(results[i]->accession, results[i]->downloads, pipeline_text(*results[i]),
            results[i]->experiment_type.text);
      }
      break;
    }
  }
  return rows;
}

}  // namespace

std::vector<FileRow> list_files(const Selection& selection, const Settings& settings,
                                std::exception_ptr& first_error, Available* available) {
  if (selection.concurrency == 0) throw UsageError("--concurrency must be at least 1");
  Available seen;
  auto rows = selection.api == Api::v1 ? list_v1(selection, settings, first_error, seen)
                                       : list_v2(selection, settings, first_error, seen);
  if (available) *available = std::move(seen);
  if (settings.max_items && rows.size() > *settings.max_items) rows.resize(*settings.max_items);
  return rows;
}

namespace {

std::string comma_list(const std::set<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

std::string shell_word(const std::string& text) {
  const bool plain =
      !text.empty() && text.find_first_not_of(
                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"
                           "KLMNOPQRSTUVWXYZ0123456789_-.,/:=+@") == std::string::npos;
  if (plain) return text;
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string no_match_message(const Selection& selection, const std::vector<FileRow>& rows,
                             const Available& available) {
  if (!rows.empty() || (selection.pipeline.empty() && selection.groups.empty())) return {};
  std::string filters;
  if (!selection.pipeline.empty()) filters += " -p " + selection.pipeline;
  for (const auto& g : selection.groups) filters += " -g " + g;
  std::string message = "0 files matched" + filters + " for " + selection.accession;
  if (available.pipelines.empty() && available.groups.empty()) {
    return message + ", which lists no files";
  }
  if (!available.pipelines.empty()) {
    message += "; pipelines available: " + comma_list(available.pipelines);
  }
  if (!available.groups.empty()) message += "; groups available: " + comma_list(available.groups);
  return message;
}

Settings legacy_v1_settings(const Settings& settings) {
  Settings v1_settings = settings;
  v1_settings.base_url.clear();
  v1_settings.token_env.clear();
  return v1_settings;
}

LegacyRouting route_legacy_files(std::vector<FileRow>& rows, const Settings& settings,
                                 std::size_t concurrency) {
  LegacyRouting routing;
  routing.from_v1.assign(rows.size(), false);
  std::vector<std::string> owners;
  std::map<std::string, std::vector<std::size_t>> rows_of;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].url.empty()) continue;
    const std::string& owner = rows[i].accession;
    // Genomes are never legacy; anything else cannot be looked up on v1.
    if (starts_with(owner, "MGYA") || starts_with(owner, "MGYS")) {
      if (rows_of[owner].empty()) owners.push_back(owner);
      rows_of[owner].push_back(i);
    }
  }
  if (!owners.empty()) {
    const v1::LegacyClient client(client_options(legacy_v1_settings(settings), Service::v1));
    mgnify::ListOptions pages;
    pages.page_size = v1::kMaxPageSize;
    const auto results =
        map_with_progress("v1 lookup", "objects", owners.size(), concurrency, [&](std::size_t i) {
          return starts_with(owners[i], "MGYA")
                     ? client.analysis_downloads(owners[i], {}, pages).collect()
                     : client.study_downloads(owners[i], {}, pages).collect();
        });
    for (std::size_t o = 0; o < owners.size(); ++o) {
      if (!results[o]) {
        ++routing.failed_lookups;
        if (!routing.lookup_error) routing.lookup_error = results[o].exception();
        routing.lookup_error_of[owners[o]] = results[o].exception();
        continue;
      }
      for (const auto& d : *results[o]) {
        const FileRow v1_file = v1_row(owners[o], d, "", "");
        if (v1_file.url.empty()) continue;
        for (std::size_t i : rows_of[owners[o]]) {
          if (rows[i].url.empty() && rows[i].alias == v1_file.alias) {
            rows[i].url = v1_file.url;
            rows[i].checksum_algorithm = v1_file.checksum_algorithm;
            rows[i].checksum = v1_file.checksum;
            routing.from_v1[i] = true;
          }
        }
      }
    }
  }
  for (const auto& row : rows) routing.unrouted += row.url.empty() ? 1 : 0;
  return routing;
}

std::string unrouted_message(const std::vector<FileRow>& rows, const LegacyRouting& routing,
                             const Selection& selection, bool from_manifest,
                             const std::string& dir) {
  if (routing.unrouted == 0) return {};
  std::set<std::string> owners;
  for (const auto& row : rows) {
    if (row.url.empty()) owners.insert(row.accession);
  }
  std::string message =
      std::to_string(routing.unrouted) + (routing.unrouted == 1 ? " file has" : " files have") +
      " no URL on API v2 (pre-V6 results) and API v1 lists " +
      (routing.unrouted == 1 ? "it" : "none of them") + " under the same accession and name";
  if (routing.failed_lookups) {
    try {
      std::rethrow_exception(routing.lookup_error);
    } catch (const std::exception& e) {
      message += " (" + std::to_string(routing.failed_lookups) + " API v1 " +
                 (routing.failed_lookups == 1 ? "lookup" : "lookups") + " failed: " + e.what() +
                 ")";
    }
  }
  std::string options = " --api v1";
  if (!from_manifest && !selection.pipeline.empty()) {
    options += " -p " + shell_word(selection.pipeline);
  }
  if (!from_manifest) {
    for (const auto& g : selection.groups) options += " -g " + shell_word(g);
    if (selection.study_summaries) options += " --study-summaries";
  }
  options += " --dir " + shell_word(dir);
  if (!from_manifest) {
    return message + "; get them with: mgnify download " + shell_word(selection.accession) +
           options;
  }
  // The owners come from the manifest (a listing the service wrote): only
  // accessions of the forms `mgnify download` takes go into the command.
  std::string list;
  std::size_t pasteable = 0;
  std::string other;
  for (const auto& owner : owners) {
    if (pasteable_accession(owner)) {
      list += (list.empty() ? "" : " ") + shell_word(owner);
      ++pasteable;
    } else if (other.empty()) {
      other = owner;
    }
  }
  if (!other.empty()) {
    message += "; the manifest names " + std::to_string(owners.size() - pasteable) +
               (owners.size() - pasteable == 1 ? " owner" : " owners") + " (such as '" + other +
               "') that no command is suggested for: not an MGYS, MGYA, MGYG or INSDC study "
               "accession";
  }
  if (pasteable == 0) return message;
  if (pasteable == 1) return message + "; get them with: mgnify download " + list + options;
  return message + "; get them with: for a in " + list + "; do mgnify download \"$a\"" + options +
         "; done";
}

bool pasteable_accession(const std::string& text) {
  const std::optional<mgnify::AccessionKind> kind = mgnify::accession_kind(text);
  return (kind == mgnify::AccessionKind::study || kind == mgnify::AccessionKind::analysis ||
          kind == mgnify::AccessionKind::genome) &&
         mgnify::canonical_accession(text, *kind) == std::optional<std::string>(text);
}

void check_groups_first(const Selection& selection, const Settings& settings) {
  const std::string& study = selection.accession;
  if (selection.groups.empty() || selection.study_summaries || study.rfind("MGYA", 0) == 0) return;
  std::vector<std::string> unknown;
  for (const auto& group : selection.groups) {
    const std::string wanted = normalise_group(group);
    bool known = false;
    for (const auto& k : known_groups()) {
      // A known group, a part of one (taxonomies.) or one of its subgroups.
      if (k.rfind(wanted, 0) == 0 || wanted.rfind(k + ".", 0) == 0) known = true;
    }
    if (!known) unknown.push_back(group);
  }
  // A group among the known ones may match; only the listing can tell.
  if (unknown.size() < selection.groups.size()) return;
  mgnify::ListOptions one;
  one.page_size = 1;
  one.max_items = 1;
  std::string first;
  if (selection.api == Api::v1) {
    const v1::LegacyClient client(client_options(settings, Service::v1));
    for (const auto& a : client.study_analyses(study, one)) {
      first = a.accession.empty() ? a.id() : a.accession;
    }
  } else {
    const v2::V2Client client(client_options(settings, Service::v2));
    const std::string accession = mgnify::is_insdc_study_accession(study)
                                      ? client.study_by_insdc_accession(study).accession
                                      : study;
    for (const auto& a : client.study_analyses(accession, one)) first = a.accession;
  }
  if (first.empty()) return;  // the listing says what the study has
  Selection probe = selection;
  probe.accession = first;
  std::exception_ptr failure;
  Available available;
  const auto rows = list_files(probe, settings, failure, &available);
  if (failure || !rows.empty()) return;
  std::string groups;
  for (const auto& g : available.groups) groups += (groups.empty() ? "" : ", ") + g;
  std::string asked;
  for (const auto& g : selection.groups) asked += " -g " + g;
  throw NothingMatched("0 files matched" +
                       (selection.pipeline.empty() ? std::string() : " -p " + selection.pipeline) +
                       asked + " for " + study +
                       "; -g names no group MGnify is known to publish, nor one of " + first +
                       ", the study's first analysis; groups available: " + groups);
}

}  // namespace mgnify_cli
