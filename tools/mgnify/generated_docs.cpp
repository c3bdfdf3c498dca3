#include "generated_docs.hpp"

#include <fstream>
#include <iostream>
#include <memory>
#include <mgnify/files/download_errors.hpp>
#include <mgnify/version.hpp>
#include <set>
#include <sstream>
#include <system_error>
#include <vector>

#include "help_format.hpp"
#include "settings.hpp"

namespace mgnify_cli {

namespace {

/// A command of the tree and where it sits: "" for the root, "/v2/studies/list" below it.
struct Command {
  std::string path;
  const CLI::App* app;
};

void collect(const CLI::App* app, const std::string& path, std::vector<Command>& out) {
  out.push_back({path, app});
  for (const CLI::App* sub : visible_subcommands(app))
    collect(sub, path + "/" + sub->get_name(), out);
}

std::vector<Command> commands_of(const CLI::App& root) {
  std::vector<Command> out;
  collect(&root, "", out);
  return out;
}

/// "v2 studies list" for "/v2/studies/list".
std::string words_of(const std::string& path) {
  std::string words = path;
  for (char& c : words) {
    if (c == '/') c = ' ';
  }
  return words.empty() ? words : words.substr(1);
}

std::vector<const CLI::Option*> own_options(const CLI::App* app) {
  return app->get_options([](const CLI::Option* option) { return option->nonpositional(); });
}

std::vector<const CLI::Option*> positionals(const CLI::App* app) {
  return app->get_options([](const CLI::Option* option) { return option->get_positional(); });
}

/// Every option `app` accepts: its own, then the global ones that apply to it.
std::vector<const CLI::Option*> accepted_options(const CLI::App* app) {
  auto options = own_options(app);
  for (const CLI::Option* global : help_formatter(*app).global_options(app)) {
    options.push_back(global);
  }
  return options;
}

std::vector<std::string> names_of(const CLI::Option* option) {
  std::vector<std::string> names;
  for (const auto& s : option->get_snames()) names.push_back("-" + s);
  for (const auto& l : option->get_lnames()) names.push_back("--" + l);
  return names;
}

/// The choices an IsMember check allows ("FORMAT:{json,ndjson,tsv}"), or none.
std::vector<std::string> choices_of(const CLI::Option* option) {
  const std::string type = option->get_type_name();
  const auto open = type.find('{');
  const auto close = type.find('}', open);
  std::vector<std::string> choices;
  if (open == std::string::npos || close == std::string::npos) return choices;
  std::string item;
  for (char c : type.substr(open + 1, close - open - 1)) {
    if (c == ',') {
      choices.push_back(item);
      item.clear();
    } else {
      item.push_back(c);
    }
  }
  if (!item.empty()) choices.push_back(item);
  return choices;
}

std::string space_separated(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

/// The shell functions both scripts share: POSIX `case` statements that map a
/// command path to its subcommands and options, and an option to its values.
std::string shell_tables(const CLI::App& root) {
  const auto commands = commands_of(root);
  std::ostringstream out;

  out << "_mgnify_children() {\n  case \"$1\" in\n";
  for (const auto& c : commands) {
    std::vector<std::string> names;
    for (const CLI::App* sub : visible_subcommands(c.app)) names.push_back(sub->get_name());
    if (!names.empty())
      out << "    \"" << c.path << "\") echo \"" << space_separated(names) << "\" ;;\n";
  }
  out << "  esac\n}\n\n";

  out << "_mgnify_options() {\n  case \"$1\" in\n";
  for (const auto& c : commands) {
    std::vector<std::string> names;
    for (const CLI::Option* option : accepted_options(c.app)) {
      for (const auto& n : names_of(option)) names.push_back(n);
    }
    out << "    \"" << c.path << "\") echo \"" << space_separated(names) << "\" ;;\n";
  }
  out << "  esac\n}\n\n";

  // Values are per command: the same option name may take other values, or
  // none that can be listed, elsewhere (--format of abundance-table).
  const HelpFormatter& formatter = help_formatter(root);
  std::set<std::string> takes_value;
  std::vector<std::pair<std::string, std::string>> values;
  for (const auto& c : commands) {
    for (const CLI::Option* option : accepted_options(c.app)) {
      if (option->get_type_size() == 0) continue;
      const std::vector<std::string>* registered = formatter.completion_words(c.app, option);
      const auto choices = registered ? *registered : choices_of(option);
      for (const auto& n : names_of(option)) {
        takes_value.insert(n);
        if (!choices.empty()) values.emplace_back(c.path + " " + n, space_separated(choices));
      }
    }
  }
  out << "_mgnify_takes_value() {\n  case \"$1\" in\n    ";
  std::string alternatives;
  for (const auto& n : takes_value) alternatives += (alternatives.empty() ? "" : "|") + n;
  out << alternatives << ") return 0 ;;\n  esac\n  return 1\n}\n\n";

  out << "_mgnify_values() {\n  case \"$1\" in\n";
  for (const auto& [name, words] : values)
    out << "    \"" << name << "\") echo \"" << words << "\" ;;\n";
  out << "  esac\n}\n\n";

  // The N-th argument of a command, where its values are known (a relation name).
  out << "_mgnify_positional() {\n  case \"$1\" in\n";
  for (const auto& c : commands) {
    std::size_t n = 0;
    for (const CLI::Option* option : positionals(c.app)) {
      ++n;
      const std::vector<std::string>* registered = formatter.completion_words(c.app, option);
      const auto choices = registered ? *registered : choices_of(option);
      if (choices.empty()) continue;
      out << "    \"" << c.path << " " << n << "\") echo \"" << space_separated(choices)
          << "\" ;;\n";
    }
  }
  out << "  esac\n}\n\n";
  return out.str();
}

/// What may come next, for both shells: $1 is the word being completed, the
/// other arguments the words before it (after "mgnify"). Each word that names
/// a subcommand of the path so far extends the path; an option's value is
/// skipped. Prints the option's values, or the path's options or subcommands;
/// fails where a file name (or any value) is wanted.
const char* const kCandidates =
    "_mgnify_candidates() {\n"
    "  local cur=\"$1\" cmdpath=\"\" prev=\"\" word values skip=0 npos=0\n"
    "  shift\n"
    "  for word in \"$@\"; do\n"
    "    prev=\"$word\"\n"
    "    if [ \"$skip\" = 1 ]; then skip=0; continue; fi\n"
    "    case \"$word\" in\n"
    "      -*=*) ;;\n"
    "      -*) _mgnify_takes_value \"$word\" && skip=1 ;;\n"
    "      *) case \" $(_mgnify_children \"$cmdpath\") \" in\n"
    "           *\" $word \"*) cmdpath=\"$cmdpath/$word\"; npos=0 ;;\n"
    "           *) npos=$((npos + 1)) ;;\n"
    "         esac ;;\n"
    "    esac\n"
    "  done\n"
    "  if [ \"$skip\" = 1 ]; then\n"
    "    values=\"$(_mgnify_values \"$cmdpath $prev\")\"\n"
    "    [ -n \"$values\" ] || return 1\n"
    "    echo \"$values\"\n"
    "    return 0\n"
    "  fi\n"
    "  case \"$cur\" in\n"
    "    -*) _mgnify_options \"$cmdpath\" ;;\n"
    "    *) values=\"$(_mgnify_children \"$cmdpath\")\"\n"
    "       [ -n \"$values\" ] || values=\"$(_mgnify_positional \"$cmdpath $((npos + 1))\")\"\n"
    "       echo \"$values\" ;;\n"
    "  esac\n"
    "}\n\n";

std::string roff_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out.push_back(c);
    }
  }
  // A line that starts with a dot or a quote would be read as a request.
  if (!out.empty() && (out.front() == '.' || out.front() == '\'')) out.insert(0, "\\&");
  return out;
}

