// Graph templates: an op whose graph depends only on its inputs' shapes, dtypes and device (and a
// few integer parameters) builds it once over placeholder leaves and, on later calls, substitutes
// the real inputs for the placeholders. Hash-consing makes the result the very graph a fresh build
// would give (the same nodes), at the cost of rebuilding only the nodes above the inputs: no shape
// inference through the Tensor methods, no shape operands or constants made again, no tensors
// enrolled in the live-tensor registry. index_select and the last write of setitem build about 50
// nodes per call, which took more time than their kernels at 10^5 elements.
//
// A template holds its placeholders, never the inputs of the call that built it: no buffer is kept
// alive by the cache. The setting GRAPH_TEMPLATES=0 builds every graph afresh (tests compare both).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad {

// build(inputs) for inputs whose shapes are static. `op` names the builder, `params` are the
// integers it depends on besides the inputs' shapes, dtypes and device; the builder must depend on
// nothing else (not on the inputs' graphs, their data or their requires_grad). The result is on
// the first input's device.
Tensor from_graph_template(const char* op, const std::vector<int64_t>& params, const std::vector<Tensor>& inputs,
                           const std::function<Tensor(const std::vector<Tensor>&)>& build);

// How many templates are kept now (tests: a bounded cache).
size_t graph_templates_kept();

}  // namespace onegrad
