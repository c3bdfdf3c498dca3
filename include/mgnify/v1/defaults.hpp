#pragma once

#include <cstddef>

#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

/// What a LegacyClient uses when its options leave a setting unset. Every service has
/// this header, with the same names.
namespace defaults {
/// The service's root (ClientOptions::base_url empty).
inline constexpr const char* kBaseUrl = "https://www.ebi.ac.uk/metagenomics/api/v1";
/// Requests in flight for a batch call (BatchOptions::concurrency 0).
inline constexpr std::size_t kConcurrency = 8;
}  // namespace defaults

}  // namespace v1
MGNIFY_NAMESPACE_END
