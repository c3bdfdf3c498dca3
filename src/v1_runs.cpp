// One unit of the compiled library (MGNIFY_SEPARATE_COMPILATION); its bodies are listed in
// include/mgnify/impl/units/v1_runs.hpp.
#include "mgnify/impl/units/v1_runs.hpp"
