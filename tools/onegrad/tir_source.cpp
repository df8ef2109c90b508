#include "tir_source.h"

#include <algorithm>
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

bool report_tir_issues(const std::string& path, const tir::IRModule& m, std::ostream& err, tir::WellFormedness mode,
                       tir::SpecMode spec) {
  std::vector<tir::TypeIssue> issues = tir::module_issues(m, mode);
  bool ok = true;
  for (const tir::TypeIssue& i : issues) {
    bool warning = spec == tir::SpecMode::AsTvm && !i.tvm_accepts.empty();
    ok = ok && warning;
    err << path << ":" << i.line << ":" << i.column << ": " << (warning ? "warning: " : "") << i.rule << ": " << i.message
        << (warning ? " " + i.spec_note() : "") << "\n";
  }
  return ok;
}

tir::SpecMode take_strict_flag(std::vector<std::string>& args) {
  auto it = std::remove(args.begin(), args.end(), "--strict");
  bool strict = it != args.end();
  args.erase(it, args.end());
  return strict ? tir::SpecMode::Strict : tir::SpecMode::AsTvm;
}

}  // namespace onegrad::cli
