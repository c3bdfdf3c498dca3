// The help screens, the generated completion scripts and man page, and
// docs/cli.md all describe the same commands and options: each is checked
// against what the binary's own --help shows.

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli_runner.hpp"
#include "skip.hpp"

namespace {

std::string joined_path(const std::vector<std::string>& path) {
  std::string out = "mgnify";
  for (const auto& p : path) out += " " + p;
  return out;
}

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

/// The help screens of `paths`, a few runs at a time: the walk is most of what the tests
/// that need it take, and each run mostly waits for a process to start. No Catch2
/// assertion runs off the calling thread; a run that could not start comes back with
/// code -1 and the reason in `err`.
std::vector<mgnify::test::cli::Run> help_screens(
    const std::vector<std::vector<std::string>>& paths) {
  std::vector<mgnify::test::cli::Run> runs(paths.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&paths, &runs, &next] {
    for (std::size_t i = next++; i < paths.size(); i = next++) {
      auto args = paths[i];
      args.push_back("--help");
      try {
        runs[i] = mgnify::test::cli::run_piped(MGNIFY_CLI_PATH, args, {});
      } catch (const std::exception& e) {
        runs[i].err = e.what();
      }
    }
  };
  const unsigned workers = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
  std::vector<std::thread> helpers;
  for (unsigned w = 1; w < workers; ++w) helpers.emplace_back(work);
  work();
  for (auto& helper : helpers) helper.join();
  return runs;
}

/// Every command path ({} for the root, {"protein"}, {"protein", "get"}, ...),
/// found by walking the help screens level by level, with the screen and the
/// options it shows.
std::map<std::vector<std::string>, HelpScreen> help_tree() {
  std::map<std::vector<std::string>, HelpScreen> tree;
  std::vector<std::vector<std::string>> level = {{}};
  // The tree is a few levels deep and has a few hundred commands; the bounds stop
  // a parse gone wrong.
  for (int depth = 0; !level.empty() && depth < 10 && tree.size() < 2000; ++depth) {
    const auto runs = help_screens(level);
    std::vector<std::vector<std::string>> next_level;
    for (std::size_t i = 0; i < level.size(); ++i) {
      INFO(joined_path(level[i]) << ": " << runs[i].err);
      REQUIRE_FALSE(runs[i].timed_out);
      REQUIRE(runs[i].code == 0);
      tree[level[i]] = HelpScreen{runs[i].out, listed_options(runs[i].out)};
      for (const auto& sub : listed_subcommands(runs[i].out)) {
        auto child = level[i];
        child.push_back(sub);
        next_level.push_back(child);
      }
    }
    level = std::move(next_level);
  }
  REQUIRE(level.empty());
  return tree;
}

using HelpTree = std::map<std::vector<std::string>, HelpScreen>;

/// The binary's identity for the shared walk below: size and modification time.
std::string cli_binary_key() {
  struct stat st {};
  REQUIRE(::stat(MGNIFY_CLI_PATH, &st) == 0);
  return std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

/// key, the number of commands, then per command: its number of words, the words
/// one a line, the help text's length and the text.
std::string encode_tree(const std::string& key, const HelpTree& tree) {
  std::string out = key + "\n" + std::to_string(tree.size()) + "\n";
  for (const auto& [path, screen] : tree) {
    out += std::to_string(path.size()) + "\n";
    for (const auto& word : path) out += word + "\n";
    out += std::to_string(screen.text.size()) + "\n" + screen.text;
  }
  return out;
}

/// The tree of encode_tree, or nothing when the file is missing, torn or of another binary.
std::optional<HelpTree> decode_tree(const std::filesystem::path& file, const std::string& key) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  if (!std::getline(in, line) || line != key) return std::nullopt;
  std::size_t count = 0;
  if (!(in >> count)) return std::nullopt;
  HelpTree tree;
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t words = 0;
    if (!(in >> words) || in.get() != '\n') return std::nullopt;
    std::vector<std::string> path(words);
    for (auto& word : path) {
      if (!std::getline(in, word)) return std::nullopt;
    }
    std::size_t length = 0;
    if (!(in >> length) || in.get() != '\n') return std::nullopt;
    std::string text(length, '\0');
    if (!in.read(text.data(), static_cast<std::streamsize>(length))) return std::nullopt;
    tree[path] = HelpScreen{text, listed_options(text)};
  }
  return tree;
}

