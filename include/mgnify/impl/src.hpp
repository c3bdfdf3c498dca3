#pragma once

// The bodies of the SDK for MGNIFY_SEPARATE_COMPILATION: include this header in
// exactly one source file of the program (CMake's compiled mgnify library does).
// Without the macro every body is already inline in its header, and including
// this header adds nothing.

#include "mgnify/config.hpp"

#include "mgnify/impl/raw_json.ipp"
#include "mgnify/v1/impl/client.ipp"
#include "mgnify/v1/impl/resource.ipp"
