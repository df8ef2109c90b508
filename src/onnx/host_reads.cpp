#include "onnx/host_reads.h"

#include <unordered_set>
#include <vector>

namespace onegrad::onnx {
namespace {

thread_local HostReadLog* current = nullptr;

// Every node of u's graph, once, to `visit`.
template <class F>
void walk(const UOp* root, F&& visit) {
  std::unordered_set<const UOp*> seen{root};
  std::vector<const UOp*> todo{root};
  while (!todo.empty()) {
    const UOp* u = todo.back();
    todo.pop_back();
    visit(u);
    for (const UOpRef& s : u->src)
      if (seen.insert(s.get()).second) todo.push_back(s.get());
  }
}

}  // namespace

HostReadLog::HostReadLog(const std::unordered_map<std::string, Tensor>& inputs) : outer_(current) {
  for (const auto& [name, t] : inputs)
    walk(t.uop().get(), [&](const UOp* u) {
      if (u->op == Ops::BUFFER) buffers_.emplace(u, name);
    });
  current = this;
}

HostReadLog::~HostReadLog() { current = outer_; }

void HostReadLog::note(const Tensor& t) {
  if (buffers_.empty()) return;
  walk(t.uop().get(), [&](const UOp* u) {
    if (u->op != Ops::BUFFER) return;
    auto it = buffers_.find(u);
    if (it != buffers_.end()) read_.insert(it->second);
  });
}

void note_host_read(const Tensor& t) {
  if (current) current->note(t);
}

}  // namespace onegrad::onnx
