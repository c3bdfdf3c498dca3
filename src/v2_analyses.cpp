// One unit of the compiled library (MGNIFY_SEPARATE_COMPILATION); its bodies are listed in
// include/mgnify/impl/units/v2_analyses.hpp.
#include "mgnify/impl/units/v2_analyses.hpp"
