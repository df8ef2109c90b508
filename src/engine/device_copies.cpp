#include "engine/device_copies.h"

#include <unordered_set>

#include "engine/device_buffers.h"
#include "engine/realize_graph.h"
#include "runtime/device.h"
#include "uop/errors.h"
#include "uop/index_error.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

std::string device_name_of(const Device& d) { return canonical_device_name(d.names.at(0)); }

}  // namespace

bool is_device_copy(const UOp& u) {
  if (u.op != Ops::LOAD || u.src.size() != 1) return false;
  const LoadArg* l = u.arg.get_if<LoadArg>();
  if (!l || l->device.is_null() || l->device.is_tuple) return false;
  const Device& from = u.src[0]->device();
  if (from.is_null() || from.is_tuple || from == l->device) return false;  // equal: no names to canonicalize
  return device_name_of(from) != device_name_of(l->device);
}

std::vector<UOpRef> DeviceCopies::plan(const std::vector<UOpRef>& graphs, ExecPlan& exec) {
  // the copies of every graph, inner ones first (a toposort lists sources before users)
  std::vector<const UOp*> copies;
  std::unordered_set<const UOp*> seen;
  for (const UOpRef& g : graphs)
    for (const UOp* u : g->toposort())
      if (is_device_copy(*u) && seen.insert(u).second) copies.push_back(u);
  if (copies.empty()) return graphs;
  Substitution done;
  for (const UOp* c : copies) {
    UOpRef source = substitute(c->src[0], done);  // the copies inside it are buffers already
    std::string from = device_name_of(c->src[0]->device()), to = device_name_of(c->arg.get<LoadArg>().device);
    // the source's index checks ride in its own realize, as in any realize (index_faults.h)
    IndexChecks checks({source}, from);
    std::vector<UOpRef> bufs = plan_realize(checks.to_realize(), from, exec);
    std::shared_ptr<Buffer> src = device_buffer(bufs.at(0).get(), from);
    auto dst = std::make_shared<Buffer>(to, src->dtype(), src->count());
    exec.add_copy(dst, src);
    sources_.push_back(Source{std::move(checks), std::move(bufs)});
    done[c] = UOp::create(Ops::RESHAPE, {buffer_node(std::move(dst)), UOp::shape_operand(c->shape())});
  }
  std::vector<UOpRef> out;
  for (const UOpRef& g : graphs) out.push_back(substitute(g, done));
  return out;
}

void DeviceCopies::check_faults() {
  for (Source& s : sources_)
    if (std::optional<std::string> fault = s.checks.read_faults(s.buffers)) throw IndexError(*fault);
}

}  // namespace onegrad
