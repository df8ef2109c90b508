// Shared pieces of the render tests: a builder for kernel-form graphs, host-side buffers holding
// values of any dtype (encoded exactly as the kernel stores them), and running a lowered kernel on
// the CPU through a program cache in a temporary folder (never the user's real cache).
#pragma once
#include <cstring>
#include <vector>

#include "codegen/linearize.h"
#include "codegen/reduce_to_acc.h"
#include "render/c_renderer.h"
#include "render/lower_kernel.h"
#include "runtime/buffer.h"
#include "runtime/device.h"
#include "runtime/program_cache.h"
#include "runtime/runtime_test_util.h"
#include "uop/errors.h"
#include "uop/text/text.h"
#include "uop/uop.h"

namespace onegrad::testing {

// The traits of a small GPU-like OpenCL device (two compute units, workgroups of up to 256 work
// items, 32 KiB of local memory), for tests that render OpenCL C without an OpenCL platform.
inline DeviceTraits gpu_like_traits(bool fp16, bool fp64) {
  DeviceTraits t;
  t.description = "test device";
  t.compute_units = 2;
  t.max_workgroup_size = 256;
  t.max_work_items = {256, 256, 256};
  t.local_memory_bytes = 32768;
  if (fp16) t.extensions.push_back("cl_khr_fp16");
  if (fp64) t.extensions.push_back("cl_khr_fp64");
  return t;
}

// ---- kernel-form builders (docs/kernel-form.md) ----

inline UOpRef param(int64_t slot, DType dt, int64_t size) {
  return UOp::create(Ops::PARAM, dt.ptr(), {UOp::shape_operand(std::vector<int64_t>{size})},
                     ParamArg{slot, dt.ptr(), Device(), std::nullopt, "", {}, {}});
}
inline UOpRef at(const UOpRef& buf, const UOpRef& i) { return UOp::create(Ops::INDEX, buf->dtype, {buf, i}); }
inline UOpRef load(const UOpRef& buf, const UOpRef& i) { return UOp::create(Ops::LOAD, buf->dtype.base(), {at(buf, i)}); }
inline UOpRef store(const UOpRef& buf, const UOpRef& i, const UOpRef& v) {
  return UOp::create(Ops::STORE, dtypes::void_, {at(buf, i), v});
}
// SINK(END(store, r) for each store): every store closed by its own END, as kernel form has it
inline UOpRef sink_over(const UOpRef& r, const std::vector<UOpRef>& stores) {
  std::vector<UOpRef> ends;
  for (const UOpRef& st : stores) ends.push_back(UOp::create(Ops::END, dtypes::void_, {st, r}));
  return UOp::create(Ops::SINK, dtypes::void_, ends);
}

// out[m, n] = sum over k of a[m, k] * b[k, n], in kernel form (axes: 0 = m, 1 = n, 2 = k).
inline UOpRef matmul_kernel(int64_t m, int64_t k, int64_t n, DType dt = dtypes::float32) {
  auto c = [](int64_t v) { return "CONST index " + std::to_string(v); };
  std::string t = dt.name();
  std::string s = "%cm = " + c(m) + "\n%ck = " + c(k) + "\n%cn = " + c(n) + "\n%cmn = " + c(m * n) + "\n%cmk = " + c(m * k) +
                  "\n%ckn = " + c(k * n) + "\n%smn = STACK index (%cmn)\n%smk = STACK index (%cmk)\n%skn = STACK index (%ckn)\n" +
                  "%out = PARAM ptr<" + t + ", GLOBAL> (%smn) {slot=0}\n%a = PARAM ptr<" + t + ", GLOBAL> (%smk) {slot=1}\n" +
                  "%b = PARAM ptr<" + t + ", GLOBAL> (%skn) {slot=2}\n" +
                  "%r0 = RANGE index (%cm) {id=0, LOOP}\n%r1 = RANGE index (%cn) {id=1, LOOP}\n%r2 = RANGE index (%ck) {id=2, REDUCE}\n" +
                  "%am = MUL index (%r0, %ck)\n%ai = ADD index (%am, %r2)\n%bm = MUL index (%r2, %cn)\n%bi = ADD index (%bm, %r1)\n" +
                  "%ap = INDEX ptr<" + t + ", GLOBAL> (%a, %ai)\n%bp = INDEX ptr<" + t + ", GLOBAL> (%b, %bi)\n" +
                  "%x = LOAD " + t + " (%ap)\n%y = LOAD " + t + " (%bp)\n%xy = MUL " + t + " (%x, %y)\n" +
                  "%acc = REDUCE " + t + " (%xy, %r2) {ADD, axes=[]}\n%om = MUL index (%r0, %cn)\n%oi = ADD index (%om, %r1)\n" +
                  "%op = INDEX ptr<" + t + ", GLOBAL> (%out, %oi)\n%st = STORE void (%op, %acc)\n" +
                  "%e1 = END void (%st, %r1)\n%e0 = END void (%e1, %r0)\n%sink = SINK void (%e0)\n";
  return parse_graph(s);
}

// lower_kernel without simplify_kernel: the renderer then sees the decomposed ops (SUB, NEG,
// CMPGT, ...) as they were built, not as the primitives the simplifier lowers them to.
inline LoweredKernel lower_unsimplified(const UOpRef& sink, const std::string& name = "unsimplified") {
  LoweredKernel k;
  k.spec.name = name;
  count_params(sink, k.spec);
  k.simplified = sink;
  k.lowered = lower_reduces(sink);
  k.linear = linearize(k.lowered);
  k.spec.source = render_c(k.linear, name);
  return k;
}

// ---- host buffers ----

struct HostBuffer {
  DType dtype;
  std::vector<ConstValue> values;
};

inline void encode_one(DType dt, const ConstValue& v, std::byte* out) { encode_value(dt, v, out); }
inline ConstValue decode_one(DType dt, const std::byte* in) { return decode_value(dt, in); }

inline HostBuffer host(DType dt, std::vector<ConstValue> vs) { return {dt, std::move(vs)}; }
inline HostBuffer host_floats(const std::vector<float>& v) {
  HostBuffer b{dtypes::float32, {}};
  for (float f : v) b.values.push_back(ConstValue::from_float(f));
  return b;
}
inline HostBuffer zeros(DType dt, size_t n) { return {dt, std::vector<ConstValue>(n, cast_value(ConstValue::from_int(0), dt))}; }
inline std::vector<float> floats_of(const HostBuffer& b) {
  std::vector<float> out;
  for (const ConstValue& v : b.values) out.push_back(float(v.as_double()));
  return out;
}

// The process's program cache for tests, in a temporary folder removed at exit.
inline ProgramCache& test_cache() {
  static TempDir dir;
  static ProgramCache cache(dir.path);
  return cache;
}

// Compile (or find) and run a lowered kernel on `device`; buffers go in and their values come back.
inline void run(const LoweredKernel& k, const std::vector<HostBuffer*>& bufs, const std::vector<int64_t>& vars = {},
                const std::string& device = "CPU") {
  std::shared_ptr<Program> prog = test_cache().get(get_device(device), k.spec);
  std::vector<Buffer> dev;
  dev.reserve(bufs.size());
  for (HostBuffer* h : bufs) {
    size_t item = size_t(h->dtype.itemsize());
    std::vector<std::byte> bytes(h->values.size() * item);
    for (size_t i = 0; i < h->values.size(); i++) encode_one(h->dtype, h->values[i], bytes.data() + i * item);
    dev.emplace_back(device, h->dtype, h->values.size());
    dev.back().copyin(bytes.data(), bytes.size());
  }
  std::vector<Buffer*> ptrs;
  for (Buffer& b : dev) ptrs.push_back(&b);
  prog->run(ptrs, vars);
  for (size_t k2 = 0; k2 < bufs.size(); k2++) {
    HostBuffer* h = bufs[k2];
    size_t item = size_t(h->dtype.itemsize());
    std::vector<std::byte> bytes(dev[k2].nbytes());
    dev[k2].copyout(bytes.data(), bytes.size());
    for (size_t i = 0; i < h->values.size(); i++) h->values[i] = decode_one(h->dtype, bytes.data() + i * item);
  }
}

}  // namespace onegrad::testing