std::string roff_option_head(const CLI::Option* option, const std::string& shown_default) {
  std::string head = "\\fB" + roff_escaped(option->get_name(false, true)) + "\\fR";
  if (option->get_type_size() != 0) {
    head += " \\fI" + roff_escaped(option->get_type_name()) + "\\fR";
    if (!shown_default.empty()) head += " (default: " + roff_escaped(shown_default) + ")";
  }
  return head;
}

void write_to(const std::string& text, const std::string& file) {
  if (file.empty()) {
    std::cout << text;
    std::cout.flush();
    return;
  }
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  out.flush();
  if (!out) {
    throw mgnify::FileError(file, std::make_error_code(std::errc::io_error), "cannot write");
  }
}

}  // namespace

std::string bash_completion(const CLI::App& root) {
  std::ostringstream out;
  out << "# bash completion for mgnify, generated by `mgnify _generate bash` from the\n"
         "# tool's own option definitions.\n\n"
      << shell_tables(root) << kCandidates
      << "_mgnify() {\n"
         "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" candidates\n"
         "  if candidates=\"$(_mgnify_candidates \"$cur\" "
         "\"${COMP_WORDS[@]:1:COMP_CWORD-1}\")\"; then\n"
         "    COMPREPLY=($(compgen -W \"$candidates\" -- \"$cur\"))\n"
         "  else\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "  fi\n"
         "  return 0\n"
         "}\n\n"
         "complete -F _mgnify mgnify\n";
  return out.str();
}

