#include "file_listing.hpp"

#include <cctype>
#include <exception>
#include <iostream>
#include <map>
#include <mgnify/files/checksum.hpp>
#include <mgnify/concurrency/parallel_map.hpp>
#include <mgnify/v1.hpp>
#include <mgnify/v2.hpp>
#include <mutex>
#include <sstream>

#include "output.hpp"
#include "progress.hpp"

namespace mgnify_cli {

namespace v1 = mgnify::v1;
namespace v2 = mgnify::v2;

const std::vector<std::string>& manifest_columns() {
  static const std::vector<std::string> columns = {
      "accession",       "alias", "pipeline_version",   "group",    "description", "file_type",
      "experiment_type", "url",   "checksum_algorithm", "checksum", "size_bytes"};
  return columns;
}

nlohmann::json to_json(const FileRow& row) {
  return nlohmann::json{
      {"accession", row.accession},
      {"alias", row.alias},
      {"pipeline_version", row.pipeline_version},
      {"group", row.group},
      {"description", row.description},
      {"file_type", row.file_type},
      {"experiment_type", row.experiment_type},
      {"url", row.url},
      {"checksum_algorithm", row.checksum_algorithm},
      {"checksum", row.checksum},
      {"size_bytes", row.size_bytes ? nlohmann::json(*row.size_bytes) : nlohmann::json(nullptr)}};
}

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

namespace {

enum class Kind { study, ena_study, analysis, genome };

Kind kind_of(const std::string& accession) {
  std::string upper;
  for (char c : accession)
    upper.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  auto starts = [&](const char* prefix) { return upper.rfind(prefix, 0) == 0; };
  if (starts("MGYA")) return Kind::analysis;
  if (starts("MGYG")) return Kind::genome;
  if (starts("MGYS")) return Kind::study;
  if (starts("ERP") || starts("SRP") || starts("DRP") || starts("PRJ")) return Kind::ena_study;
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
                             std::exception_ptr& first_error) {
  const v1::LegacyClient client(client_options(settings, Service::v1));
  std::vector<FileRow> rows;
  auto add = [&](const std::string& owner, const std::vector<v1::Download>& downloads,
                 const std::string& pipeline, const std::string& experiment_type) {
    for (const auto& d : downloads) {
      FileRow row = v1_row(owner, d, pipeline, experiment_type);
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
      for (auto& a : client.study_analyses(s.accession, {}, pages)) {
        if (pipeline_selected(s, a.pipeline_version.value_or(""))) analyses.push_back(std::move(a));
      }
      ProgressBar bar("listing");
      std::mutex mutex;
      std::size_t done = 0;
      const auto results = mgnify::parallel_map(analyses.size(), s.concurrency, [&](std::size_t i) {
        auto downloads = client.analysis_downloads(analyses[i].accession, {}, pages).collect();
        std::lock_guard<std::mutex> lock(mutex);
        bar.items(++done, analyses.size(), "analyses");
        return downloads;
      });
      bar.finish();
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

std::string pipeline_text(const v2::Analysis& a) {
  return a.pipeline_version ? a.pipeline_version->text : "";
}

std::vector<FileRow> list_v2(const Selection& s, const Settings& settings,
                             std::exception_ptr& first_error) {
  v2::V2Options v2_options;
  v2_options.concurrency = s.concurrency;
  const v2::V2Client client(client_options(settings, Service::v2), v2_options);
  std::vector<FileRow> rows;
  auto add = [&](const std::string& owner, const std::vector<v2::DownloadFile>& downloads,
                 const std::string& pipeline, const std::string& experiment_type) {
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
      for (const auto& a : client.study_analyses(study_accession)) {
        if (pipeline_selected(s, pipeline_text(a))) accessions.push_back(a.accession);
      }
      ProgressBar bar("listing");
      std::mutex mutex;
      std::size_t done = 0;
      const auto results =
          mgnify::parallel_map(accessions.size(), s.concurrency, [&](std::size_t i) {
            auto detail = client.analysis(accessions[i]);
            std::lock_guard<std::mutex> lock(mutex);
            bar.items(++done, accessions.size(), "analyses");
            return detail;
          });
      bar.finish();
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

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (;;) {
    const auto tab = line.find('\t', start);
    cells.push_back(tsv_unescape(
        line.substr(start, tab == std::string::npos ? std::string::npos : tab - start)));
    if (tab == std::string::npos) break;
    start = tab + 1;
  }
  return cells;
}

}  // namespace

std::vector<FileRow> list_files(const Selection& selection, const Settings& settings,
                                std::exception_ptr& first_error) {
  if (selection.concurrency == 0) throw UsageError("--concurrency must be at least 1");
  auto rows = selection.api == Api::v1 ? list_v1(selection, settings, first_error)
                                       : list_v2(selection, settings, first_error);
  if (settings.max_items && rows.size() > *settings.max_items) rows.resize(*settings.max_items);
  return rows;
}

std::vector<FileRow> read_manifest(std::istream& in, const std::string& name) {
  std::string line;
  if (!std::getline(in, line)) throw UsageError("manifest " + name + " is empty");
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const auto header = split_tabs(line);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < header.size(); ++i) index[header[i]] = i;
  for (const char* required : {"accession", "alias", "url"}) {
    if (!index.count(required)) {
      throw UsageError("manifest " + name + " has no '" + required + "' column");
    }
  }
  std::vector<FileRow> rows;
  std::size_t line_number = 1;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto cells = split_tabs(line);
    auto cell = [&](const char* column) -> std::string {
      const auto it = index.find(column);
      return it != index.end() && it->second < cells.size() ? cells[it->second] : std::string();
    };
    FileRow row;
    row.accession = cell("accession");
    row.alias = cell("alias");
    row.pipeline_version = cell("pipeline_version");
    row.group = cell("group");
    row.description = cell("description");
    row.file_type = cell("file_type");
    row.experiment_type = cell("experiment_type");
    row.url = cell("url");
    row.checksum_algorithm = cell("checksum_algorithm");
    row.checksum = cell("checksum");
    // Checked here, where the line is known, rather than when the download is set up.
    try {
      mgnify::files::Checksum::from_record(row.checksum_algorithm, row.checksum);
    } catch (const mgnify::InvalidArgument& e) {
      throw UsageError("manifest " + name + " line " + std::to_string(line_number) + ": " +
                       e.what());
    }
    const std::string size = cell("size_bytes");
    if (!size.empty()) {
      if (size.find_first_not_of("0123456789") != std::string::npos || size.size() > 19) {
        throw UsageError("manifest " + name + " line " + std::to_string(line_number) +
                         ": size_bytes is not a number: '" + size + "'");
      }
      row.size_bytes = std::stoull(size);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace mgnify_cli
