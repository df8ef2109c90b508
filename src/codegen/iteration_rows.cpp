#include "codegen/iteration_rows.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "codegen/kernel_axes.h"

namespace onegrad {

namespace {

using Form = std::optional<RowForm>;

bool depends_on(const UOp* u, const UOp* r) {
  for (const UOp* x : u->toposort())
    if (x == r) return true;
  return false;
}

// A fixed-width integer whose value range reaches both ends of its type may have wrapped (the
// min_max property falls back to the type's range then): its value need not be the sum it spells.
bool cannot_wrap(const UOp* u) {
  if (!u->dtype.is_int() || u->dtype.is_index()) return u->dtype.is_int();
  return !(u->vmin().as_int() == u->dtype.int_min() && u->vmax().as_int() == u->dtype.int_max());
}

UOpRef as_index(const UOp* u) { return u->dtype.is_index() ? u->ref() : UOp::create(Ops::CAST, dtypes::index, {u->ref()}); }

class Linear {
 public:
  explicit Linear(const UOp* range) : range_(range) {}

  Form of(const UOp* u) {
    if (auto it = memo_.find(u); it != memo_.end()) return it->second;
    Form f = compute(u);
    memo_[u] = f;
    return f;
  }

 private:
  using Rule = Form (Linear::*)(const UOp*);

  Form compute(const UOp* u) {
    if (!cannot_wrap(u)) return std::nullopt;
    if (u == range_) return RowForm{1, UOp::index(0)};
    if (!depends_on(u, range_)) return RowForm{0, as_index(u)};
    // The ops an address may pass the range through and stay linear in it; any other op (a
    // division, a load, a comparison) leaves no row form.
    static const std::unordered_map<Ops, Rule> rules{
        {Ops::ADD, &Linear::add}, {Ops::SUB, &Linear::sub}, {Ops::MUL, &Linear::mul}, {Ops::CAST, &Linear::cast}};
    auto it = rules.find(u->op);
    return it == rules.end() ? std::nullopt : (this->*(it->second))(u);
  }

  Form add(const UOp* u) {
    Form a = of(u->src[0].get()), b = of(u->src[1].get());
    if (!a || !b) return std::nullopt;
    return RowForm{a->stride + b->stride, UOp::alu(Ops::ADD, {a->rest, b->rest})};
  }
  Form sub(const UOp* u) {
    Form a = of(u->src[0].get()), b = of(u->src[1].get());
    if (!a || !b) return std::nullopt;
    return RowForm{a->stride - b->stride, UOp::alu(Ops::SUB, {a->rest, b->rest})};
  }
  // range * c with c one known value (its value range a single number: a constant, or an
  // expression of constants such as a stride the lowering left as `1 * 512`)
  Form mul(const UOp* u) {
    Form a = of(u->src[0].get()), b = of(u->src[1].get());
    if (!a || !b) return std::nullopt;
    if (a->stride != 0 && b->stride != 0) return std::nullopt;
    const RowForm& lin = a->stride != 0 ? *a : *b;
    const UOp* factor = (a->stride != 0 ? u->src[1] : u->src[0]).get();
    if (factor->vmin().as_int() != factor->vmax().as_int()) return std::nullopt;
    int64_t c = int64_t(factor->vmin().as_int());
    return RowForm{lin.stride * c, UOp::alu(Ops::MUL, {lin.rest, UOp::index(c)})};
  }
  // An integer cast whose operand's whole value range fits the target keeps the value.
  Form cast(const UOp* u) {
    const UOp* x = u->src[0].get();
    if (!x->dtype.is_int() || !u->dtype.is_int()) return std::nullopt;
    if (!u->dtype.is_index() && (x->vmin().as_int() < u->dtype.int_min() || x->vmax().as_int() > u->dtype.int_max()))
      return std::nullopt;
    return of(x);
  }

  const UOp* range_;
  std::unordered_map<const UOp*, Form> memo_;
};

struct Access {
  const UOp* index;  // the INDEX
  bool store;
};

std::string memory_name(const UOp* m) {
  if (const auto* p = m->arg.get_if<ParamArg>()) return "buffer " + std::to_string(p->slot);
  if (const auto* b = m->arg.get_if<BufferArg>()) return "register buffer " + std::to_string(b->id);
  return m->brief();
}

}  // namespace

std::optional<RowForm> row_form(const UOpRef& address, const UOp* range) { return Linear(range).of(address.get()); }

std::string iteration_rows_conflict(const UOpRef& sink, const UOp* axis, const std::string& axis_name) {
  // every access to memory, by the memory it addresses, in program order
  std::unordered_map<const UOp*, std::vector<Access>> accesses;
  std::vector<const UOp*> order;
  for (const UOp* u : sink->toposort()) {
    bool store = u->op == Ops::STORE, load = u->op == Ops::LOAD;
    if ((!store && !load) || u->src[0]->op != Ops::INDEX) continue;
    const UOp* m = indexed_memory(*u->src[0]);
    if (m->op != Ops::PARAM && m->op != Ops::BUFFER) continue;
    if (!accesses.count(m)) order.push_back(m);
    accesses[m].push_back({u->src[0].get(), store});
  }
  Linear linear(axis);
  for (const UOp* m : order) {
    const std::vector<Access>& all = accesses.at(m);
    bool stored = std::any_of(all.begin(), all.end(), [](const Access& a) { return a.store; });
    bool loaded = std::any_of(all.begin(), all.end(), [](const Access& a) { return !a.store; });
    if (!stored) continue;  // read only: any iteration may read any element
    if (!loaded) {
      if (m->op == Ops::BUFFER) continue;  // a register: each thread writes its own copy
      for (const Access& a : all)
        if (!depends_on(a.index->src[1].get(), axis))
          return "the store to " + memory_name(m) + " does not depend on " + axis_name +
                 ": its threads would race, writing the same elements";
      continue;
    }
    std::optional<int64_t> rows;
    for (const Access& a : all) {
      const char* what = a.store ? "store to " : "load of ";
      Form f = linear.of(a.index->src[1].get());
      if (!f || f->stride < 1)
        return std::string("the ") + what + memory_name(m) +
               " addresses no multiple of the axis plus an offset: it may touch another iteration's elements";
      if (rows && *rows != f->stride)
        return std::string("the ") + what + memory_name(m) + " steps " + std::to_string(f->stride) +
               " elements per iteration where another access steps " + std::to_string(*rows);
      rows = f->stride;
      UOpRef rest = f->rest;
      if (rest->vmin().as_int() < 0 || rest->vmax().as_int() >= f->stride)
        return std::string("the ") + what + memory_name(m) +
               " reaches outside its iteration's rows (offset " + std::to_string(int64_t(rest->vmin().as_int())) + ".." +
               std::to_string(int64_t(rest->vmax().as_int())) + ", rows of " + std::to_string(f->stride) + ")";
    }
  }
  return "";
}

}  // namespace onegrad
