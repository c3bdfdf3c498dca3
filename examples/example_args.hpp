#pragma once

// The command-line convention every example follows: `--base-url URL` wins,
// then the service's environment variable, then the public service.

#include <cstdlib>
#include <string>
#include <vector>

namespace example {

struct Args {
  std::string base_url;             // empty: the client's default
  std::vector<std::string> positional;
};

inline Args parse_args(int argc, char** argv, const char* env_var) {
  Args args;
  if (const char* env = std::getenv(env_var); env && *env) args.base_url = env;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--base-url" && i + 1 < argc) {
      args.base_url = argv[++i];
    } else if (arg.rfind("--base-url=", 0) == 0) {
      args.base_url = arg.substr(11);
    } else {
      args.positional.push_back(arg);
    }
  }
  return args;
}

}  // namespace example
