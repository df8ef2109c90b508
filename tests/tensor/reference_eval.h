// A slow reference evaluator of tensor graphs, for tests only: it walks the graph node by node
// with exec_alu's constant semantics, so compositions (getitem steps, arange, cat, pow fix-ups, min
// by order reversal...) are checked for values before the engine exists. Index loops, no speed.
#pragma once
#include <cstring>
#include <limits>
#include <unordered_map>
#include <vector>

#include "tensor/index_check.h"
#include "tensor/realize_hook.h"
#include "tensor/tensor.h"
#include "uop/errors.h"
#include "uop/exec_alu.h"
#include "uop/index_error.h"

namespace onegrad::testing {

class ReferenceEval {
 public:
  struct Value {
    std::vector<int64_t> shape;
    std::vector<ConstValue> data;  // row-major
  };

  const Value& eval(const UOp* u) {
    if (auto it = memo_.find(u); it != memo_.end()) return it->second;
    Value v = compute(u);
    return memo_.emplace(u, std::move(v)).first->second;
  }

 private:
  static std::vector<int64_t> strides(const std::vector<int64_t>& s) {
    std::vector<int64_t> st(s.size(), 1);
    for (int i = int(s.size()) - 2; i >= 0; i--) st[i] = st[i + 1] * s[i + 1];
    return st;
  }
  static int64_t numel(const std::vector<int64_t>& s) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return n;
  }
  static std::vector<int64_t> operand(const UOpRef& s) {
    std::vector<int64_t> out;
    for (const UOpRef& d : s->src) out.push_back(int64_t(d->const_value().as_int()));
    return out;
  }
  // Each output element's value from the source element at map(out index).
  template <class F>
  static Value remap(const Value& src, std::vector<int64_t> shape, DType dt, F map) {
    Value out{shape, {}};
    auto ost = strides(shape), sst = strides(src.shape);
    std::vector<int64_t> idx(shape.size());
    for (int64_t flat = 0; flat < numel(shape); flat++) {
      for (size_t k = 0; k < shape.size(); k++) idx[k] = flat / ost[k] % shape[k];
      std::vector<int64_t> s = idx;
      if (!map(s)) {
        out.data.push_back(cast_value(ConstValue::from_int(0), dt));
        continue;
      }
      int64_t off = 0;
      for (size_t k = 0; k < s.size(); k++) off += s[k] * sst[k];
      out.data.push_back(src.data[off]);
    }
    return out;
  }
  static ConstValue read(const std::byte* p, DType dt) { return decode_value(dt, p); }

