// The help screens, the generated completion scripts and man page, and
// docs/cli.md all describe the same commands and options: each is checked
// against what the binary's own --help shows.

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "skip.hpp"

namespace {

mgnify::test::cli::Run run_help(const std::vector<std::string>& args) {
  auto run = mgnify::test::cli::run_piped(MGNIFY_CLI_PATH, args, {});
  REQUIRE_FALSE(run.timed_out);
  return run;
}

/// The names listed under "Subcommands:" in a help screen.
std::vector<std::string> listed_subcommands(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream in(help);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == "Subcommands:") {
      inside = true;
    } else if (inside && line.rfind("  ", 0) == 0 && line.size() > 2 && line[2] != ' ') {
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
    } else if (inside) {
      inside = false;
    }
  }
  return names;
}

/// The long option names a help screen offers: the first word of each
/// option line ("  -p,--pipeline TEXT ..."), split at commas.
std::set<std::string> listed_options(const std::string& help) {
  std::set<std::string> names;
  std::istringstream in(help);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("  -", 0) != 0) continue;
    std::string first = line.substr(2, line.find(' ', 2) - 2);
    std::size_t start = 0;
    while (start < first.size()) {
      const auto comma = first.find(',', start);
      const std::string name =
          first.substr(start, comma == std::string::npos ? comma : comma - start);
      if (name.rfind("--", 0) == 0) names.insert(name);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return names;
}

struct HelpScreen {
  std::string text;
  std::set<std::string> options;
};

/// Every command path ({} for the root, {"protein"}, {"protein", "get"}, ...),
/// found by walking the help screens, with the screen and the options it shows.
std::map<std::vector<std::string>, HelpScreen> help_tree() {
  std::map<std::vector<std::string>, HelpScreen> tree;
  std::vector<std::vector<std::string>> pending = {{}};
  // The tree has a few hundred commands; the bound stops a parse gone wrong.
  for (int visited = 0; !pending.empty() && visited < 2000; ++visited) {
    const auto path = pending.back();
    pending.pop_back();
    auto args = path;
    args.push_back("--help");
    const auto run = run_help(args);
    REQUIRE(run.code == 0);
    tree[path] = HelpScreen{run.out, listed_options(run.out)};
    for (const auto& sub : listed_subcommands(run.out)) {
      auto child = path;
      child.push_back(sub);
      pending.push_back(child);
    }
  }
  REQUIRE(pending.empty());
  return tree;
}

const std::map<std::vector<std::string>, HelpScreen>& commands() {
  static const auto tree = help_tree();
  return tree;
}

std::string joined_path(const std::vector<std::string>& path) {
  std::string out = "mgnify";
  for (const auto& p : path) out += " " + p;
  return out;
}

/// Generates the completion scripts and the man page into a fresh directory.
struct GeneratedDir {
  mgnify::test::cli::TempDir dir;

  std::filesystem::path generate(const std::string& kind) const {
    const auto file = dir.path() / kind;
    const auto run = run_help({"_generate", kind, file.string()});
    REQUIRE(run.code == 0);
    REQUIRE(run.err.empty());
    return file;
  }
};

/// The words the bash completion offers for `words` (the last one being completed).
std::set<std::string> bash_completes(const std::filesystem::path& script,
                                     const std::vector<std::string>& words) {
  std::string array;
  for (const auto& w : words) array += " '" + w + "'";
  const std::string program = "source '" + script.string() + "'; COMP_WORDS=(mgnify" + array +
                              "); COMP_CWORD=" + std::to_string(words.size()) +
                              "; _mgnify; printf '%s\\n' \"${COMPREPLY[@]}\"";
  const auto run = mgnify::test::cli::run_piped("/bin/bash", {"--norc", "--noprofile", "-c", program}, {});
  REQUIRE_FALSE(run.timed_out);
  REQUIRE(run.code == 0);
  CHECK(run.err.empty());
  std::set<std::string> out;
  std::istringstream in(run.out);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.insert(line);
  }
  return out;
}

}  // namespace

TEST_CASE("each command's help shows the global options that apply to it, with defaults",
          "[cli][help]") {
  const auto search = run_help({"protein", "search", "--help"});
  CHECK(search.code == 0);
  CHECK(search.err.empty());
  for (const char* shown : {"--max INT=50", "--format FORMAT", "=json", "--columns",
                            "--retries INT=4", "--timeout NUMBER=120", "--base-url"}) {
    CHECK(search.out.find(shown) != std::string::npos);
  }
  // The service has no paging: the option is refused there, so it is not offered.
  CHECK(search.out.find("--page-size") == std::string::npos);

  const auto v1_list = run_help({"v1", "studies", "list", "--help"});
  CHECK(v1_list.out.find("--page-size INT=250") != std::string::npos);
  CHECK(v1_list.out.find("--max INT=all") != std::string::npos);
  const auto v2_list = run_help({"v2", "samples", "list", "--help"});
  CHECK(v2_list.out.find("--page-size INT=100") != std::string::npos);

  const auto fasta = run_help({"protein", "fasta", "--help"});
  CHECK(fasta.out.find("--format FORMAT") == std::string::npos);
  CHECK(fasta.out.find("--columns TEXT") == std::string::npos);
  CHECK(fasta.out.find("--width INT=60") != std::string::npos);
}

