// TracedFunction: the spec's five steps (The @function Decorator) with a cache of bodies by
// signature. docs/function.md walks through them.
#include "tensor/function.h"

#include <atomic>
#include <map>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "tensor/shape_util.h"
#include "uop/errors.h"
#include "uop/resolve_function.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

// One traced body: FUNCTION(body, args..., captured...) is built from it on every call.
struct Body {
  UOpRef tuple;                   // TUPLE of the outputs, over PARAM(0..n-1) and the captured PARAMs
  std::vector<UOpRef> captured;   // values read from outside the arguments (allow_implicit), slots n...
  std::vector<std::string> devices;  // of each output, as the trace made it
  std::string structure;          // TraceResult::structure of the trace
};

// Placeholders of a running trace carry its number as their tag, so they are nodes of their own:
// a nested function's placeholder is never the enclosing trace's PARAM of the same slot and shape.
std::atomic<int64_t> next_trace{1};

UOpRef placeholder(int64_t slot, const UOpRef& like, const Device& device, std::optional<int64_t> tag) {
  ParamArg p{slot, like->dtype, device, std::nullopt, "", std::nullopt, std::nullopt};
  return UOp::create(Ops::PARAM, like->dtype, {UOp::shape_operand(like->shape())}, Arg(std::move(p)), tag);
}

// The captured tensor for messages: the first whole view of a buffer (a Tensor's own node) inside
// the captured value, else the value itself (another trace's PARAM, or a value without a view).
std::string describe_capture(const UOp* value) {
  const UOp* u = value;
  for (const UOp* n : value->toposort())
    if (n->op == Ops::RESHAPE && n->src[0]->op == Ops::BUFFER) {
      u = n;
      break;
    }
  std::string s = u->dtype.name();
  if (u->has_shape()) s += " " + shape_str(u->shape());
  if (!u->device().is_null()) s += " on " + u->device().str();
  return s;
}

// Step 3's other half: the maximal values of the traced graph that use none of this trace's
// placeholders but read memory (a BUFFER) or another trace's placeholder. They are what the body
// captured from outside its arguments. A FUNCTION's body is not entered (its PARAMs are its own).
std::vector<UOpRef> captured_values(const UOpRef& tuple, int64_t tag) {
  std::unordered_map<const UOp*, std::pair<bool, bool>> uses;  // node -> (own placeholder, outside value)
  auto skip = [](const UOp* n, size_t i) { return n->op == Ops::FUNCTION && i == 0; };
  for (const UOp* n : tuple->toposort()) {
    bool own = is_placeholder(n) && n->tag == tag;
    bool outside = n->op == Ops::BUFFER || (is_placeholder(n) && !own);
    for (size_t i = 0; i < n->src.size(); i++) {
      if (skip(n, i)) continue;
      auto [o, x] = uses[n->src[i].get()];
      own = own || o;
      outside = outside || x;
    }
    uses[n] = {own, outside};
  }
  std::vector<UOpRef> out;
  std::unordered_set<const UOp*> seen{tuple.get()};
  std::vector<const UOp*> stack{tuple.get()};
  while (!stack.empty()) {
    const UOp* n = stack.back();
    stack.pop_back();
    auto [own, outside] = uses[n];
    if (!outside) continue;
    if (!own && n != tuple.get()) {
      out.push_back(n->ref());
      continue;
    }
    for (size_t i = n->src.size(); i-- > 0;)
      if (!skip(n, i) && seen.insert(n->src[i].get()).second) stack.push_back(n->src[i].get());
  }
  return out;
}

}  // namespace

struct TracedFunction::State {
  FunctionOptions options;
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const Body>> bodies;  // by signature
  std::atomic<uint64_t> traces{0};

