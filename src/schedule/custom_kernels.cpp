// The kernels of tensor-graph CUSTOM nodes (uop/custom_kernels.h; docs/schedule.md, "Custom kernels").
#include <string>

#include "schedule/kernel_builder.h"
#include "uop/custom_kernels.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

UOpRef op(Ops o, DType dt, std::vector<UOpRef> src) { return UOp::create(o, dt, std::move(src)); }
UOpRef u64(uint64_t v) { return UOp::const_int(dtypes::uint64, i128(v)); }

// floor(x * c / 2^64) for uint64 x and c, from the four 32x32-bit partial products (none wraps).
UOpRef mul_high(const UOpRef& x, const UOpRef& c) {
  DType u = dtypes::uint64;
  auto hi = [&](const UOpRef& v) { return op(Ops::SHR, u, {v, u64(32)}); };
  auto lo = [&](const UOpRef& v) { return op(Ops::AND, u, {v, u64(0xffffffffull)}); };
  auto mul = [&](const UOpRef& a, const UOpRef& b) { return op(Ops::MUL, u, {a, b}); };
  auto add = [&](const UOpRef& a, const UOpRef& b) { return op(Ops::ADD, u, {a, b}); };
  UOpRef ll = mul(lo(x), lo(c)), lh = mul(lo(x), hi(c)), hl = mul(hi(x), lo(c)), hh = mul(hi(x), hi(c));
  UOpRef mid = add(add(hi(ll), lo(lh)), lo(hl));  // below 3 * 2^32
  return add(add(add(hh, hi(lh)), hi(hl)), hi(mid));
}

}  // namespace

// Fisher-Yates, inside out: one loop whose iteration i draws j, reads out[j] (written by an
// earlier iteration) and writes out[i] and out[j]. The store to out[j] addresses the buffer AFTER the
// store to out[i], whose value is the load of out[j]: so within an iteration the load comes first,
// and when j == i both stores write i. Its address is read from memory (the words), so the kernel
// runs in order (codegen/opt.h: no opt splits or reorders the loop).
ScheduledKernel KernelBuilder::build_custom(const UOp* root, int out) {
  root_ = root;
  if (!root->arg.is<std::string>() || root->arg.get<std::string>() != kFisherYates || root->src.size() != 1 ||
      root->dtype != dtypes::int64)
    throw InternalError("rangeify: no kernel is named " + root->brief());
  Dims shape = static_shape_of(root, "rangeify");
  if (shape.size() != 1 || shape[0] < 2) throw InternalError("rangeify: fisher_yates wants n >= 2 elements, got " + root->brief());
  UOpRef out_param = param(out);  // slot 0: the buffer the kernel writes
  UOpRef i = new_range(shape[0], AxisType::LOOP);
  UOpRef w = lower(Request{root->src[0].get(), {i}, UOp::const_bool(true), {i}});
  if (w->dtype != dtypes::uint64) throw InternalError("rangeify: fisher_yates wants uint64 words, got " + root->brief());
  // runs_in_order keeps opts off a kernel whose store address is read from memory: words computed
  // in the loop would leave it open to a split that breaks the loop-carried reads
  bool loaded = false;
  for (const UOp* u : w->toposort()) loaded = loaded || u->op == Ops::LOAD;
  if (!loaded) throw InternalError("rangeify: fisher_yates reads its words from a buffer, got " + root->brief());
  UOpRef step = op(Ops::CAST, dtypes::uint64, {i});
  UOpRef odd = op(Ops::CMPNE, dtypes::bool_, {op(Ops::AND, dtypes::uint64, {step, u64(1)}), u64(0)});
  UOpRef x = op(Ops::WHERE, dtypes::uint64, {odd, op(Ops::MUL, dtypes::uint64, {w, step}), w});
  UOpRef j = op(Ops::CAST, dtypes::index, {mul_high(x, op(Ops::ADD, dtypes::uint64, {step, u64(1)}))});
  UOpRef value_i = op(Ops::CAST, dtypes::int64, {i});
  UOpRef earlier = op(Ops::CMPLT, dtypes::bool_, {j, i});
  UOpRef at_j = UOp::create(Ops::INDEX, out_param->dtype, {out_param, j});
  UOpRef moved = UOp::create(Ops::LOAD, dtypes::int64, {at_j, UOp::const_int(dtypes::int64, 0), earlier});
  UOpRef first = UOp::create(Ops::STORE, dtypes::void_,
                             {UOp::create(Ops::INDEX, out_param->dtype, {out_param, i}),
                              op(Ops::WHERE, dtypes::int64, {earlier, moved, value_i})});
  UOpRef after_first = UOp::create(Ops::AFTER, out_param->dtype, {out_param, first});
  UOpRef second = UOp::create(Ops::STORE, dtypes::void_,
                              {UOp::create(Ops::INDEX, out_param->dtype, {after_first, j}), value_i});
  return kernel_of(UOp::create(Ops::GROUP, dtypes::void_, {first, second}), {i});
}

}  // namespace onegrad
