// The `onegrad` command-line tool: one file per subcommand, dispatched from main.cpp.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace onegrad::cli {

// Exit codes: 0 success, 1 the input was read but is wrong (a graph that fails verification, an
// unreadable file), 2 a usage error or input that does not parse.
inline constexpr int kOk = 0;
inline constexpr int kFailed = 1;
inline constexpr int kUsage = 2;

using Args = std::vector<std::string>;

int run_simplify(const Args& args, std::ostream& out, std::ostream& err);
int run_uop(const Args& args, std::ostream& out, std::ostream& err);
int run_train(const Args& args, std::ostream& out, std::ostream& err);
// onegrad tir check|print|run (tir_command.cpp); run's options in tir_run_command.cpp
int run_tir(const Args& args, std::ostream& out, std::ostream& err);
int run_tir_function(const Args& args, std::ostream& out, std::ostream& err);
// onegrad onnx info|run (onnx_command.cpp)
int run_onnx(const Args& args, std::ostream& out, std::ostream& err);
int run(const Args& args, std::ostream& out, std::ostream& err);  // the whole tool, argv[1..]

}  // namespace onegrad::cli
