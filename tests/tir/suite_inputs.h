// The suite's programs (tests/tir/suite/*.py, tests/tir/suite_errors/*.py) and seeded random
// inputs for them. A program says how to run it in comment lines of its header:
//
//   # run: NAME [var=value ...] [Buffer=[d0,d1,...] ...]
//
// runs function NAME with scalar parameters and symbolic shape/stride/elem_offset Vars taken by
// name from the var=value pairs, and a buffer's shape replaced by the list given (to pass a wrong
// shape on purpose). Every buffer parameter gets a fresh allocation filled with random values
// drawn from the seed: integers in [-9, 9] (unsigned [0, 18]), bools 0/1, floats in [-2, 2)
// rounded to their type. The same (program, run, seed) always gives the same bytes, so a second
// executor can be fed exactly what the first got.
#pragma once
#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "host_array.h"
#include "tir/ast/buffer.h"
#include "tir/ast/expr.h"
#include "tir/ast/module.h"

namespace onegrad::tir::testing {

struct SuiteFile {
  std::string name;  // file name, "matmul.py"
  std::string text;
};

// GoogleTest names a parameter by this instead of dumping its bytes.
inline void PrintTo(const SuiteFile& f, std::ostream* os) { *os << f.name; }

// A test name from a file name: "int_widths.py" -> "int_widths".
inline std::string suite_test_name(const std::string& file) {
  std::string s = file.substr(0, file.size() - 3);
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

// Every *.py in `dir`, sorted by name.
inline std::vector<SuiteFile> suite_files(const std::string& dir) {
  std::vector<SuiteFile> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".py") continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    out.push_back({entry.path().filename().string(), ss.str()});
  }
  std::sort(out.begin(), out.end(), [](const SuiteFile& a, const SuiteFile& b) { return a.name < b.name; });
  return out;
}

// A program's header can't drive a run (a missing var, a shape that is no expression of vars, an
// allocation too large for a test): the fuzzer skips such mutants, the suite fails on them.
struct InputSpecError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RunSpec {
  std::string func;
  std::map<std::string, double> vars;
  std::map<std::string, std::vector<int64_t>> shapes;

  std::string label() const {
    std::string s = func;
    for (const auto& [k, v] : vars) s += "_" + k + std::to_string(static_cast<int64_t>(v));
    return s;
  }
};

// The `# run:` lines of a program, in order.
inline std::vector<RunSpec> run_specs(const std::string& text) {
  std::vector<RunSpec> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# run:", 0) != 0) continue;
    std::istringstream words(line.substr(6));
    RunSpec spec;
    words >> spec.func;
    for (std::string w; words >> w;) {
      size_t eq = w.find('=');
      if (eq == std::string::npos) throw InputSpecError("bad run word " + w);
      std::string key = w.substr(0, eq), value = w.substr(eq + 1);
      if (!value.empty() && value[0] == '[') {
        std::vector<int64_t> dims;
        std::istringstream ds(value.substr(1));
        for (std::string d; std::getline(ds, d, ',');) dims.push_back(std::stoll(d));
        spec.shapes[key] = dims;
      } else {
        spec.vars[key] = std::stod(value);
      }
    }
    out.push_back(spec);
  }
  return out;
}

// The first line starting with `prefix` (e.g. "# expect:"), without the prefix; empty if none.
inline std::string header_field(const std::string& text, const std::string& prefix) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(prefix, 0) == 0) return line.substr(line.find_first_not_of(' ', prefix.size()));
  return "";
}

// The value of a shape, stride or elem_offset expression: literals, Vars named in the run line,
// and + - * // of those.
inline int64_t eval_extent(const PrimExpr& e, const RunSpec& spec) {
  if (!e) return 0;
  if (auto* imm = e->as<IntImmNode>()) return imm->value;
  if (auto* v = e->as<VarNode>()) {
    auto it = spec.vars.find(v->name_hint);
    if (it == spec.vars.end()) throw InputSpecError("the run line gives no value for " + v->name_hint);
    return static_cast<int64_t>(it->second);
  }
  if (auto* b = e->as<BinaryNode>()) {
    int64_t x = eval_extent(b->a, spec), y = eval_extent(b->b, spec);
    switch (e->kind) {
      case ExprKind::Add: return x + y;
      case ExprKind::Sub: return x - y;
      case ExprKind::Mul: return x * y;
      case ExprKind::FloorDiv:
        if (y != 0) return x / y - ((x % y != 0) && ((x < 0) != (y < 0)));
        break;
      default: break;
    }
  }
  throw InputSpecError("cannot size an argument from this shape expression");
}

