#pragma once

// The JSON decoders', error bodies' and accession checks' shared helpers, and the paging engine.
// One translation unit of the compiled library (src/core.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/detail/impl/json.ipp"
#include "mgnify/detail/impl/json_text.ipp"
#include "mgnify/detail/impl/number_text.ipp"
#include "mgnify/detail/impl/page_engine.ipp"
#include "mgnify/detail/impl/text_excerpt.ipp"
#include "mgnify/impl/accession.ipp"
#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/impl/error_body.ipp"
#include "mgnify/impl/link_tags.ipp"
#include "mgnify/impl/raw_json.ipp"
