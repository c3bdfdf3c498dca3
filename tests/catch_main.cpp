#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "support/run_end.hpp"

int main(int argc, char* argv[]) {
  const int result = Catch::Session().run(argc, argv);
  mgnify::test::finish_test_run();
  return result;
}
