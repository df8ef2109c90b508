// Copies between devices (spec README decision 7: LOAD replaces COPY; `to(device)` is a LOAD onto
// another device). Each such LOAD is a step of the realize that needs it, ahead of the kernels that
// read it: its source is realized on its own device (with its own copies first), its bytes move to
// the LOAD's device, and the LOAD is replaced by the new buffer there. docs/engine.md, "Copies".
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "tensor/realize_hook.h"
#include "uop/uop.h"

namespace onegrad {

// Whether `u` is a LOAD onto a device other than its source's (a source with no device, a constant
// graph, is computed wherever it is loaded: no copy).
bool is_device_copy(const UOp& u);

// `graphs` with every device copy done and replaced by a BUFFER (reshaped to the LOAD's shape) on
// the copy's device. `realize` runs a source graph on its device (the engine's realize hook, so
// index checks and nested copies are handled as in any realize). Copies count in engine_stats.
// Throws IndexError when a copied source depends on a failed index check.
std::vector<UOpRef> realize_copies(const std::vector<UOpRef>& graphs,
                                   const std::function<RealizedGraphs(const std::vector<UOpRef>&, const std::string&)>& realize);

}  // namespace onegrad
