#pragma once

// The bodies of the SDK for MGNIFY_SEPARATE_COMPILATION: include this header in
// exactly one source file of the program (CMake's compiled mgnify library does).
// Without the macro every body is already inline in its header, and including
// this header adds nothing.

#include "mgnify/config.hpp"
#include "mgnify/detail/impl/genome_search_calls.ipp"
#include "mgnify/detail/impl/json.ipp"
#include "mgnify/files/impl/download.ipp"
#include "mgnify/files/impl/shard.ipp"
#include "mgnify/http/impl/curl_transport.ipp"
#include "mgnify/http/impl/session.ipp"
#include "mgnify/impl/default_transport.ipp"
#include "mgnify/impl/error_body.ipp"
#include "mgnify/impl/raw_json.ipp"
#include "mgnify/proteins/impl/client.ipp"
#include "mgnify/proteins/impl/sequence_search.ipp"
#include "mgnify/v1/impl/client.ipp"
#include "mgnify/v1/impl/resource.ipp"
#include "mgnify/v2/impl/client.ipp"
