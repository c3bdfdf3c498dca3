// Built once every public header has passed the compiler's checks on its own
// (mgnify_header_units: one translation unit per header, each included twice to
// check the include guard); reaching main means they all did.
#include <cstdlib>
#include <iostream>

int main(int argc, char** argv) {
  if (argc > 1) std::cout << argv[1] << " headers compiled on their own\n";
  return EXIT_SUCCESS;
}