/// An exclusive flock() on `path`, waited for at most `limit`.
class FileLock {
 public:
  FileLock(const std::string& path, std::chrono::seconds limit)
      : fd_(::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644)) {
    REQUIRE(fd_ >= 0);
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      if (std::chrono::steady_clock::now() >= deadline) {
        ::close(fd_);
        FAIL("no lock on " << path << " within " << limit.count() << " s");
      }
      ::usleep(100 * 1000);
    }
  }
  ~FileLock() { ::close(fd_); }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

/// ctest runs each test case in a process of its own, and four of them need the whole
/// tree: a few hundred runs of the CLI, seconds of CPU under the sanitizers. The first
/// to get the lock walks it and leaves it beside the binary; the others, waiting on
/// the lock, read it back. A rebuilt binary has another key, so it is walked again.
HelpTree shared_help_tree() {
  const std::filesystem::path file = std::string(MGNIFY_CLI_PATH) + ".help-tree";
  const std::string key = cli_binary_key();
  // Waited for up to nearly ctest's limit for the test (300 s): the walk under the lock
  // is the part the test would have spent walking itself.
  FileLock lock(file.string() + ".lock", std::chrono::seconds(280));
  if (auto cached = decode_tree(file, key)) return *cached;
  auto tree = help_tree();
  const auto partial = file.string() + ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out << encode_tree(key, tree);
    REQUIRE(out.good());
  }
  std::filesystem::rename(partial, file);
  return tree;
}

