// The SDK's one compiled source under MGNIFY_SEPARATE_COMPILATION.
#include "mgnify/impl/src.hpp"
