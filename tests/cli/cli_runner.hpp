#pragma once

// Runs the real `mgnify` binary as a child process, with its stdout and stderr
// on pipes or on a pseudo-terminal, under a deadline.

#include <fcntl.h>
#include <httplib.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "downloads/download_support.hpp"
#include "mock_server.hpp"

extern char** environ;

namespace mgnify::test::cli {

/// The body `server` serves for `path_and_query`, read directly (not through the SDK) and parsed.
inline nlohmann::json mock_body(const mgnify::mock::MockServer& server,
                                const std::string& path_and_query) {
  httplib::Client client(server.origin());
  // The first request of a process builds the mock's data set: seconds under the
  // sanitizers on a busy machine, past cpp-httplib's 5 s default.
  client.set_read_timeout(60, 0);
  const auto res = client.Get(path_and_query);
  REQUIRE(res);
  REQUIRE(res->status == 200);
  return nlohmann::json::parse(res->body);
}

/// The JSON documents of ndjson output, one per non-empty line.
inline std::vector<nlohmann::json> ndjson_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

/// A scratch directory that removes itself (shared with the download tests).
using TempDir = mgnify::test::dl::TempDir;

/// SDK options for reading the mock directly: its URL, no pacing.
inline mgnify::ClientOptions sdk_options(const std::string& base_url) {
  mgnify::ClientOptions o;
  o.base_url = base_url;
  o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
  return o;
}

/// The cells of one TSV line, as written (not unescaped).
inline std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (;;) {
    const auto tab = line.find('\t', start);
    cells.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return cells;
    start = tab + 1;
  }
}

struct Run {
  int code = -1;  // exit status; -1 when killed
  std::string out;
  std::string err;  // with a terminal: everything the child wrote (stdout and stderr share it)
  bool timed_out = false;
};

/// Environment for the child: ours minus MGNIFY_* (so a developer's settings
/// cannot leak into the test), plus `extra` ("NAME=value").
inline std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    if (std::strncmp(*e, "MGNIFY_", 7) != 0) env.emplace_back(*e);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

struct Argv {
  std::vector<std::string> storage;
  std::vector<char*> pointers;
  explicit Argv(std::vector<std::string> items) : storage(std::move(items)) {
    for (auto& s : storage) pointers.push_back(s.data());
    pointers.push_back(nullptr);
  }
  char** get() { return pointers.data(); }
};

inline int wait_child(pid_t pid, bool kill_first) {
  if (kill_first) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// stdout and stderr on separate pipes; stdin is /dev/null. A positive
/// `interrupt_after` sends the child SIGINT once that long after it started,
/// as Ctrl-C would.
inline Run run_piped(const std::string& binary, const std::vector<std::string>& args,
                     const std::vector<std::string>& env_extra,
                     std::chrono::milliseconds timeout = std::chrono::seconds(30),
                     std::chrono::milliseconds interrupt_after = std::chrono::milliseconds(0)) {
  std::vector<std::string> argv_items{binary};
  argv_items.insert(argv_items.end(), args.begin(), args.end());
  Argv argv(argv_items);
  Argv envp(child_environment(env_extra));

  int out_pipe[2];
  int err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
    throw std::runtime_error("pipe failed");
  }
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec: the parent has threads.
    const int devnull = ::open("/dev/null", O_RDONLY);
    ::dup2(devnull, 0);
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    ::execve(binary.c_str(), argv.get(), envp.get());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);

  Run run;
  const auto started = std::chrono::steady_clock::now();
  const auto deadline = started + timeout;
  bool interrupt_due = interrupt_after.count() > 0;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&run.out, &run.err};
  int open_fds = 2;
  while (open_fds > 0) {
    const auto now = std::chrono::steady_clock::now();
    if (interrupt_due && now >= started + interrupt_after) {
      ::kill(pid, SIGINT);
      interrupt_due = false;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    if (left.count() <= 0) {
      run.timed_out = true;
      break;
    }
    if (interrupt_due) {
      left = std::min(left, std::chrono::duration_cast<std::chrono::milliseconds>(
                                started + interrupt_after - now) +
                                std::chrono::milliseconds(1));
    }
    const int ready = ::poll(fds, 2, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[65536];
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& fd : fds) {
    if (fd.fd >= 0) ::close(fd.fd);
  }
  run.code = wait_child(pid, run.timed_out);
  return run;
}

/// stdin, stdout and stderr on a pseudo-terminal (forkpty), as in an
/// interactive shell. All output lands in Run::err. A positive
/// `interrupt_after` sends the child SIGINT once that long after it started;
/// a non-empty `interrupt_once_shown`, once its output contains that text.
inline Run run_in_terminal(const std::string& binary, const std::vector<std::string>& args,
                           const std::vector<std::string>& env_extra,
                           std::chrono::milliseconds timeout = std::chrono::seconds(30),
                           std::chrono::milliseconds interrupt_after = std::chrono::milliseconds(0),
                           const std::string& interrupt_once_shown = std::string()) {
  std::vector<std::string> argv_items{binary};
  argv_items.insert(argv_items.end(), args.begin(), args.end());
  Argv argv(argv_items);
  Argv envp(child_environment(env_extra));

  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) throw std::runtime_error("forkpty failed");
  if (pid == 0) {
    ::execve(binary.c_str(), argv.get(), envp.get());
    ::_exit(127);
  }
  Run run;
  const auto started = std::chrono::steady_clock::now();
  const auto deadline = started + timeout;
  bool interrupt_due = interrupt_after.count() > 0;
  bool interrupt_on_text = !interrupt_once_shown.empty();
  for (;;) {
    if (interrupt_on_text && run.err.find(interrupt_once_shown) != std::string::npos) {
      ::kill(pid, SIGINT);
      interrupt_on_text = false;
    }
    const auto now = std::chrono::steady_clock::now();
    if (interrupt_due && now >= started + interrupt_after) {
      ::kill(pid, SIGINT);
      interrupt_due = false;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    if (left.count() <= 0) {
      run.timed_out = true;
      break;
    }
    if (interrupt_due) {
      left = std::min(left, std::chrono::duration_cast<std::chrono::milliseconds>(
                                started + interrupt_after - now) +
                                std::chrono::milliseconds(1));
    }
    pollfd fd{master, POLLIN, 0};
    const int ready = ::poll(&fd, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char buf[65536];
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n > 0) {
      run.err.append(buf, static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO once the child has closed its side
    }
  }
  ::close(master);
  run.code = wait_child(pid, run.timed_out);
  return run;
}

}  // namespace mgnify::test::cli
