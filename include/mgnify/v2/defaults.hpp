#pragma once

#include <cstddef>

#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

/// What a V2Client uses when its options leave a setting unset. Every service has
/// this header, with the same names.
namespace defaults {
/// The service's root (ClientOptions::base_url empty).
inline constexpr const char* kBaseUrl = "https://www.ebi.ac.uk/metagenomics/api/v2";
/// Requests in flight for a batch call (BatchOptions::concurrency 0).
inline constexpr std::size_t kConcurrency = 8;
}  // namespace defaults

}  // namespace v2
MGNIFY_NAMESPACE_END