TEST_CASE("the exit-code table is printed once, by mgnify --help only", "[cli][help]") {
  const auto root = run_help({"--help"});
  REQUIRE(root.code == 0);
  CHECK(root.out.find("Exit codes:") != std::string::npos);
  for (const auto& [path, screen] : commands()) {
    if (path.empty()) continue;
    INFO(joined_path(path));
    CHECK(screen.text.find("Exit codes:") == std::string::npos);
  }
}

TEST_CASE("docs/cli.md documents every option the help shows, and no other", "[cli][help][docs]") {
  const std::string doc =
      mgnify::test::dl::read_file(std::filesystem::path(MGNIFY_SOURCE_DIR) / "docs" / "cli.md");
  REQUIRE_FALSE(doc.empty());
  std::set<std::string> offered;
  for (const auto& [path, screen] : commands()) {
    for (const auto& option : screen.options) {
      offered.insert(option);
      // Documented: the name as a whole word ("--max" does not document "--max-depth").
      const std::regex mention(option + "(?![a-z0-9-])");
      INFO(joined_path(path) << " offers " << option);
      CHECK(std::regex_search(doc, mention));
    }
  }
  REQUIRE(offered.count("--format") == 1);
  // The one deliberate mention of a non-option: the example of a mistyped one.
  const std::set<std::string> examples_of_mistakes = {"--maxx"};
  const std::regex any_option("--[a-z][a-z0-9-]*");
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), any_option);
       it != std::sregex_iterator(); ++it) {
    const std::string named = it->str();
    INFO("docs/cli.md names " << named);
    CHECK((offered.count(named) == 1 || examples_of_mistakes.count(named) == 1));
  }
}

TEST_CASE("the bash completion script completes commands, options and values",
          "[cli][completion]") {
  GeneratedDir dir;
  const auto script = dir.generate("bash");
  CHECK(bash_completes(script, {"pro"}) == std::set<std::string>{"protein"});
  CHECK(bash_completes(script, {"protein", ""}) ==
        std::set<std::string>{"get", "search", "fasta", "sequence-search"});
  CHECK(bash_completes(script, {"v2", "stu"}) == std::set<std::string>{"studies"});
  // An option's value is skipped on the way to the command.
  CHECK(bash_completes(script, {"--format", "tsv", "v2", "studies", "l"}) ==
        std::set<std::string>{"list"});
  CHECK(bash_completes(script, {"--format", ""}) == std::set<std::string>{"json", "ndjson", "tsv"});
  CHECK(bash_completes(script, {"downloads", "--api", ""}) == std::set<std::string>{"v1", "v2"});
  // A command's own options and the global ones that apply to it.
  const auto search = bash_completes(script, {"protein", "search", "--"});
  for (const char* option : {"--pfam", "--biome-id", "--lineage", "--max", "--format", "--help"}) {
    CHECK(search.count(option) == 1);
  }
  CHECK(search.count("--page-size") == 0);
  // Every option each help screen shows is offered after "--".
  for (const auto& [path, screen] : commands()) {
    auto words = path;
    words.push_back("--");
    const auto offered = bash_completes(script, words);
    for (const auto& option : screen.options) {
      INFO(joined_path(path) << " " << option);
      CHECK(offered.count(option) == 1);
    }
  }
  // The generator itself stays hidden.
  CHECK(bash_completes(script, {"_"}).empty());
}

TEST_CASE("completion offers each command the values it takes", "[cli][completion]") {
  GeneratedDir dir;
  const auto script = dir.generate("bash");
  // A matrix has no ndjson form; the samples table has.
  CHECK(bash_completes(script, {"abundance-table", "MGYS1", "--format", ""}) ==
        std::set<std::string>{"tsv", "csv", "json"});
  CHECK(bash_completes(script, {"samples-table", "MGYS1", "--format", ""}) ==
        std::set<std::string>{"tsv", "csv", "json", "ndjson"});
  CHECK(bash_completes(script, {"v2", "studies", "list", "--format", ""}) ==
        std::set<std::string>{"json", "ndjson", "tsv"});
  // -g offers the known groups, not the file names of the working directory.
  for (const std::vector<std::string>& words :
       {std::vector<std::string>{"abundance-table", "MGYS1", "-g", "taxonomies.closed"},
        std::vector<std::string>{"downloads", "MGYS1", "--group", "taxonomies.closed"}}) {
    const auto groups = bash_completes(script, words);
    INFO(joined_path(words));
    CHECK(groups.count("taxonomies.closed_reference.ssu") == 1);
    CHECK(groups.count("taxonomies.closed_reference.lsu") == 1);
    for (const auto& g : groups) CHECK(g.rfind("taxonomies.closed", 0) == 0);
  }
  CHECK(bash_completes(script, {"downloads", "MGYS1", "-g", "taxonomic_analysis_"}) ==
        std::set<std::string>{"taxonomic_analysis_ssu_rrna", "taxonomic_analysis_lsu_rrna"});
}