// Random contents for one storage element of t.
inline void fill_random(HostArray& a, std::mt19937_64& rng) {
  DataType t = a.dtype.element();
  int64_t n = a.storage_elements() * a.dtype.lanes;
  unsigned char* p = a.bytes.data();
  int64_t step = element_bytes(t);
  std::uniform_int_distribution<int> small(-9, 9);
  std::uniform_real_distribution<double> real(-2.0, 2.0);
  for (int64_t i = 0; i < n; ++i, p += step) {
    if (t.is_float()) {
      double v = real(rng);
      if (t.code == DataType::Code::BFloat) {
        uint16_t b = bf16_bits(v);
        std::memcpy(p, &b, 2);
      } else if (t.bits == 16) {
        _Float16 h = static_cast<_Float16>(v);
        std::memcpy(p, &h, 2);
      } else if (t.bits == 32) {
        float f = static_cast<float>(v);
        std::memcpy(p, &f, 4);
      } else {
        std::memcpy(p, &v, 8);
      }
      continue;
    }
    int64_t v = t.is_bool() ? (rng() & 1) : t.is_int() ? small(rng) : small(rng) + 9;
    std::memcpy(p, &v, static_cast<size_t>(step));  // little-endian: the low bytes
  }
}

// The arguments of one run: a HostArray per buffer parameter, scalars per scalar parameter.
struct SuiteArgs {
  PrimFunc func;
  std::vector<HostArray> arrays;
  std::vector<std::variant<int64_t, double, size_t>> params;  // scalar, or index into arrays

  HostArray& operator[](const std::string& buffer) {
    for (HostArray& a : arrays)
      if (a.name == buffer) return a;
    throw InputSpecError("no buffer parameter " + buffer);
  }
  // The interpreter's (and bind_arguments') view of them; valid while this object lives.
  std::vector<Argument> arguments() {
    std::vector<Argument> out;
    for (const auto& p : params) {
      if (auto* i = std::get_if<int64_t>(&p)) out.emplace_back(*i);
      else if (auto* d = std::get_if<double>(&p)) out.emplace_back(*d);
      else out.emplace_back(arrays[std::get<size_t>(p)].ref());
    }
    return out;
  }
};

// Arguments for `spec.func` of `module` drawn from `seed`. Throws InputSpecError when the run line
// does not determine them or they would exceed max_bytes.
inline SuiteArgs make_inputs(const IRModule& module, const RunSpec& spec, uint64_t seed,
                             int64_t max_bytes = int64_t{1} << 26) {
  SuiteArgs out;
  out.func = module.find(spec.func);
  if (!out.func) throw InputSpecError("no function " + spec.func);
  std::mt19937_64 rng(seed);
  int64_t total = 0;
  for (const Var& p : out.func->params) {
    Buffer b = out.func->buffer_of(p);
    if (!b) {
      auto it = spec.vars.find(p->name_hint);
      if (it == spec.vars.end()) throw InputSpecError("the run line gives no value for parameter " + p->name_hint);
      if (p->dtype.is_float()) out.params.emplace_back(it->second);
      else out.params.emplace_back(static_cast<int64_t>(it->second));
      continue;
    }
    HostArray a;
    a.name = b->name;
    a.dtype = b->dtype;
    auto shape = spec.shapes.find(b->name);
    if (shape != spec.shapes.end()) a.shape = shape->second;
    else
      for (const PrimExpr& e : b->shape) a.shape.push_back(eval_extent(e, spec));
    for (const PrimExpr& e : b->strides) a.strides.push_back(eval_extent(e, spec));
    a.elem_offset = eval_extent(b->elem_offset, spec);
    int64_t last = a.elem_offset;  // the furthest storage element the view reaches
    for (size_t d = 0; d < a.shape.size(); ++d) {
      if (a.shape[d] <= 0 || a.shape[d] > (int64_t{1} << 24)) throw InputSpecError("extent out of test range");
      int64_t stride = a.strides.empty() ? 1 : a.strides[d];
      if (a.strides.empty())
        for (size_t k = d + 1; k < a.shape.size(); ++k) stride *= a.shape[k];
      if (stride < 0) throw InputSpecError("negative stride");
      last += (a.shape[d] - 1) * stride;
    }
    if (a.elem_offset < 0 || last < 0) throw InputSpecError("negative offset");
    int64_t bytes = (last + 1) * element_bytes(a.dtype);
    if ((total += bytes) > max_bytes) throw InputSpecError("arguments too large for a test");
    a.bytes.resize(static_cast<size_t>(bytes));
    fill_random(a, rng);
    out.params.emplace_back(out.arrays.size());
    out.arrays.push_back(std::move(a));
  }
  return out;
}

}  // namespace onegrad::tir::testing
