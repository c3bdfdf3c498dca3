#pragma once

// The tools each pipeline release runs (`pipeline-tools`, and a release's
// `pipelines/{version}/tools`).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "mgnify/v1/model_base.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

/// Type `pipeline-tools`; one tool at one version ("InterProScan", "5.25-64.0").
struct PipelineTool : ResourceModel {
  std::string tool_name;
  std::optional<std::string> version;
  std::optional<std::string> description;
  std::optional<std::string> web_link;
  std::optional<std::string> exe_command;
  std::optional<std::string> installation_dir;
  std::optional<std::string> configuration_file;
  std::optional<std::string> notes;

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.defaulted("tool-name", s.tool_name);
    v.optional("version", s.version);
    v.optional("description", s.description);
    v.optional("web-link", s.web_link);
    v.optional("exe-command", s.exe_command);
    v.optional("installation-dir", s.installation_dir);
    v.optional("configuration-file", s.configuration_file);
    v.optional("notes", s.notes);
  }

  template <class V>
  static void relationships(V& v) {
    v.with_ids("pipelines");
  }
};
MGNIFY_JSON_FIELDS(PipelineTool, "pipeline-tool")

}  // namespace v1
MGNIFY_NAMESPACE_END
