#pragma once

// The one place a client's options become a curl transport. Clients call it
// when they build their session; code that builds an http::Session itself
// calls it too, unless it brings its own Transport.

#include "mgnify/config.hpp"
#include "mgnify/http/session_options.hpp"
#include "mgnify/options.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

/// The session options of `options`, with a pooled CurlTransport built from
/// its connection settings unless it already names a transport.
MGNIFY_DECL http::SessionOptions with_default_transport(ClientOptions options);

MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/impl/default_transport.ipp"
#endif
