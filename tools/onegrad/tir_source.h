// A TVMScript file as the `onegrad tir` subcommands read it: problems are printed as
// FILE:line:column: rule: message (rule "syntax" for text that does not parse), one per line.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>

#include "tir/ast/module.h"
#include "tir/check/module_issues.h"

namespace onegrad::cli {

// The parsed module; nullopt once the reason it could not be read or parsed is printed to err.
std::optional<tir::IRModule> load_tir(const std::string& command, const std::string& path, std::ostream& err);

// Prints every type-check and well-formedness finding of m in source order; true when there is none.
// `run` checks as TVM's parser does (a function marked check_well_formed=False skips well-formedness),
// `check` verifies everything.
bool report_tir_issues(const std::string& path, const tir::IRModule& m, std::ostream& err,
                       tir::WellFormedness mode = tir::WellFormedness::Verify);

}  // namespace onegrad::cli
