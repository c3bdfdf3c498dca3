#pragma once

// Umbrella header: everything a program needs to talk to the MGnify services.

#include "mgnify/accession.hpp"
#include "mgnify/auth.hpp"
#include "mgnify/cache/response_cache.hpp"
#include "mgnify/cancel.hpp"
#include "mgnify/concurrency/parallel_map.hpp"
#include "mgnify/error.hpp"
#include "mgnify/error_body.hpp"
#include "mgnify/files/checksum.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/genome_search.hpp"
#include "mgnify/http/curl_transport.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/list_options.hpp"
#include "mgnify/options.hpp"
#include "mgnify/paged.hpp"
#include "mgnify/proteins.hpp"
#include "mgnify/result.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"
#include "mgnify/version.hpp"