TEST_CASE("the zsh completion script is valid zsh", "[cli][completion]") {
  GeneratedDir dir;
  const auto script = dir.generate("zsh");
  const std::string text = mgnify::test::dl::read_file(script);
  CHECK(text.rfind("#compdef mgnify\n", 0) == 0);
  CHECK(text.find("\"/protein\") echo \"get search fasta sequence-search\"") != std::string::npos);
  if (!std::filesystem::exists("/bin/zsh") && !std::filesystem::exists("/usr/bin/zsh")) {
    MGNIFY_SKIP_TEST("zsh is not installed: the script's syntax was not checked");
  }
  const std::string zsh = std::filesystem::exists("/bin/zsh") ? "/bin/zsh" : "/usr/bin/zsh";
  const auto run = mgnify::test::cli::run_piped(zsh, {"-n", script.string()}, {});
  REQUIRE_FALSE(run.timed_out);
  CHECK(run.err.empty());
  CHECK(run.code == 0);

  // The completion function, with zsh's compadd replaced by a printer of what it is given.
  const std::string program = "compadd() { shift; print -r -- \"$@\"; }; source '" +
                              script.string() +
                              "' >/dev/null; words=(mgnify protein ''); CURRENT=3; PREFIX=''; "
                              "_mgnify; words=(mgnify --format ''); CURRENT=3; _mgnify";
  const auto completes = mgnify::test::cli::run_piped(zsh, {"-f", "-c", program}, {});
  REQUIRE_FALSE(completes.timed_out);
  CHECK(completes.code == 0);
  CHECK(completes.err.empty());
  CHECK(completes.out == "get search fasta sequence-search\njson ndjson tsv\n");
}

TEST_CASE("the man page names every command and every option the help shows", "[cli][man]") {
  GeneratedDir dir;
  const auto man_file = dir.generate("man");
  const std::string page = mgnify::test::dl::read_file(man_file);
  CHECK(page.rfind(".TH MGNIFY 1 ", 0) == 0);
  CHECK(page.find(".SH EXIT STATUS") != std::string::npos);
  // In roff a dash is written "\-".
  auto roff = [](const std::string& text) {
    std::string out;
    for (char c : text) out += c == '-' ? std::string("\\-") : std::string(1, c);
    return out;
  };
  for (const auto& [path, screen] : commands()) {
    if (!path.empty()) {
      std::string words;
      for (const auto& p : path) words += (words.empty() ? "" : " ") + p;
      INFO(joined_path(path));
      CHECK(page.find(".SS \"mgnify " + roff(words) + "\"") != std::string::npos);
    }
    for (const auto& option : screen.options) {
      INFO(joined_path(path) << " " << option);
      CHECK(page.find(roff(option)) != std::string::npos);
    }
  }
  CHECK(page.find("_generate") == std::string::npos);

  // EXAMPLES: each command line names a command that exists and only options it takes.
  const auto examples_at = page.find(".SH EXAMPLES\n");
  REQUIRE(examples_at != std::string::npos);
  const std::string examples =
      page.substr(examples_at, page.find(".SH ", examples_at + 1) - examples_at);
  std::size_t checked = 0;
  for (std::size_t at = examples.find(".nf\n"); at != std::string::npos;
       at = examples.find(".nf\n", at + 1)) {
    const auto begin = at + 4;
    std::string line = examples.substr(begin, examples.find('\n', begin) - begin);
    for (std::size_t dash = line.find("\\-"); dash != std::string::npos;
         dash = line.find("\\-", dash)) {
      line.erase(dash, 1);
    }
    INFO(line);
    std::istringstream words(line);
    std::string word;
    words >> word;
    CHECK(word == "mgnify");
    std::vector<std::string> path;
    std::vector<std::string> options;
    while (words >> word && word != ">") {
      auto longer = path;
      longer.push_back(word);
      if (word.rfind("-", 0) == 0) {
        options.push_back(word);
      } else if (commands().count(longer) == 1) {
        path = longer;
      }
    }
    REQUIRE(commands().count(path) == 1);
    CHECK_FALSE(path.empty());
    for (const auto& option : options) {
      INFO(option);
      const auto& shown = commands().at(path).options;
      CHECK((shown.count(option) == 1 || commands().at({}).options.count(option) == 1 ||
             (option.size() == 2 &&
              commands().at(path).text.find(option + ",") != std::string::npos)));
    }
    ++checked;
  }
  CHECK(checked >= 7);
  // groff renders it without warnings where it is installed.
  if (std::filesystem::exists("/usr/bin/groff")) {
    const auto run = mgnify::test::cli::run_piped("/usr/bin/groff",
                                         {"-man", "-Tutf8", "-ww", "-z", man_file.string()}, {});
    REQUIRE_FALSE(run.timed_out);
    CHECK(run.code == 0);
    CHECK(run.err.empty());
  }
}