std::string zsh_completion(const CLI::App& root) {
  std::ostringstream out;
  out << "#compdef mgnify\n"
         "# zsh completion for mgnify, generated by `mgnify _generate zsh` from the\n"
         "# tool's own option definitions.\n\n"
      << shell_tables(root) << kCandidates
      << "_mgnify() {\n"
         "  local candidates\n"
         "  if candidates=\"$(_mgnify_candidates \"$PREFIX\" \"${(@)words[2,CURRENT-1]}\")\"; "
         "then\n"
         "    compadd -- ${=candidates}\n"
         "  else\n"
         "    _files\n"
         "  fi\n"
         "}\n\n"
         "_mgnify \"$@\"\n";
  return out.str();
}

struct ManExample {
  const char* task;
  const char* command;
};

/// One line per task researchers come to the tool for; docs/cli.md has the
/// longer recipes.
const std::vector<ManExample>& man_examples() {
  static const std::vector<ManExample> examples = {
      {"Find studies of a biome:",
       "mgnify v2 studies list --lineage root:Engineered:Wastewater --max 20 --format tsv"},
      {"A study's sample metadata as a table for R or pandas:",
       "mgnify samples-table MGYS00000002 --format csv > samples.csv"},
      {"A study's taxonomic abundance matrix:",
       "mgnify abundance-table MGYS00000002 -p V6 -g taxonomies.closed_reference.ssu "
       "--dir cache --format tsv > ssu.tsv"},
      {"Samples by taxa with their metadata, as BIOM for phyloseq::import_biom (several studies):",
       "mgnify abundance-table --study MGYS00000002 --study MGYS00000004 -p V6 -g "
       "taxonomies.closed_reference.ssu --by sample --dir cache > ssu.biom"},
      {"List a study's files as a manifest, to review or split:",
       "mgnify downloads MGYS00000002 -p 6 --manifest files.tsv"},
      {"Download a manifest's files, verified and resumable, keeping a report with SHA-256s:",
       "mgnify --format tsv download --manifest files.tsv --dir results > results.tsv"},
      {"One task of a Slurm job array (sbatch --array=1-4) downloads its shard of a manifest:",
       "mgnify download --manifest files.tsv --shard slurm --total-rate 10 --dir results"},
      {"Check that every file of a manifest is there once and intact:",
       "mgnify verify --manifest files.tsv --dir results"},
      {"Proteins of a Pfam family, as FASTA:",
       "mgnify protein fasta --pfam PF04659 --max 1000 > family.fasta"},
      {"One protein record:", "mgnify protein get MGYP000261684433 --format json"},
      {"Genomes of a catalogue that contain the contigs of a FASTA file (COBS):",
       "mgnify genome search --fasta contigs.fa --catalogue human-gut-v2-0 --format tsv > "
       "hits.tsv"},
      {"Genomes that make up a sample, from its sourmash signature:",
       "mgnify genome gather sample.sig --catalogue human-gut-v2-0 --format tsv > gather.tsv"},
      {"Proteins similar to a sequence (phmmer), with their records:",
       "mgnify protein sequence-search --fasta query.fasta --evalue 0.01 > hits.tsv"},
  };
  return examples;
}

