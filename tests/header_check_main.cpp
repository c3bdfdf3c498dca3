// Built from one translation unit per public header (each included twice, to
// check the include guard); reaching main means every header compiled alone.
#include <cstdlib>
#include <iostream>

int main(int argc, char** argv) {
  if (argc > 1) std::cout << argv[1] << " headers compiled on their own\n";
  return EXIT_SUCCESS;
}
