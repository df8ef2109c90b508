// Builds the kernel that computes one realized value (rangeify.h). Lowering walks the value's graph
// from the top with, for each node, the index of the element being computed (one index expression
// per axis of the node's shape) and a validity (false inside padding), and returns the node's value
// at that element as a shape-() expression. A chain of movement ops is one step, through the
// pattern table of view_rules.h (for a load's element and a store's address alike). Memoized on
// (node, index, validity): a node read twice at the same element in one kernel is computed once.
// Iterative, so any chain length is fine.
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "schedule/fusion_cost.h"
#include "schedule/index_math.h"
#include "schedule/schedule.h"

namespace onegrad {

class KernelBuilder {
 public:
  // `realized`: values that live in buffers (node -> schedule buffer), including PARAMs. `cost`
  // is charged each use of a fused REDUCE or elementwise value, over all kernels of the schedule.
  KernelBuilder(const std::unordered_map<const UOp*, int>& realized, const std::vector<ScheduleBuffer>& buffers,
                FusionCost& cost);
  // The kernel (a SINK in kernel form) that computes `root` into buffer `out`.
  ScheduledKernel build(const UOp* root, int out);
  // The kernel of a tensor-graph STORE(target, value): target is movement ops over a realized
  // buffer; each element of value is written where the target view puts it (gated by the view's
  // validity: elements in padding are not written).
  ScheduledKernel build_store(const UOp* store);
  // The kernel of a tensor-graph CUSTOM node, named by its arg (uop/custom_kernels.h), into `out`.
  ScheduledKernel build_custom(const UOp* root, int out);
  // The (node, index, validity) uses lowered so far (Schedule::lowered).
  int64_t lowered() const { return lowered_; }

 private:
  struct Key {
    const UOp* node;
    std::vector<const UOp*> idx;
    const UOp* valid;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  struct Request {
    const UOp* node;
    IndexVec idx;
    UOpRef valid;
    std::vector<UOpRef> scope;  // the loops open around this use, outermost first
  };
  using Combine = std::function<UOpRef(const std::vector<UOpRef>&)>;
  struct Plan {
    std::vector<Request> children;
    Combine combine;  // children's values -> this node's value
    double evaluations = -1;  // >= 0: the value is charged to the cost model, this many evaluations
    std::vector<const UOp*> window = {};  // a REDUCE's ranges (plan_reduce)
  };
  // A window left inside other windows, charged as if they stay windows; lower() charges it less
  // when one of them becomes a scan.
  struct Pending {
    const UOp* node;
    UOpRef value;  // as lowered: a window
    double evaluations;  // charged so far
    std::vector<const UOp*> outer;  // the ranges of the windows around it that its index reads
  };

  UOpRef lower(Request root);
  Plan plan(const Request& r);
  Plan plan_reduce(const Request& r);
  // A view (view_rules.h): the element of its source the view shows at r, through a chain of views
  // at once, masked to 0 in the padding.
  Plan plan_view(const Request& r);
  // How often codegen evaluates a value used at r: once per iteration of the loops around the use,
  // up to the innermost loop its index or validity depends on (it is hoisted out of the others).
  double evaluations_of(const Request& r);
  // How many loops of r.scope, outermost first, its index or validity reads (the innermost one it is placed in).
  size_t depth_of(const Request& r);
  const std::vector<const UOp*>& ranges_of(const UOpRef& e);  // the RANGEs an index expression reads
  UOpRef load(int buffer, const Shape& shape, const IndexVec& idx, const UOpRef& valid);
  bool in_bounds(int buffer, const UOpRef& flat) const;
  UOpRef param(int buffer);
  UOpRef new_range(int64_t bound, AxisType type) { return new_range(UOp::index(bound), type); }
  UOpRef new_range(const UOpRef& bound, AxisType type);  // a symbolic bound: a loop to a variable
  // One LOOP range per axis of more than one element (index 0 for the others), outermost first.
  void open_loops(const Shape& shape, IndexVec& idx, std::vector<UOpRef>& loops);
  // The store closed by one END per loop, innermost first, in a SINK.
  ScheduledKernel kernel_of(UOpRef store, const std::vector<UOpRef>& loops);
  static Key key_of(const Request& r);

  const std::unordered_map<const UOp*, int>& realized_;
  const std::vector<ScheduleBuffer>& buffers_;
  FusionCost& cost_;
  std::unordered_map<const UOp*, std::vector<const UOp*>> ranges_of_;  // index expression -> its RANGEs
  const UOp* root_ = nullptr;
  std::vector<int> slots_;                 // kernel slot -> schedule buffer
  std::unordered_map<int, UOpRef> params_;  // schedule buffer -> its PARAM in this kernel
  int64_t next_range_ = 0;
  std::unordered_map<Key, UOpRef, KeyHash> memo_;
  std::vector<UOpRef> keep_alive_;  // index nodes named by memo keys
  std::vector<Pending> pending_;
  int64_t lowered_ = 0;
};

}  // namespace onegrad