std::string man_page(const CLI::App& root) {
  const HelpFormatter& formatter = help_formatter(root);
  std::ostringstream out;
  std::string summary = root.get_description();
  if (const auto colon = summary.find(": "); colon != std::string::npos) {
    summary = summary.substr(colon + 2);
  }
  out << ".TH MGNIFY 1 \"\" \"mgnify " MGNIFY_VERSION_STRING "\" \"User Commands\"\n"
      << ".SH NAME\nmgnify \\- " << roff_escaped(summary) << "\n"
      << ".SH SYNOPSIS\n.B mgnify\n[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR] "
         "[\\fIarguments\\fR]\n"
      << ".SH DESCRIPTION\n"
         "Global options may be given before or after the command. "
         "\\fBmgnify\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR lists the options of a command, "
         "the global ones that apply to it included.\n"
      << ".SH GLOBAL OPTIONS\n";
  for (const CLI::Option* option : own_options(&root)) {
    out << ".TP\n"
        << roff_option_head(option, option->get_default_str()) << "\n"
        << roff_escaped(option->get_description()) << "\n";
  }
  out << ".SH COMMANDS\n";
  for (const auto& c : commands_of(root)) {
    if (c.path.empty()) continue;
    out << ".SS \"mgnify " << roff_escaped(words_of(c.path)) << "\"\n"
        << roff_escaped(c.app->get_description()) << "\n";
    const auto subs = visible_subcommands(c.app);
    if (!subs.empty()) {
      std::vector<std::string> names;
      for (const CLI::App* sub : subs) names.push_back(sub->get_name());
      out << ".PP\nCommands: " << roff_escaped(space_separated(names)) << ".\n";
    }
    for (const CLI::Option* option : positionals(c.app)) {
      out << ".TP\n\\fI" << roff_escaped(option->get_name(true, false)) << "\\fR"
          << (option->get_required() ? "" : " (optional)") << "\n"
          << roff_escaped(option->get_description()) << "\n";
    }
    for (const CLI::Option* option : own_options(c.app)) {
      if (option == c.app->get_help_ptr()) continue;
      out << ".TP\n"
          << roff_option_head(option, option->get_default_str()) << "\n"
          << roff_escaped(option->get_description()) << "\n";
    }
    const auto globals = formatter.global_options(c.app);
    if (!globals.empty()) {
      out << ".PP\nGlobal options that apply:";
      const char* separator = " ";
      for (const CLI::Option* option : globals) {
        out << separator << "\\fB" << roff_escaped(long_name(option)) << "\\fR";
        const std::string shown = formatter.shown_default(c.app, option);
        if (shown != option->get_default_str() && !shown.empty()) {
          out << " (default here: " << roff_escaped(shown) << ")";
        }
        separator = ", ";
      }
      out << ".\n";
    }
  }
  out << ".SH EXIT STATUS\n";
  for (const auto& row : exit_code_table()) {
    out << ".TP\n.B " << row.code << "\n" << roff_escaped(row.meaning) << "\n";
  }
  out << ".SH ENVIRONMENT\n";
  for (const auto& note : environment_notes()) out << ".PP\n" << roff_escaped(note) << "\n";
  out << ".SH EXAMPLES\n";
  for (const auto& example : man_examples()) {
    out << ".PP\n"
        << roff_escaped(example.task) << "\n.RS\n.nf\n"
        << roff_escaped(example.command) << "\n.fi\n.RE\n";
  }
  out << ".SH SEE ALSO\n"
         "docs/cli.md in the mgnify-cpp sources.\n";
  return out.str();
}

void add_generator_command(CLI::App& app, Context& ctx) {
  auto kind = std::make_shared<std::string>();
  auto file = std::make_shared<std::string>();
  auto* generate = app.add_subcommand(
      "_generate", "Write the bash or zsh completion script or the man page (used by the build)");
  // An empty group keeps it out of help screens, suggestions and completions.
  generate->group("");
  generate->add_option("kind", *kind, "bash, zsh or man")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "man"}));
  generate->add_option("file", *file, "where to write it (default: stdout)");
  const CLI::App* root = &app;
  generate->callback([&ctx, kind, file, root] {
    ctx.action = [kind, file, root] {
      write_to(*kind == "bash"  ? bash_completion(*root)
               : *kind == "zsh" ? zsh_completion(*root)
                                : man_page(*root),
               *file);
      return kOk;
    };
  });
}

}  // namespace mgnify_cli
