// The fusion cost model (docs/schedule.md): which fused values Rangeify gives a buffer because
// fusing them would recompute them. As the kernels of a schedule are built, every use of a fused
// REDUCE or elementwise value is charged the number of times codegen would evaluate it there; two
// rules then pick the values to realize:
//
//   reduce_recomputed    a REDUCE (left a loop by fold_reduce) evaluated more often than it has
//                        elements
//   chain_recomputed     an elementwise value whose fused graph holds more than kRecomputedOps ops,
//                        evaluated more often than it has elements
//   transcendental_recomputed
//                        an elementwise value whose fused graph holds an EXP2, LOG2 or SIN,
//                        evaluated kTranscendentalUses times its elements or more, its
//                        evaluations beyond one per element times its transcendentals at least
//                        kTranscendentalExtra
//
// Both cut the build short as soon as they hold: a value lowered once in this build whose next
// use takes it over its element count is not lowered again (a placeholder stands in; Rangeify
// realizes it and builds the kernels again). Otherwise a value recomputed at each of two uses,
// whose sources are too, is lowered 2^depth times: a recurrence `h = f(h @ W)` read by the next
// step and by the output, or its gradient, grew the build and the kernels exponentially with the
// number of steps.
#pragma once
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

// Cheaper elementwise values are recomputed where they are read: their ops cost less than writing
// and reading back a buffer (a prologue like relu or `(x - mean) * inv_std`, a softmax's exp, an
// activation's gradient stay fused; an exp is one op here). An LSTM step's forward is about 40
// (sigmoid and tanh are 5 and 8), its gradient a few times that: the state of an LSTM gets a buffer
// every step or two, as it did when the nn layers asked for one.
inline constexpr int64_t kRecomputedOps = 160;

// An exp is one op above but about 35 once codegen expands it: a value holding one, read three
// times per element (a swish feeding a LayerNorm's mean, variance and output), costs more to
// recompute than a buffer. Twice (a softmax's exp in its sum and its output) stays fused.
inline constexpr double kTranscendentalUses = 3;
// ... and only when the transcendentals recomputed, the evaluations beyond one per element times
// those in the fused graph, reach this many: a few hundred exps recomputed (a small recurrence's
// tanh read by the next step's gemm) cost less than a kernel. Counted per transcendental, an LSTM
// cell's state (three sigmoids and tanhs under it) read by its output, the hidden state and the
// state output gets a buffer at a quarter of the reads a single exp needs (Silero VAD at batch 16:
// the gates were computed three times over in two kernels).
inline constexpr double kTranscendentalExtra = 16384;

class FusionCost {
 public:
  // `realized`: the values that have buffers, where a fused graph ends.
  explicit FusionCost(const std::unordered_map<const UOp*, int>& realized) : realized_(realized) {}
  // One use of `u` that codegen evaluates `evaluations` times.
  void charge(const UOp* u, double evaluations);
  // Whether a further use of `u`, already charged in this build, takes it past what a rule allows:
  // the use is then charged and `u` not lowered again.
  bool cut(const UOp* u, double evaluations);
  // The values to realize, with the reason printed at DEBUG>=1. The REDUCEs first: a chain's ops
  // are counted with them fused. Then the chains, inputs first (`position`: each value's place in
  // the graph's toposort), each only if its ops stay over the limit with the chains below it
  // realized: the state of a recurrence gets a buffer every few steps, not every value in it.
  std::vector<std::pair<const UOp*, std::string>> to_realize(const std::vector<const UOp*>& order);
  // Whether a use was cut in this build (its kernels hold placeholders: they must be built again).
  bool cut_any() const { return cuts_ > 0; }

 private:
  struct Uses {
    double evaluations = 0;
    int64_t elements = 0;
    int64_t ops = -1;  // of its fused graph, counted up to kRecomputedOps + 1 once needed
    int64_t transcendentals = -1;  // the EXP2, LOG2 and SIN nodes of its fused graph, once needed
  };
  const char* rule(const UOp* u, Uses& uses) const;

  const std::unordered_map<const UOp*, int>& realized_;
  std::unordered_map<const UOp*, Uses> uses_;
  int64_t cuts_ = 0;
};

// The ops of the graph fused into a kernel with `value`, counted up to `limit` + 1: its ALU ops,
// casts and reductions, down to the values in `buffers` (movement ops are index math, constants
// are free).
int64_t fused_ops(const UOp* value, int64_t limit, const std::unordered_map<const UOp*, int>& buffers,
                  const std::unordered_set<const UOp*>& also_buffers);

std::string dims_str(const std::vector<int64_t>& dims);

}  // namespace onegrad
