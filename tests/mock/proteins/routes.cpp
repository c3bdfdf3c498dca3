#include "mock_server.hpp"

namespace mgnify::mock {

// Placeholder until the proteins client lands; the service issue fills it in.
void register_proteins_routes(MockServer&) {}

}  // namespace mgnify::mock
