// A slow evaluator of shape-() kernel-form expressions, for tests of rules over REDUCE: RANGEs and
// variables take their values from an environment, buffer PARAMs read from vectors, a REDUCE
// loops over its ranges. Every ALU op is exec_alu (the kernels' semantics, fixed-width wraparound
// included) and both arms of a WHERE are evaluated, so a rewrite that reads memory its own gates
// do not protect fails here: a LOAD whose gate holds (or that has none) outside its buffer throws.
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "uop/exec_alu.h"
#include "uop/uop.h"

namespace onegrad::testing {

class KernelEval {
 public:
  std::unordered_map<const UOp*, i128> env;                         // RANGE or variable -> value
  std::unordered_map<const UOp*, std::vector<ConstValue>> buffers;  // buffer PARAM -> elements
  std::vector<std::pair<const UOp*, int64_t>> reads;                // (buffer, element), in order

  ConstValue eval(const UOpRef& e) {
    const UOp* u = e.get();
    switch (u->op) {
      case Ops::CONST: return u->const_value();
      case Ops::RANGE:
      case Ops::PARAM: {
        auto it = env.find(u);
        if (it == env.end()) throw std::runtime_error("KernelEval: no value for " + u->brief());
        return ConstValue::from_int(it->second);
      }
      case Ops::CAST: return cast_value(eval(u->src[0]), u->dtype);
      case Ops::LOAD: return load(e);
      case Ops::REDUCE: return reduce(e);
      default: break;
    }
    if (!is_alu(u->op)) throw std::runtime_error("KernelEval: cannot evaluate " + u->brief());
    std::vector<ConstValue> args;
    for (const UOpRef& s : u->src) args.push_back(eval(s));
    bool compare = u->dtype.is_bool() && !u->src.empty() && !u->src[0]->dtype.is_bool() && u->op != Ops::WHERE;
    DType dt = compare ? u->src[0]->dtype : u->dtype;
    if (u->op == Ops::WHERE) return args[0].truthy() ? args[1] : args[2];
    auto v = exec_alu(u->op, dt, args);
    if (!v) throw std::runtime_error("KernelEval: exec_alu has no value for " + u->brief());
    return *v;
  }

 private:
  ConstValue load(const UOpRef& ld) {
    if (ld->src.size() == 3 && !eval(ld->src[2]).truthy()) return eval(ld->src[1]);
    const UOpRef& index = ld->src[0];
    const std::vector<ConstValue>& data = buffers.at(index->src[0].get());
    i128 i = eval(index->src[1]).as_int();
    if (i < 0 || i >= i128(data.size()))
      throw std::out_of_range("KernelEval: load of element " + std::to_string(int64_t(i)) + " of a buffer of " +
                              std::to_string(data.size()));
    reads.push_back({index->src[0].get(), int64_t(i)});
    return data[size_t(i)];
  }

  ConstValue reduce(const UOpRef& red) {
    Ops op = red->arg.get<ReduceArg>().op;
    std::vector<const UOp*> ranges;
    for (size_t i = 1; i < red->src.size(); i++) ranges.push_back(red->src[i].get());
    std::optional<ConstValue> acc;
    std::vector<i128> at(ranges.size(), 0);
    auto bound = [&](size_t k) { return ranges[k]->src[0]->const_value().as_int(); };
    for (size_t k = 0; k < ranges.size(); k++)
      if (bound(k) <= 0) throw std::runtime_error("KernelEval: empty range");
    while (true) {
      for (size_t k = 0; k < ranges.size(); k++) env[ranges[k]] = at[k];
      ConstValue v = eval(red->src[0]);
      acc = acc ? *exec_alu(op, red->dtype, std::vector<ConstValue>{*acc, v}) : v;
      size_t k = ranges.size();
      while (k > 0 && ++at[k - 1] == bound(k - 1)) at[--k] = 0;
      if (k == 0) break;
    }
    for (const UOp* r : ranges) env.erase(r);
    return *acc;
  }
};

}  // namespace onegrad::testing
