#pragma once

// The spellings a client's run(accession) takes, checked alike for v1 and v2: the
// kind's typed accession, a std::string and a string literal reach the same run.

#include <catch2/catch.hpp>
#include <string>

#include "mgnify/accession.hpp"

namespace mgnify::test {

/// `typed_text` is a spelling the rule accepts; `canonical` the run's accession.
template <class Client>
void check_run_spellings(const Client& client, const char* typed_text,
                         const std::string& canonical) {
  CHECK(client.run(mgnify::RunAccession(typed_text)).accession == canonical);
  CHECK(client.run(canonical).accession == canonical);
  CHECK(client.run(canonical.c_str()).accession == canonical);
}

}  // namespace mgnify::test
