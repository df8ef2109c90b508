// onegrad tir run FILE [--strict] [--func NAME] [--interpret] [--seed N] [--var NAME=VALUE]...: runs one
// function on seeded random arguments (tir/interpret/random_args.h) and prints the digest of every array
// argument afterwards (tir/interpret/digest.h), so two runs can be compared line by line.
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <ostream>

#include "cli.h"
#include "tir_compile/not_lowerable.h"
#include "tir_compile/run_prim_func.h"
#include "tir/interpret/digest.h"
#include "tir/interpret/random_args.h"
#include "tir_source.h"

namespace onegrad::cli {

namespace {

struct RunOptions {
  std::string file, func;
  bool interpret = false;
  tir::SpecMode spec = tir::SpecMode::AsTvm;
  tir::RandomArgumentOptions random;
};

bool parse_int(const std::string& s, int64_t& out) {
  auto res = std::from_chars(s.data(), s.data() + s.size(), out);
  return res.ec == std::errc() && res.ptr == s.data() + s.size() && !s.empty();
}

// "n=16" or "x=0.5"; an error message otherwise.
std::string parse_var(const std::string& spec, tir::RandomArgumentOptions& opts) {
  size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    return "--var expects NAME=VALUE, got '" + spec + "'";
  std::string name = spec.substr(0, eq), text = spec.substr(eq + 1);
  if (opts.vars.count(name)) return "--var: '" + name + "' is given twice";
  int64_t i;
  if (parse_int(text, i)) {
    opts.vars[name] = i;
    return "";
  }
  char* end = nullptr;
  double d = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return "--var '" + spec + "': the value is not a number";
  opts.vars[name] = d;
  return "";
}

// The options, or an error message.
std::string parse_options(const Args& args, RunOptions& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i], value;
    bool takes_value = a == "--func" || a == "--seed" || a == "--var";
    size_t eq = a.find('=');
    if (a.starts_with("--") && eq != std::string::npos) {
      value = a.substr(eq + 1);
      a = a.substr(0, eq);
      takes_value = true;
      if (a == "--interpret" || a == "--strict") return a + " takes no value";
      if (a != "--func" && a != "--seed" && a != "--var") return "unknown option '" + a + "'";
    } else if (takes_value) {
      if (i + 1 == args.size()) return a + " needs a value";
      value = args[++i];
    }
    if (a == "--interpret") {
      o.interpret = true;
    } else if (a == "--strict") {
      o.spec = tir::SpecMode::Strict;
    } else if (a == "--func") {
      o.func = value;
    } else if (a == "--seed") {
      int64_t seed;
      if (!parse_int(value, seed) || seed < 0) return "--seed expects a non-negative integer, got '" + value + "'";
      o.random.seed = static_cast<uint64_t>(seed);
    } else if (a == "--var") {
      if (std::string msg = parse_var(value, o.random); !msg.empty()) return msg;
    } else if (a.starts_with("--")) {
      return "unknown option '" + a + "'";
    } else if (o.file.empty()) {
      o.file = a;
    } else {
      return "expected one FILE, got '" + o.file + "' and '" + a + "'";
    }
  }
  if (o.file.empty()) return "expected a FILE";
  return "";
}

// The function to run: --func, else the only one, else "main"; an error message otherwise.
std::string choose_function(const tir::IRModule& m, const RunOptions& o, std::string& name) {
  if (!o.func.empty()) {
    name = o.func;
    if (m.find(name)) return "";
    return o.file + " has no function '" + name + "' (functions: " + m.names_text() + ")";
  }
  if (m.functions.size() == 1) name = m.functions[0].first;
  else if (m.find("main")) name = "main";
  else return o.file + " has " + std::to_string(m.functions.size()) + " functions (" + m.names_text() +
              "): choose one with --func";
  return "";
}

std::string setting_text(const tir::ScalarSetting& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", std::get<double>(v));
  return buf;
}

// Compiled code unless --interpret; a function with a construct the compiler does not lower yet
// runs through the interpreter, with a note naming the construct on standard error.
std::optional<tir::RuntimeValue> run(const tir::IRModule& m, const std::string& name,
                                     const std::vector<tir::Argument>& args, const RunOptions& o, std::ostream& err) {
  if (o.interpret) return tir::run_interpreted(m, name, args);
  try {
    return tir::run_compiled(m, name, args);
  } catch (const tir::TirNotLowerable& e) {
    err << o.file << ":" << e.line << ": note: " << e.construct << " cannot be compiled (" << e.why
        << "); running the interpreter\n";
  }
  return tir::run_interpreted(m, name, args);
}

}  // namespace

int run_tir_function(const Args& args, std::ostream& out, std::ostream& err) {
  RunOptions o;
  if (std::string msg = parse_options(args, o); !msg.empty()) {
    err << "onegrad tir run: " << msg << "\n";
    return kUsage;
  }
  std::optional<tir::IRModule> m = load_tir("run", o.file, err);
  if (!m) return kFailed;
  if (!report_tir_issues(o.file, *m, err, tir::WellFormedness::AsParsed, o.spec)) return kFailed;
  std::string name;
  if (std::string msg = choose_function(*m, o, name); !msg.empty()) {
    err << "onegrad tir run: " << msg << "\n";
    return kUsage;
  }
  const tir::PrimFuncNode& f = *m->find(name);
  tir::RandomArguments made;
  try {
    made = tir::random_arguments(f, o.random);
  } catch (const tir::RandomArgsError& e) {
    err << "onegrad tir run: " << name << ": " << e.what() << "\n";
    return kUsage;
  }
  std::optional<tir::RuntimeValue> ret;
  try {
    ret = run(*m, name, made.args, o, err);
  } catch (const tir::TirRuntimeError& e) {
    err << o.file << ":" << e.line << ": " << e.what_only << "\n";
    return kFailed;
  }
  for (const auto& [var, value] : made.values) out << "var " << var << " = " << setting_text(value) << "\n";
  for (size_t i = 0; i < f.params.size(); ++i)
    if (const auto* a = std::get_if<tir::ArrayRef>(&made.args[i]))
      out << tir::format_digest(f.buffer_of(f.params[i])->name, tir::digest_array(*a)) << "\n";
  if (ret) out << "ret: " << tir::format_value(*ret) << "\n";
  return kOk;
}

}  // namespace onegrad::cli
