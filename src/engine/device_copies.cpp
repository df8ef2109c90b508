#include "engine/device_copies.h"

#include <atomic>
#include <unordered_set>

#include "engine/device_buffers.h"
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

std::vector<UOpRef> realize_copies(const std::vector<UOpRef>& graphs,
                                   const std::function<RealizedGraphs(const std::vector<UOpRef>&, const std::string&)>& realize) {
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
    RealizedGraphs got = realize({source}, from);
    if (got.fault) throw IndexError(*got.fault);
    const UOp* src_buffer = got.buffers.at(0).get();
    const BufferArg& b = src_buffer->arg.get<BufferArg>();
    // through host memory: every device so far copies to and from the host
    std::vector<std::byte> bytes(size_t(b.size) * size_t(b.dtype.itemsize()));
    read_buffer(src_buffer, bytes.data(), bytes.size());
    auto buf = std::make_shared<Buffer>(to, b.dtype, size_t(b.size));
    buf->copyin(bytes.data(), bytes.size());
    done[c] = UOp::create(Ops::RESHAPE, {buffer_node(std::move(buf)), UOp::shape_operand(c->shape())});
  }
  std::vector<UOpRef> out;
  for (const UOpRef& g : graphs) out.push_back(substitute(g, done));
  return out;
}

}  // namespace onegrad
