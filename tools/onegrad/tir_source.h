// A TVMScript file as the `onegrad tir` subcommands read it: problems are printed as
// FILE:line:column: rule: message (rule "syntax" for text that does not parse), one per line.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tir/ast/module.h"
#include "tir/check/module_issues.h"

namespace onegrad::cli {

// The parsed module; nullopt once the reason it could not be read or parsed is printed to err.
std::optional<tir::IRModule> load_tir(const std::string& command, const std::string& path, std::ostream& err);

// Prints every type-check and well-formedness finding of m in source order; true when none is an
// error. Under SpecMode::AsTvm what TVM accepts and the spec refuses is printed as
// FILE:line:column: warning: rule: message [spec rule ...]; under Strict it is an error.
// `run` checks as TVM's parser does (a function marked check_well_formed=False skips well-formedness),
// `check` verifies everything.
bool report_tir_issues(const std::string& path, const tir::IRModule& m, std::ostream& err,
                       tir::WellFormedness mode = tir::WellFormedness::Verify,
                       tir::SpecMode spec = tir::SpecMode::AsTvm);

// Removes "--strict" from args (anywhere); the mode it asks for.
tir::SpecMode take_strict_flag(std::vector<std::string>& args);

}  // namespace onegrad::cli
