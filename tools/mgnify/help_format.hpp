#pragma once

// Help screens from the one set of option definitions. The global options are
// defined once, on the root app, and accepted after any command; CLI11 shows
// them only in `mgnify --help`. This formatter shows, in each command's help,
// the global options that apply to that command, with the default they have
// there. The man page and the completion scripts (generated_docs.cpp) read the
// same tables, so no screen and no script can list an option the parser does
// not take.

#include <CLI/CLI.hpp>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mgnify_cli {

class HelpFormatter : public CLI::Formatter {
 public:
  /// `cmd` rejects these global options (long names with dashes, "--page-size"):
  /// they are left out of its help, man page and completion, and refused when
  /// given; `reason`, when given, ends the refusal (", which always writes FASTA").
  void not_applicable(const CLI::App* cmd, const std::vector<std::string>& long_names,
                      const std::string& reason = "");
  /// "--max does not apply to 'verify'" when `cmd` (named `path`) rejects the
  /// global `option`, else "".
  std::string refusal(const CLI::App* cmd, const std::string& path,
                      const CLI::Option* option) const;
  /// What `cmd` uses when the global option is not given, where that differs
  /// from the option's own default (`--max` of a protein search is 50).
  void default_for(const CLI::App* cmd, const std::string& long_name, std::string shown);
  /// The words the completion scripts offer for an option of `cmd` (its own,
  /// or a global one) where the parser's choices are not what `cmd` takes,
  /// or where it takes free text with well-known values (-g's groups).
  void completes_with(const CLI::App* cmd, const std::string& long_name,
                      std::vector<std::string> words);
  /// The words registered with completes_with for `option` in `cmd`, or
  /// nothing (then the option's own choices apply).
  const std::vector<std::string>* completion_words(const CLI::App* cmd,
                                                   const CLI::Option* option) const;

  /// The root's options that `cmd` accepts and uses, in definition order;
  /// none for the root itself and for commands that only group others, and
  /// none that `cmd` defines itself under the same name.
  std::vector<const CLI::Option*> global_options(const CLI::App* cmd) const;
  /// The default to show for `option` in `cmd`'s help ("" when it has none).
  std::string shown_default(const CLI::App* cmd, const CLI::Option* option) const;

  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override;

 private:
  std::map<const CLI::App*, std::set<std::string>> excluded_;
  std::map<std::pair<const CLI::App*, std::string>, std::string> reasons_;
  std::map<std::pair<const CLI::App*, std::string>, std::string> defaults_;
  std::map<std::pair<const CLI::App*, std::string>, std::vector<std::string>> completions_;
};

/// Installs the formatter on the root; call before adding subcommands, which
/// share it.
std::shared_ptr<HelpFormatter> install_help_formatter(CLI::App& root);

/// The formatter `cmd` shares with the root.
HelpFormatter& help_formatter(const CLI::App& cmd);

/// The long name ("--max") of an option, or its first name when it has no long one.
std::string long_name(const CLI::Option* option);

/// The root of `cmd`'s tree.
const CLI::App* root_of(const CLI::App* cmd);

/// The commands shown in help (not the hidden generator), in definition order.
std::vector<const CLI::App*> visible_subcommands(const CLI::App* cmd);

}  // namespace mgnify_cli
