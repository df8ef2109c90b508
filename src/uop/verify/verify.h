// The spec verifier: checks a graph against the op set and typing rules of one pipeline stage
// (docs/verifier.md lists every rule). A violation names the op, the rule and the offending shapes
// or dtypes: "RESHAPE: reshape products differ: (4, 3) has 12 elements, (5, 2) has 10".
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

// The stages whose graphs have a verifier: Tensor (the lazy graph up to Callify), Kernel (a SINK in
// kernel form, from Rangeify through the codegen pipeline's memory plan stage) and Linear (the
// LINEAR of the linearize stage). The codegen pipeline runs the last two after each of its stages
// when VERIFY_PIPELINE=1 (codegen/pipeline.h).
enum class Stage : uint8_t { Tensor, Kernel, Linear };
std::string_view stage_name(Stage s);

// Whether `op` belongs to the op set of `stage`.
bool stage_allows(Stage stage, Ops op);

// Every violation under `root`, sources before users, at most one per node (the first rule it
// breaks). A node with a broken source is not checked itself, so one mistake gives one message.
// Iterative: a graph a million nodes deep is fine.
std::vector<std::string> check(const UOpRef& root, Stage stage = Stage::Tensor);

// Throws VerifyError with the first violation check() would report.
void verify(const UOpRef& root, Stage stage = Stage::Tensor);

}  // namespace onegrad