const HelpTree& commands() {
  static const auto tree = shared_help_tree();
  return tree;
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

/// The words the bash completion offers for each of `queries` (the last word of each
/// being completed). One shell sources the script; each completion runs in a subshell
/// of it, so none sees what another left behind.
std::vector<std::set<std::string>> bash_completes_each(
    const std::filesystem::path& script, const std::vector<std::vector<std::string>>& queries) {
  // Ends each completion's output; no completion offers a word with a space.
  const std::string end = "end of completion";
  std::string program = "source '" + script.string() + "'";
  for (const auto& words : queries) {
    std::string array;
    for (const auto& w : words) array += " '" + w + "'";
    program += "; (COMP_WORDS=(mgnify" + array + "); COMP_CWORD=" + std::to_string(words.size()) +
               "; _mgnify; printf '%s\\n' \"${COMPREPLY[@]}\"); echo '" + end + "'";
  }
  const auto run = mgnify::test::cli::run_piped(
      "/bin/bash", {"--norc", "--noprofile", "-c", program}, {}, std::chrono::seconds(120));
  REQUIRE_FALSE(run.timed_out);
  REQUIRE(run.code == 0);
  CHECK(run.err.empty());
  std::vector<std::set<std::string>> out(1);
  std::istringstream in(run.out);
  std::string line;
  while (std::getline(in, line)) {
    if (line == end) {
      out.emplace_back();
    } else if (!line.empty()) {
      out.back().insert(line);
    }
  }
  // The set opened by the last end marker stays empty.
  REQUIRE(out.size() == queries.size() + 1);
  REQUIRE(out.back().empty());
  out.pop_back();
  return out;
}

/// The words the bash completion offers for `words` (the last one being completed).
std::set<std::string> bash_completes(const std::filesystem::path& script,
                                     const std::vector<std::string>& words) {
  return bash_completes_each(script, {words}).front();
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
  // Each option once, with the first command that offers it: hundreds of screens
  // repeat the global options, and one search of the whole document each is slow
  // in the sanitizers' -O0 builds.
  std::map<std::string, std::string> offered;
  for (const auto& [path, screen] : commands()) {
    for (const auto& option : screen.options) offered.emplace(option, joined_path(path));
  }
  for (const auto& [option, path] : offered) {
    // Documented: the name as a whole word ("--max" does not document "--max-depth").
    const std::regex mention(option + "(?![a-z0-9-])");
    INFO(path << " offers " << option);
    CHECK(std::regex_search(doc, mention));
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
  std::vector<std::vector<std::string>> queries;
  for (const auto& entry : commands()) {
    queries.push_back(entry.first);
    queries.back().push_back("--");
  }
  const auto offered = bash_completes_each(script, queries);
  std::size_t i = 0;
  for (const auto& [path, screen] : commands()) {
    for (const auto& option : screen.options) {
      INFO(joined_path(path) << " " << option);
      CHECK(offered[i].count(option) == 1);
    }
    ++i;
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
  // A matrix is made of count tables: no quality control or sequence files are offered.
  const auto table_groups = bash_completes(script, {"abundance-table", "MGYS1", "-g", ""});
  CHECK(table_groups.count("taxonomies.closed_reference.ssu") == 1);
  CHECK(table_groups.count("functional_annotation.pfams") == 1);
  for (const char* no_table :
       {"quality_control", "sequence_data", "coding_sequences", "taxonomies"}) {
    CHECK(table_groups.count(no_table) == 0);
  }
  // Values with a known set are offered, never the file names of the working directory.
  CHECK(bash_completes(script, {"protein", "sequence-search", "--database", ""}) ==
        std::set<std::string>{"full", "all", "partial"});
  const auto types = bash_completes(script, {"v2", "runs", "list", "--experiment-type", ""});
  CHECK(types.count("METAG") == 1);
  CHECK(types.count("AMPLI") == 1);
  CHECK(bash_completes(script, {"v2", "studies", "related", "MGYS1", ""}) ==
        std::set<std::string>{"analyses", "samples", "publications"});
  CHECK(bash_completes(script, {"v2", "studies", "related", "MGYS1", "sa"}) ==
        std::set<std::string>{"samples"});
  // The accession before the relation is free text: nothing is offered for it.
  CHECK(bash_completes(script, {"v2", "studies", "related", ""}).empty());
}

TEST_CASE("an option a command does not take is neither listed for it nor accepted",
          "[cli][help]") {
  GeneratedDir dir;
  const auto script = dir.generate("bash");
  const std::string page = mgnify::test::dl::read_file(dir.generate("man"));
  for (const std::vector<std::string>& path :
       {std::vector<std::string>{"abundance-table"}, std::vector<std::string>{"verify"},
        std::vector<std::string>{"download"}}) {
    INFO(joined_path(path));
    auto help_args = path;
    help_args.push_back("--help");
    const auto help = run_help(help_args);
    REQUIRE(help.code == 0);
    // -o is an output file or nothing: here nothing.
    CHECK(help.out.find("-o,") == std::string::npos);
    CHECK(help.out.find(" -o ") == std::string::npos);
    auto options = path;
    options.push_back("-");
    CHECK(bash_completes(script, options).count("-o") == 0);
    if (path.front() != "download") {
      // --max is refused by abundance-table and ignored by verify: not offered
      // (--max-columns and --max-cells, abundance-table's own, are other options).
      CHECK_FALSE(std::regex_search(help.out, std::regex("--max(?![a-z-])")));
      options.back() = "--";
      CHECK(bash_completes(script, options).count("--max") == 0);
    }
  }
  // The man page's sections of the two commands do not name --max either.
  for (const char* command : {"abundance\\-table", "verify"}) {
    const auto start = page.find(std::string(".SS \"mgnify ") + command + "\"");
    REQUIRE(start != std::string::npos);
    const auto end = page.find(".SS ", start + 1);
    CHECK_FALSE(std::regex_search(page.substr(start, end - start),
                                  std::regex(R"(\\-\\-max(?![a-z]|\\-))")));
  }
}

TEST_CASE("the zsh completion script declares itself and knows the commands", "[cli][completion]") {
  GeneratedDir dir;
  const std::string text = mgnify::test::dl::read_file(dir.generate("zsh"));
  CHECK(text.rfind("#compdef mgnify\n", 0) == 0);
  CHECK(text.find("\"/protein\") echo \"get search fasta sequence-search\"") != std::string::npos);
}

// A skip reported after checks would report their failures as skipped too:
// each test that needs a program skips before it checks anything.
TEST_CASE("the zsh completion script is valid zsh", "[cli][completion]") {
  if (!std::filesystem::exists("/bin/zsh") && !std::filesystem::exists("/usr/bin/zsh")) {
    MGNIFY_SKIP_TEST("zsh is not installed: the script's syntax was not checked");
  }
  GeneratedDir dir;
  const auto script = dir.generate("zsh");
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
}

TEST_CASE("the man page renders with groff without a warning", "[cli][man]") {
  if (!std::filesystem::exists("/usr/bin/groff")) {
    MGNIFY_SKIP_TEST("groff is not installed: the man page was not rendered");
  }
  GeneratedDir dir;
  const auto man_file = dir.generate("man");
  const auto run = mgnify::test::cli::run_piped(
      "/usr/bin/groff", {"-man", "-Tutf8", "-ww", "-z", man_file.string()}, {});
  REQUIRE_FALSE(run.timed_out);
  CHECK(run.code == 0);
  CHECK(run.err.empty());
}
