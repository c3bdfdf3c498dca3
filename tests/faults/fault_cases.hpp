#pragma once

// The fault matrix: each case scripts a misbehaviour on the request a call is
// about to send and states exactly what the call must do about it. The same
// table runs against a detail call, a list walk and a batch of every client
// (fault_matrix_test.cpp), and docs/reliability.md lists it.

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "faults/fault_support.hpp"
#include "mgnify/error.hpp"

namespace mgnify::test::faults {

struct Case {
  using Inject = std::function<void(const Shot&)>;
  using CheckError = std::function<void(const std::exception_ptr&, const Shot&)>;
  using CheckAfter = std::function<void(const Shot&)>;

  Case(std::string name_, Inject inject_, int hits_, bool recovers_, int leftover_ = 0,
       CheckError check_error_ = {}, CheckAfter check_after_ = {}, bool skip_v1_walk_ = false)
      : name(std::move(name_)),
        inject(std::move(inject_)),
        hits(hits_),
        recovers(recovers_),
        leftover(leftover_),
        check_error(std::move(check_error_)),
        check_after(std::move(check_after_)),
        skip_v1_walk(skip_v1_walk_) {}

  std::string name;
  std::function<void(const Shot&)> inject;
  /// Requests to the shot's path made by the faulted call.
  int hits = 1;
  /// The call succeeds (after retries or redirects) instead of throwing.
  bool recovers = false;
  /// Faults still queued when the call gave up (the next request meets them).
  int leftover = 0;
  /// Checks the exception of a call that does not recover.
  std::function<void(const std::exception_ptr&, const Shot&)> check_error;
  /// Extra checks once the call is done (either way).
  std::function<void(const Shot&)> check_after;
  /// The v1 walk follows links that the redirected page names (see the dedicated test).
  bool skip_v1_walk = false;
};

template <class E>
const E& as(const std::exception_ptr& p) {
  try {
    std::rethrow_exception(p);
  } catch (const E& e) {
    return dynamic_cast<const E&>(e);
  } catch (const std::exception& other) {
    FAIL("expected " << typeid(E).name() << ", got " << typeid(other).name() << ": " << other.what());
  }
  throw std::logic_error("unreachable");
}

// The stored exception object lives as long as the exception_ptr, so the
// reference `as` returns stays valid while the caller holds the pointer.
template <class E>
const E& expect(const std::exception_ptr& p) {
  REQUIRE(p);
  return as<E>(p);
}

inline bool slept(const Shot& s, std::chrono::seconds lo, std::chrono::seconds hi) {
  const auto sleeps = s.clock->sleeps();
  return std::any_of(sleeps.begin(), sleeps.end(), [&](auto d) { return d >= lo && d <= hi; });
}

inline void check_api(const std::exception_ptr& p, const Shot& s, int status, int attempts) {
  const auto& e = expect<mgnify::ApiError>(p);
  CHECK(e.status() == status);
  CHECK(e.attempts() == attempts);
  CHECK(e.method() == "GET");
  CHECK(e.url() == s.url);
}

inline void check_transport(const std::exception_ptr& p, const Shot& s,
                            mgnify::TransportError::Kind kind, int attempts) {
  const auto& e = expect<mgnify::TransportError>(p);
  CHECK(mgnify::TransportError::kind_name(e.kind()) == std::string(mgnify::TransportError::kind_name(kind)));
  CHECK(e.attempts() == attempts);
  CHECK(e.url() == s.url);
}

inline void check_decode(const std::exception_ptr& p, const Shot& s) {
  const auto& e = expect<mgnify::DecodeError>(p);
  CHECK(e.url() == s.url);
  CHECK_FALSE(e.detail().empty());
}

inline std::vector<Case> fault_cases() {
  using K = mgnify::TransportError::Kind;
  std::vector<Case> cases;
  auto add = [&](Case c) { cases.push_back(std::move(c)); };

  // ---- throttling -----------------------------------------------------------
  add({"429 with Retry-After in seconds, once",
       [](const Shot& s) { s.server.push_fault(s.path, Fault::throttled("2")); }, 2, true, 0, {},
       [](const Shot& s) { CHECK(slept(s, std::chrono::seconds(2), std::chrono::seconds(2))); }});
  add({"429 with Retry-After as an HTTP-date, once",
       [](const Shot& s) {
         s.server.push_fault(s.path, Fault::throttled(http_date(s.clock->wall_now() + std::chrono::seconds(7))));
       },
       2, true, 0, {},
       // Rounded up to whole seconds from a clock that may be a few ms on.
       [](const Shot& s) { CHECK(slept(s, std::chrono::seconds(6), std::chrono::seconds(7))); }});
  add({"429 without Retry-After, for the whole budget",
       [](const Shot& s) { s.server.push_faults(s.path, Fault::throttled(std::nullopt), kBudget); }, kBudget, false, 0,
       [](const std::exception_ptr& p, const Shot& s) {
         check_api(p, s, 429, kBudget);
         const auto& e = expect<mgnify::RateLimitedError>(p);
         CHECK_FALSE(e.retry_after().has_value());
         CHECK(e.message() == "Request was throttled.");
       }});
  add({"429 with Retry-After, for the whole budget",
       [](const Shot& s) { s.server.push_faults(s.path, Fault::throttled("3"), kBudget); }, kBudget, false, 0,
       [](const std::exception_ptr& p, const Shot& s) {
         check_api(p, s, 429, kBudget);
         const auto& e = expect<mgnify::RateLimitedError>(p);
         CHECK(e.retry_after() == std::optional<std::chrono::seconds>(std::chrono::seconds(3)));
       },
       [](const Shot& s) { CHECK(slept(s, std::chrono::seconds(3), std::chrono::seconds(3))); }});

  // ---- server errors ---------------------------------------------------------
  add({"503 burst shorter than the budget",
       [](const Shot& s) { s.server.push_faults(s.path, Fault::status_only(503), kBudget - 1); }, kBudget, true});
  add({"503 burst longer than the budget",
       [](const Shot& s) { s.server.push_faults(s.path, Fault::status_only(503), kBudget + 2); }, kBudget, false, 2,
       [](const std::exception_ptr& p, const Shot& s) {
         check_api(p, s, 503, kBudget);
         const auto& e = expect<mgnify::ServerError>(p);
         CHECK(e.message() == "injected");
       }});
  add({"500 with an HTML body, for the whole budget",
       [](const Shot& s) { s.server.push_faults(s.path, Fault::html(500), kBudget); }, kBudget, false, 0,
       [](const std::exception_ptr& p, const Shot& s) {
         check_api(p, s, 500, kBudget);
         const auto& e = expect<mgnify::ServerError>(p);
         CHECK(e.body().find("<html>") != std::string::npos);
         CHECK(e.message().find('<') == std::string::npos);  // the page's text, not its markup
         CHECK(e.message().find("Bad Gateway") != std::string::npos);
       }});
  // A fault met once is retried past; met on every attempt it fails the call.
  auto once_then_budget = [&](const std::string& what, const Fault& fault,
                              Case::CheckError check) {
    add({what + ", once", [fault](const Shot& s) { s.server.push_fault(s.path, fault); }, 2,
         true});
    add({what + ", for the whole budget",
         [fault](const Shot& s) { s.server.push_faults(s.path, fault, kBudget); }, kBudget, false,
         0, std::move(check)});
  };
  once_then_budget("502 with an HTML body", Fault::html(502),
                   [](const std::exception_ptr& p, const Shot& s) {
                     check_api(p, s, 502, kBudget);
                     expect<mgnify::ServerError>(p);
                   });
  once_then_budget("504", Fault::status_only(504, ""),
                   [](const std::exception_ptr& p, const Shot& s) {
                     check_api(p, s, 504, kBudget);
                     expect<mgnify::ServerError>(p);
                   });

  // ---- broken connections and bodies ------------------------------------------
  for (const auto& [what, fault] : {std::make_pair("connection dropped after the headers", Fault::dropped()),
                                    std::make_pair("body cut short in the middle", Fault::truncated())}) {
    once_then_budget(what, fault, [](const std::exception_ptr& p, const Shot& s) {
      check_transport(p, s, K::receive, kBudget);
    });
  }

  // ---- bad 200 bodies: never retried, always a DecodeError --------------------
  add({"invalid JSON",
       [](const Shot& s) { s.server.push_fault(s.path, Fault::status_only(200, R"({"data": [1, 2)")); }, 1, false, 0,
       check_decode});
  add({"JSON of the wrong shape",
       [](const Shot& s) { s.server.push_fault(s.path, Fault::status_only(200, s.wrong_shape)); }, 1, false, 0,
       check_decode});
  add({"empty 200 body", [](const Shot& s) { s.server.push_fault(s.path, Fault::status_only(200, "")); }, 1, false, 0,
       check_decode});

  // ---- redirects --------------------------------------------------------------
  add({"redirect loop",
       [](const Shot& s) {
         const std::string hop = s.path + "?loop=1";
         s.server.push_fault(s.path, Fault::redirect(302, hop));
         s.server.push_fault(s.path, Fault::redirect(302, hop));
       },
       2, false, 0,
       [](const std::exception_ptr& p, const Shot& s) {
         const auto& e = expect<mgnify::RedirectError>(p);
         CHECK(e.status() == 302);
         CHECK(e.attempts() == 1);  // a loop is not retried
         CHECK(e.message().find("loop") != std::string::npos);
         REQUIRE(e.redirects().size() == 2);
         CHECK(e.redirects()[0] == s.url);
       }});
  add({"redirect chain past the limit",
       [](const Shot& s) {
         for (int k = 1; k <= 6; ++k) s.server.push_fault(s.path, Fault::redirect(302, s.path + "?hop=" + std::to_string(k)));
       },
       6, false, 0,
       [](const std::exception_ptr& p, const Shot& s) {
         const auto& e = expect<mgnify::RedirectError>(p);
         CHECK(e.attempts() == 1);
         CHECK(e.message().find("more than 5 redirects") != std::string::npos);
         REQUIRE(e.redirects().size() == 6);
         CHECK(e.redirects()[0] == s.url);
       }});
  add({"redirect to another host: followed without the token",
       [](const Shot& s) { s.server.push_fault(s.path, Fault::redirect(302, s.foreign_url())); }, 2, true, 0, {},
       [](const Shot& s) {
         int local = 0, foreign = 0;
         for (const auto& r : s.server.requests()) {
           if (r.path != s.path) continue;
           const auto host = r.headers.find("host");
           REQUIRE(host != r.headers.end());
           INFO(r.target << " on " << host->second);
           if (host->second.rfind("localhost:", 0) == 0) {
             ++foreign;
             CHECK(r.headers.count("authorization") == 0);
             CHECK(r.headers.count("cookie") == 0);
           } else {
             ++local;
             CHECK(r.headers.count("authorization") == 1);
           }
         }
         std::string seen;
         for (const auto& r : s.server.requests()) {
           const auto host = r.headers.find("host");
           seen += r.target + " @" + (host == r.headers.end() ? std::string("?") : host->second) + "\n";
         }
         INFO("requests:\n" << seen);
         CHECK(foreign == 1);
         CHECK(local >= 1);
       },
       true});
  return cases;
}

}  // namespace mgnify::test::faults
