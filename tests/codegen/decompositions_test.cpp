// The transcendental decompositions (codegen/decompositions.h) as graphs: only primitives come out,
// float64 is left alone. Their values are measured in tests/render/transcendental_test.cpp.
#include <gtest/gtest.h>

#include <set>

#include "codegen/decompositions.h"

using namespace onegrad;

namespace {

UOpRef input(DType dt) {
  return UOp::create(Ops::PARAM, dt, {}, ParamArg{0, dt, Device(), std::nullopt, "x", {}, {}});
}

}  // namespace

TEST(Decompositions, OnlyPrimitivesComeOut) {
  const std::set<Ops> primitives = {Ops::ADD, Ops::MUL,  Ops::MAX,   Ops::CMPLT, Ops::CMPNE, Ops::WHERE, Ops::CAST,
                                    Ops::BITCAST, Ops::TRUNC, Ops::RECIP, Ops::AND, Ops::OR, Ops::SHL, Ops::SHR,
                                    Ops::CONST, Ops::PARAM, Ops::SINK};
  for (DType dt : {dtypes::float32, dtypes::float16, dtypes::bfloat16})
    for (Ops op : {Ops::EXP2, Ops::LOG2, Ops::SIN}) {
      UOpRef y = UOp::alu(op, {input(dt)});
      UOpRef out = decompose_transcendentals(UOp::create(Ops::SINK, dtypes::void_, {y}));
      for (const UOp* u : out->toposort()) EXPECT_TRUE(primitives.count(u->op)) << op_name(op) << " " << dt.name() << ": " << u->brief();
      EXPECT_EQ(out->src[0]->dtype, dt);
    }
}

TEST(Decompositions, Float64IsLeftToTheRenderer) {
  for (Ops op : {Ops::EXP2, Ops::LOG2, Ops::SIN}) {
    UOpRef sink = UOp::create(Ops::SINK, dtypes::void_, {UOp::alu(op, {input(dtypes::float64)})});
    EXPECT_EQ(decompose_transcendentals(sink), sink);
  }
}
