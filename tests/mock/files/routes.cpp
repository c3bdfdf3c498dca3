#include "mock_server.hpp"

namespace mgnify::mock {

// Filled in by the downloads work: files with checksums, sizes and faults mid-transfer.
void register_file_routes(MockServer&) {}

}  // namespace mgnify::mock