  // Steps 2-4: run the function on placeholders, then replace them (and, when allowed, the
  // captured values) by PARAM(k).
  std::shared_ptr<const Body> trace(const std::vector<UOpRef>& slots, const std::vector<size_t>& slot_of,
                                    const std::vector<std::string>& devices, const Trace& fn) {
    int64_t tag = next_trace++;
    std::vector<UOpRef> ps;
    std::vector<Tensor> placeholders;
    for (size_t k = 0; k < slots.size(); k++) ps.push_back(placeholder(int64_t(k), slots[k], Device(devices[k]), tag));
    for (size_t i = 0; i < slot_of.size(); i++) placeholders.emplace_back(ps[slot_of[i]], devices[slot_of[i]]);
    TraceResult r;
    try {
      r = fn(placeholders);
    } catch (const FunctionError& e) {
      throw FunctionError("function '" + options.name + "': " + e.what());
    }
    traces++;
    std::vector<UOpRef> outs;
    std::vector<std::string> out_devices;
    for (const Tensor& t : r.outputs) {
      outs.push_back(t.uop());
      out_devices.push_back(t.device());
    }
    UOpRef tuple = UOp::create(Ops::TUPLE, dtypes::void_, outs);
    std::vector<UOpRef> captured = captured_values(tuple, tag);
    if (!captured.empty() && !options.allow_implicit)
      throw FunctionError("function '" + options.name + "' reads a tensor that is not one of its arguments (" +
                          describe_capture(captured[0].get()) + ", " + std::to_string(captured.size()) +
                          " in all): pass it as an argument, or allow implicit captures (Python: "
                          "@function(allow_implicit=True); C++: FunctionOptions::allow_implicit)");
    Substitution subst;
    for (size_t k = 0; k < ps.size(); k++)
      subst.emplace(ps[k].get(), placeholder(int64_t(k), ps[k], Device(devices[k]), std::nullopt));
    for (size_t j = 0; j < captured.size(); j++)
      subst.emplace(captured[j].get(),
                    placeholder(int64_t(ps.size() + j), captured[j], captured[j]->device(), std::nullopt));
    return std::make_shared<const Body>(
        Body{substitute(tuple, subst), captured, std::move(out_devices), std::move(r.structure)});
  }
};

TracedFunction::TracedFunction(FunctionOptions options) : state_(std::make_shared<State>()) {
  state_->options = std::move(options);
}

uint64_t TracedFunction::traces() const { return state_->traces.load(); }
const FunctionOptions& TracedFunction::options() const { return state_->options; }

TraceResult TracedFunction::call(const std::vector<Tensor>& args, const Trace& trace, const std::string& key) const {
  // Step 1: the inputs, deduplicated (one slot per distinct value), and the signature.
  std::vector<UOpRef> slots;
  std::vector<std::string> devices;
  std::vector<size_t> slot_of;
  std::unordered_map<const UOp*, size_t> slot_by_node;
  std::string signature = key + "|";
  for (const Tensor& t : args) {
    if (!t.uop()) throw FunctionError("function '" + state_->options.name + "': an argument is an empty Tensor");
    auto [it, fresh] = slot_by_node.try_emplace(t.uop().get(), slots.size());
    if (fresh) {
      slots.push_back(t.uop());
      devices.push_back(t.device());
      signature += t.dtype().name() + shape_text(t.shape()) + "@" + t.device() + ";";
    } else {
      signature += "=" + std::to_string(it->second) + ";";
    }
    slot_of.push_back(it->second);
  }
  std::shared_ptr<const Body> body;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (auto it = state_->bodies.find(signature); it != state_->bodies.end()) body = it->second;
  }
  if (!body) {  // traced outside the lock: the body may call other functions, or this one
    body = state_->trace(slots, slot_of, devices, trace);
    std::lock_guard<std::mutex> lock(state_->mu);
    body = state_->bodies.try_emplace(signature, body).first->second;
  }
  // Steps 4-5: FUNCTION(TUPLE(body), args..., captured...) and one GETTUPLE per output.
  std::vector<UOpRef> src{body->tuple};
  src.insert(src.end(), slots.begin(), slots.end());
  src.insert(src.end(), body->captured.begin(), body->captured.end());
  UOpRef fn = UOp::create(Ops::FUNCTION, dtypes::void_, std::move(src));
  TraceResult out{{}, body->structure};
  for (size_t i = 0; i < body->tuple->src.size(); i++) {
    UOpRef element = UOp::create(Ops::GETTUPLE, body->tuple->src[i]->dtype, {fn}, Arg(int64_t(i)));
    out.outputs.emplace_back(element, body->devices[i]);
  }
  return out;
}

}  // namespace onegrad
