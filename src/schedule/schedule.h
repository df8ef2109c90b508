// What the scheduler hands the engine: the buffers of one realize and the kernels that fill them,
// in execution order. Buffers are numbered: first the FUNCTION's arguments (the realized inputs),
// then the buffers the schedule itself needs (outputs and values realized in between).
#pragma once
#include <string>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

struct ScheduleBuffer {
  int64_t size;  // elements (with this realize's values of the variables)
  DType dtype;
  // The element count as an expression over variables when it has one (null when static): kernels
  // declare the buffer with it, so they are the same for every value.
  UOpRef symbolic_size = nullptr;
};

// One kernel: its AST in kernel form (docs/kernel-form.md) and, for each of its buffer PARAM slots,
// the schedule buffer it is launched with. Slot 0 is the buffer the kernel writes.
struct ScheduledKernel {
  UOpRef ast;
  std::vector<int> buffers;
  std::string reason;  // why the value the kernel computes is realized (DEBUG prints it)
  // The variables the kernel takes at launch, in the order of its variable slots.
  std::vector<UOpRef> vars = {};
};

struct Schedule {
  int num_params = 0;                     // buffers [0, num_params) are the FUNCTION's arguments
  std::vector<ScheduleBuffer> buffers;    // every buffer, arguments first
  std::vector<ScheduledKernel> kernels;   // in execution order: producers before consumers
  std::vector<int> outputs;               // the buffer holding element i of the FUNCTION's TUPLE
  // The values lowered to build the kernels, over every build (Rangeify builds again when the cost
  // model realizes more): the scheduler's work, which tests bound.
  int64_t lowered = 0;
};

}  // namespace onegrad
