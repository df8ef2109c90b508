// onegrad onnx info MODEL: the model's inputs, outputs, ops and opsets.
// onegrad onnx run MODEL [--input NAME=FILE.npy]... [--device D] [--bench N] [--save DIR]: runs it
// on inputs read from .npy files (inputs not given are filled with seeded normal values of their
// declared shape when it is fully known) and prints each output's dtype, shape and first values;
// it runs under the JIT (--no-jit: plain); --bench N times the first call, the capture and N replays
// (median and minimum per run); --save writes each output as DIR/NAME.npy.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <map>
#include <ostream>

#include "cli.h"
#include "uop/unsupported_error.h"

#ifdef ONEGRAD_HAVE_ONNX
#include "nn/npy_file.h"
#include "onnx/model.h"
#include "onnx/model_jit.h"
#include "onnx/tensor_proto.h"
#include "tensor/random.h"
#include "tensor/shape_util.h"
#endif

namespace onegrad::cli {

#ifdef ONEGRAD_HAVE_ONNX
namespace {

constexpr const char* kOnnxUsage =
    "usage: onegrad onnx info MODEL\n"
    "       onegrad onnx run MODEL [--input NAME=FILE.npy]... [--device D] [--bench N] [--save DIR] [--no-jit]\n";

int info(const onnx::Model& m, std::ostream& out) {
  out << "ir_version " << m.ir_version() << ", producer " << m.producer() << "\nopsets:";
  for (const auto& [domain, v] : m.opsets()) out << " " << (domain.empty() ? "ai.onnx" : domain) << "=" << v;
  out << "\ninputs:\n";
  for (const auto& v : m.inputs()) out << "  " << v.name << ": " << v.type_str() << "\n";
  out << "outputs:\n";
  for (const auto& v : m.outputs()) out << "  " << v.name << ": " << v.type_str() << "\n";
  out << "ops:";
  for (const auto& op : m.op_types()) out << " " << op;
  out << "\n";
  return kOk;
}

// An input the user did not give: seeded normal values when its declared shape is fully known.
Tensor made_up_input(const onnx::ValueInfo& v) {
  if (!v.shape) throw ArgumentError("onnx run: input '" + v.name + "' has no declared shape: give it with --input " + v.name + "=FILE.npy");
  std::vector<int64_t> shape;
  for (const auto& d : *v.shape) {
    if (!d.value) throw ArgumentError("onnx run: input '" + v.name + "' (" + v.type_str() + ") has a symbolic dim: give it with --input " + v.name + "=FILE.npy");
    shape.push_back(*d.value);
  }
  DType dt = onnx::dtype_of(v.elem_type, "input '" + v.name + "'");
  Tensor r = randn(shape, dtypes::float32);
  return dt.is_float() ? r.cast(dt) : r.abs().mul(ConstValue::from_int(3)).cast(dt);
}

void print_output(std::ostream& out, const std::string& name, const Tensor& t) {
  out << name << ": " << t.dtype().name() << " " << shape_text(t.shape());
  Tensor flat = t.reshape({t.numel()}).cast(dtypes::float64);
  int64_t n = std::min<int64_t>(t.numel(), 8);
  auto v = n > 0 ? flat.shrink({{0, n}}).to_vector<double>() : std::vector<double>{};
  out << " [";
  for (size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "") << std::setprecision(6) << v[i];
  out << (t.numel() > n ? ", ...]" : "]") << "\n";
}

int run_model(onnx::Model& m, const Args& rest, std::ostream& out, std::ostream& err) {
  std::map<std::string, Tensor> inputs;
  std::string device = "CPU", save;
  int bench = 0;
  for (size_t i = 0; i < rest.size(); ++i) {
    const std::string& a = rest[i];
    if (a == "--no-jit") {
      m.set_jit(false);
      continue;
    }
    if (i + 1 >= rest.size()) {
      err << "onegrad onnx run: " << a << " needs a value\n" << kOnnxUsage;
      return kUsage;
    }
    const std::string& v = rest[++i];
    if (a == "--input") {
      auto eq = v.find('=');
      if (eq == std::string::npos) {
        err << "onegrad onnx run: --input wants NAME=FILE.npy, got '" << v << "'\n";
        return kUsage;
      }
      inputs.insert_or_assign(v.substr(0, eq), nn::read_npy(v.substr(eq + 1)));
    } else if (a == "--device") {
      device = v;
    } else if (a == "--bench") {
      bench = std::stoi(v);
    } else if (a == "--save") {
      save = v;
    } else {
      err << "onegrad onnx run: unknown option " << a << "\n" << kOnnxUsage;
      return kUsage;
    }
  }
  manual_seed(0);
  for (const auto& v : m.inputs())
    if (!inputs.count(v.name)) inputs.insert_or_assign(v.name, made_up_input(v).realize());
  using Clock = std::chrono::steady_clock;
  auto ms_since = [](Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); };
  auto t0 = Clock::now();
  auto outs = m(inputs, device);
  double first = ms_since(t0);
  for (const auto& v : m.outputs()) {
    print_output(out, v.name, outs.at(v.name));
    if (!save.empty()) {
      std::filesystem::create_directories(save);
      nn::write_npy((std::filesystem::path(save) / (v.name + ".npy")).string(), outs.at(v.name));
    }
  }
  if (bench > 0) {
    t0 = Clock::now();
    m(inputs, device);  // under the JIT: the capture
    double second = ms_since(t0);
    std::vector<double> ms;
    for (int i = 0; i < bench; ++i) {
      t0 = Clock::now();
      m(inputs, device);
      ms.push_back(ms_since(t0));
    }
    std::sort(ms.begin(), ms.end());
    auto stats = m.jit_stats();
    const char* what = stats.replays > 0 ? "replays" : "plain runs";
    out << std::fixed << std::setprecision(3) << "bench: first call " << first << " ms, second call " << second << " ms; "
        << bench << " " << what << ": median " << ms[ms.size() / 2] << " ms, min " << ms.front() << " ms\n";
    if (!stats.not_jitted.empty()) out << "bench: not jitted: " << stats.not_jitted << "\n";
  }
  return kOk;
}

}  // namespace

int run_onnx(const Args& args, std::ostream& out, std::ostream& err) {
  if (args.size() < 2 || (args[0] != "info" && args[0] != "run")) {
    err << kOnnxUsage;
    return kUsage;
  }
  try {
    auto m = onnx::Model::load(args[1]);
    if (args[0] == "info") return info(m, out);
    return run_model(m, Args(args.begin() + 2, args.end()), out, err);
  } catch (const Error& e) {
    err << "onegrad onnx " << args[0] << ": " << e.what() << "\n";
    return kFailed;
  }
}
#else
int run_onnx(const Args&, std::ostream&, std::ostream& err) {
  err << "onegrad onnx: this build has no ONNX import (it needs libprotobuf-dev, protobuf-compiler and "
         "python3-onnx's onnx.proto when it is configured)\n";
  return kFailed;
}
#endif

}  // namespace onegrad::cli
