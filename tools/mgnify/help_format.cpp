#include "help_format.hpp"

#include <sstream>
#include <stdexcept>

namespace mgnify_cli {

void HelpFormatter::not_applicable(const CLI::App* cmd, const std::vector<std::string>& long_names,
                                   const std::string& reason) {
  excluded_[cmd].insert(long_names.begin(), long_names.end());
  if (reason.empty()) return;
  for (const auto& name : long_names) reasons_[{cmd, name}] = reason;
}

std::string HelpFormatter::refusal(const CLI::App* cmd, const std::string& path,
                                   const CLI::Option* option) const {
  const auto excluded = excluded_.find(cmd);
  const std::string name = long_name(option);
  if (excluded == excluded_.end() || excluded->second.count(name) == 0) return "";
  const auto reason = reasons_.find({cmd, name});
  return name + " does not apply to '" + path + "'" +
         (reason != reasons_.end() ? reason->second : std::string());
}

void HelpFormatter::default_for(const CLI::App* cmd, const std::string& long_name,
                                std::string shown) {
  defaults_[{cmd, long_name}] = std::move(shown);
}

void HelpFormatter::completes_with(const CLI::App* cmd, const std::string& long_name,
                                   std::vector<std::string> words) {
  completions_[{cmd, long_name}] = std::move(words);
}

const std::vector<std::string>* HelpFormatter::completion_words(const CLI::App* cmd,
                                                                const CLI::Option* option) const {
  const auto it = completions_.find({cmd, long_name(option)});
  return it != completions_.end() ? &it->second : nullptr;
}

std::vector<const CLI::Option*> HelpFormatter::global_options(const CLI::App* cmd) const {
  const CLI::App* root = root_of(cmd);
  if (cmd == root || !visible_subcommands(cmd).empty()) return {};
  const auto excluded = excluded_.find(cmd);
  std::vector<const CLI::Option*> out;
  for (const CLI::Option* option : root->get_options()) {
    if (option == root->get_help_ptr() || option == root->get_help_all_ptr() ||
        option == root->get_version_ptr() || option->get_lnames().empty()) {
      continue;
    }
    if (excluded != excluded_.end() && excluded->second.count(long_name(option))) continue;
    // A command's own option of the same name is the one its parser fills.
    const std::string name = long_name(option);
    const auto own = cmd->get_options(
        [&name](const CLI::Option* mine) { return mine->check_lname(name.substr(2)); });
    if (!own.empty()) continue;
    out.push_back(option);
  }
  return out;
}

std::string HelpFormatter::shown_default(const CLI::App* cmd, const CLI::Option* option) const {
  const auto it = defaults_.find({cmd, long_name(option)});
  return it != defaults_.end() ? it->second : option->get_default_str();
}

std::string HelpFormatter::make_help(const CLI::App* app, std::string name,
                                     CLI::AppFormatMode mode) const {
  std::string help = CLI::Formatter::make_help(app, std::move(name), mode);
  const auto globals = global_options(app);
  if (mode == CLI::AppFormatMode::Sub || globals.empty()) return help;
  std::ostringstream out;
  out << "\nGlobal options (before or after the command; exit codes: mgnify --help):\n";
  for (const CLI::Option* option : globals) {
    std::string left = option->get_name(false, true);
    if (option->get_type_size() != 0) {
      left += " " + option->get_type_name();
      const std::string shown = shown_default(app, option);
      if (!shown.empty()) left += "=" + shown;
    }
    CLI::detail::format_help(out, left, option->get_description(), column_width_);
  }
  // CLI11 ends a help screen with a blank line (before the footer); the global
  // options go above it.
  if (!help.empty() && help.back() == '\n') help.pop_back();
  return help + out.str() + "\n";
}

std::shared_ptr<HelpFormatter> install_help_formatter(CLI::App& root) {
  auto formatter = std::make_shared<HelpFormatter>();
  formatter->column_width(34);
  root.formatter(formatter);
  return formatter;
}

HelpFormatter& help_formatter(const CLI::App& cmd) {
  auto formatter = std::dynamic_pointer_cast<HelpFormatter>(cmd.get_formatter());
  if (!formatter) throw std::logic_error("the mgnify help formatter is not installed");
  return *formatter;
}

std::string long_name(const CLI::Option* option) {
  if (!option->get_lnames().empty()) return "--" + option->get_lnames().front();
  if (!option->get_snames().empty()) return "-" + option->get_snames().front();
  return option->get_name();
}

const CLI::App* root_of(const CLI::App* cmd) {
  while (cmd->get_parent() != nullptr) cmd = cmd->get_parent();
  return cmd;
}

std::vector<const CLI::App*> visible_subcommands(const CLI::App* cmd) {
  return cmd->get_subcommands(
      [](const CLI::App* sub) { return !sub->get_group().empty() && !sub->get_name().empty(); });
}

}  // namespace mgnify_cli
