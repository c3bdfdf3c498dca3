#include "mock_server.hpp"

namespace mgnify::mock {

// Placeholder until the v1 client lands; the service issue fills it in.
void register_v1_routes(MockServer&) {}

}  // namespace mgnify::mock
