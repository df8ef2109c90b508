// onegrad simplify EXPR --var NAME:MIN:MAX ... [--trace]
#include <cctype>
#include <charconv>
#include <map>
#include <ostream>

#include "cli.h"
#include "symbolic/simplify.h"
#include "uop/errors.h"
#include "uop/text/expr_text.h"

namespace onegrad::cli {

namespace {

bool parse_int(const std::string& s, int64_t& out) {
  auto res = std::from_chars(s.data(), s.data() + s.size(), out);
  return res.ec == std::errc() && res.ptr == s.data() + s.size() && !s.empty();
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return s != "min" && s != "max" && s != "True" && s != "False" && s != "if" && s != "else";
}

// "x:0:100" -> a variable x with bounds [0, 100]; an error message otherwise.
std::string parse_var(const std::string& spec, std::map<std::string, UOpRef>& vars) {
  size_t a = spec.find(':'), b = a == std::string::npos ? a : spec.find(':', a + 1);
  if (b == std::string::npos || spec.find(':', b + 1) != std::string::npos)
    return "--var expects NAME:MIN:MAX, got '" + spec + "'";
  std::string name = spec.substr(0, a), lo_s = spec.substr(a + 1, b - a - 1), hi_s = spec.substr(b + 1);
  int64_t lo, hi;
  if (!is_identifier(name)) return "--var '" + spec + "': '" + name + "' is not a variable name";
  if (!parse_int(lo_s, lo) || !parse_int(hi_s, hi))
    return "--var '" + spec + "': MIN and MAX must be integers";
  if (lo > hi) return "--var '" + spec + "': MIN is greater than MAX";
  if (vars.count(name)) return "--var: '" + name + "' is declared twice";
  vars[name] = UOp::variable(name, lo, hi);
  return "";
}

}  // namespace

int run_simplify(const Args& args, std::ostream& out, std::ostream& err) {
  std::map<std::string, UOpRef> vars;
  std::vector<std::string> exprs;
  bool trace = false;
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& a = args[i];
    std::string spec;
    if (a == "--var") {
      if (i + 1 == args.size()) {
        err << "onegrad simplify: --var needs NAME:MIN:MAX\n";
        return kUsage;
      }
      spec = args[++i];
    } else if (a.starts_with("--var=")) {
      spec = a.substr(6);
    } else if (a == "--trace") {
      trace = true;
      continue;
    } else if (a.starts_with("--")) {
      err << "onegrad simplify: unknown option '" << a << "'\n";
      return kUsage;
    } else {
      exprs.push_back(a);
      continue;
    }
    if (std::string msg = parse_var(spec, vars); !msg.empty()) {
      err << "onegrad simplify: " << msg << "\n";
      return kUsage;
    }
  }
  if (exprs.size() != 1) {
    err << "onegrad simplify: expected one expression, got " << exprs.size()
        << " (usage: onegrad simplify EXPR --var NAME:MIN:MAX ...)\n";
    return kUsage;
  }
  UOpRef e;
  try {
    e = parse_expr(exprs[0], vars);
  } catch (const ParseError& pe) {
    err << "onegrad simplify: " << pe.what() << "\n";
    return kUsage;
  }
  RewriteTrace t;
  UOpRef s = simplify(e, trace ? &t : nullptr);
  if (trace) err << t.str();
  out << print_expr(s) << "\n";
  return kOk;
}

}  // namespace onegrad::cli
