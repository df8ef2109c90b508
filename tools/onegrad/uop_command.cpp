// onegrad uop print FILE: parse a graph in the text form, verify it, print it back.
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli.h"
#include "uop/errors.h"
#include "uop/text/text.h"
#include "uop/verify/verify.h"

namespace onegrad::cli {

int run_uop(const Args& args, std::ostream& out, std::ostream& err) {
  if (args.size() != 2 || args[0] != "print") {
    err << "usage: onegrad uop print FILE   (FILE may be - for standard input)\n";
    return kUsage;
  }
  const std::string& path = args[1];
  std::stringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      err << "onegrad uop print: cannot read '" << path << "'\n";
      return kFailed;
    }
    text << in.rdbuf();
  }
  std::vector<UOpRef> roots;
  try {
    roots = parse_graphs(text.str());
  } catch (const ParseError& e) {
    err << path << ":" << e.line << ":" << e.column << ": " << e.what() << "\n";
    return kUsage;
  }
  for (const UOpRef& r : roots) {
    std::vector<std::string> problems = check(r, Stage::Tensor);
    if (!problems.empty()) {
      for (const std::string& p : problems) err << path << ": verify: " << p << "\n";
      return kFailed;
    }
  }
  out << print_graph(roots);
  return kOk;
}

}  // namespace onegrad::cli