  Value compute(const UOp* u) {
    DType dt = u->dtype;
    auto shape = *u->static_shape();
    auto src = [&](size_t i) -> const Value& { return eval(u->src[i].get()); };
    switch (u->op) {
      case Ops::BUFFER: {
        const BufferArg& b = u->arg.get<BufferArg>();
        // The bytes wherever they live: with an engine linked, host data is on the device already.
        std::vector<std::byte> bytes(size_t(b.size) * size_t(dt.itemsize()));
        if (auto read_out = realize_hooks().read) read_out(u, bytes.data(), bytes.size());
        else if (!b.storage->host.empty()) std::memcpy(bytes.data(), b.storage->host.data(), bytes.size());
        Value v{shape, {}};
        for (int64_t i = 0; i < b.size; i++) v.data.push_back(read(bytes.data() + i * dt.itemsize(), dt));
        return v;
      }
      case Ops::CONST: return Value{{}, {u->const_value()}};
      case Ops::RESHAPE: return Value{shape, src(0).data};
      case Ops::LOAD:
      case Ops::DETACH: return src(0);  // DETACH: the value, only autograd stops there
      case Ops::AFTER: {  // an index check (tensor/index_check.h): the value, if the index fits
        const IndexCheckRecord* r = index_check_record(*u);
        if (!r) throw InternalError("reference eval: AFTER that is not an index check");
        for (const ConstValue& i : src(1).data)
          if (r->bad(int64_t(i.as_int()))) throw IndexError(r->message(int64_t(i.as_int())));
        return src(0);
      }
      case Ops::EXPAND: {
        auto in = src(0).shape;
        return remap(src(0), shape, dt, [&](std::vector<int64_t>& s) {
          for (size_t k = 0; k < s.size(); k++) if (in[k] == 1) s[k] = 0;
          return true;
        });
      }
      case Ops::PAD: case Ops::SHRINK: {
        auto o = operand(u->src[1]);
        auto in = src(0).shape;
        bool pad = u->op == Ops::PAD;
        return remap(src(0), shape, dt, [&](std::vector<int64_t>& s) {
          for (size_t k = 0; k < s.size(); k++) {
            s[k] += pad ? -o[k] : o[k];
            if (s[k] < 0 || s[k] >= in[k]) return false;
          }
          return true;
        });
      }
      case Ops::PERMUTE: {
        auto perm = u->arg.get<Arg::Ints>();
        return remap(src(0), shape, dt, [&](std::vector<int64_t>& s) {
          std::vector<int64_t> t(s.size());
          for (size_t k = 0; k < s.size(); k++) t[perm[k]] = s[k];
          s = t;
          return true;
        });
      }
      case Ops::FLIP: {
        auto f = u->arg.get<Arg::Bools>();
        return remap(src(0), shape, dt, [&](std::vector<int64_t>& s) {
          for (size_t k = 0; k < s.size(); k++) if (f[k]) s[k] = shape[k] - 1 - s[k];
          return true;
        });
      }
      case Ops::REDUCE: {
        const ReduceArg& r = u->arg.get<ReduceArg>();
        const Value& in = src(0);
        ConstValue init = r.op == Ops::ADD ? ConstValue::from_int(0) : r.op == Ops::MUL ? ConstValue::from_int(1)
                          : dt.is_float() ? ConstValue::from_float(-std::numeric_limits<double>::infinity())
                                          : ConstValue::from_int(dt.int_min());
        Value out{shape, std::vector<ConstValue>(numel(shape), cast_value(init, dt))};
        auto ist = strides(in.shape), ost = strides(shape);
        for (int64_t flat = 0; flat < numel(in.shape); flat++) {
          int64_t off = 0;
          for (size_t k = 0; k < in.shape.size(); k++) off += (shape[k] == 1 ? 0 : flat / ist[k] % in.shape[k]) * ost[k];
          ConstValue args[2] = {out.data[off], in.data[flat]};
          out.data[off] = *exec_alu(r.op, dt, args);
        }
        return out;
      }
      default: break;
    }
    if (!is_alu(u->op)) throw InternalError("reference eval: op " + std::string(op_name(u->op)));
    Value out{shape, {}};
    // Comparisons evaluate in the operands' dtype; the rest in the node's.
    DType op_dt = is_comparison(u->op) ? u->src[0]->dtype : dt;
    for (int64_t i = 0; i < numel(shape); i++) {
      std::vector<ConstValue> args;
      for (size_t k = 0; k < u->src.size(); k++) args.push_back(src(k).data[i]);
      auto r = exec_alu(u->op, op_dt, args);
      out.data.push_back(r ? *r : cast_value(ConstValue::from_int(0), dt));  // int division by 0 yields 0
    }
    return out;
  }

  std::unordered_map<const UOp*, Value> memo_;
};

// The tensor's elements as doubles / ints.
inline std::vector<double> values(const Tensor& t) {
  ReferenceEval ev;
  std::vector<double> out;
  for (const ConstValue& c : ev.eval(t.uop().get()).data) out.push_back(c.as_double());
  return out;
}
inline std::vector<int64_t> ints(const Tensor& t) {
  ReferenceEval ev;
  std::vector<int64_t> out;
  for (const ConstValue& c : ev.eval(t.uop().get()).data) out.push_back(int64_t(c.as_int()));
  return out;
}

}  // namespace onegrad::testing
