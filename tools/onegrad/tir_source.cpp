#include "tir_source.h"

#include <fstream>
#include <ostream>
#include <sstream>

#include "tir/ast/errors.h"
#include "tir/check/module_issues.h"
#include "tir/parse/parser.h"

namespace onegrad::cli {

std::optional<tir::IRModule> load_tir(const std::string& command, const std::string& path, std::ostream& err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err << "onegrad tir " << command << ": cannot read '" << path << "'\n";
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  try {
    return tir::parse_script(text.str());
  } catch (const tir::TirSyntaxError& e) {
    err << path << ":" << e.line << ":" << e.column << ": syntax: " << e.what_only << "\n";
    return std::nullopt;
  }
}

bool report_tir_issues(const std::string& path, const tir::IRModule& m, std::ostream& err, tir::WellFormedness mode) {
  std::vector<tir::TypeIssue> issues = tir::module_issues(m, mode);
  for (const tir::TypeIssue& i : issues)
    err << path << ":" << i.line << ":" << i.column << ": " << i.rule << ": " << i.message << "\n";
  return issues.empty();
}

}  // namespace onegrad::cli
