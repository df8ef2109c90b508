// build/bin/onegrad: see cli.cpp for the commands.
#include <iostream>

#include "cli.h"
#include "uop/errors.h"

int main(int argc, char** argv) {
  onegrad::cli::Args args(argv + 1, argv + argc);
  try {
    return onegrad::cli::run(args, std::cout, std::cerr);
  } catch (const onegrad::Error& e) {
    std::cerr << "onegrad: " << e.what() << "\n";
    return onegrad::cli::kFailed;
  } catch (const std::exception& e) {
    std::cerr << "onegrad: internal error: " << e.what() << "\n";
    return onegrad::cli::kFailed;
  }
}
