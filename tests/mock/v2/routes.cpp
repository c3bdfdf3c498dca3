#include "mock_server.hpp"

namespace mgnify::mock {

// Placeholder until the v2 client lands; the service issue fills it in.
void register_v2_routes(MockServer&) {}

}  // namespace mgnify::mock
