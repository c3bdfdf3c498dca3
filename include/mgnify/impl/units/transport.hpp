#pragma once

// libcurl, the session over it and the default transport.
// One translation unit of the compiled library (src/transport.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/http/impl/curl_transport.ipp"
#include "mgnify/http/impl/session.ipp"
#include "mgnify/http/impl/url.ipp"
#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/impl/default_transport.ipp"
