// The transcendental decompositions (codegen/decompositions.h) as graphs: only primitives come out.
// Their values are measured in tests/render/transcendental_test.cpp.
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
                                    Ops::CONST, Ops::PARAM};
  using Builder = UOpRef (*)(const UOpRef&);
  const std::pair<const char*, Builder> builders[] = {{"exp2", exp2_primitives}, {"log2", log2_primitives},
                                                      {"sin", sin_primitives},   {"cos", cos_primitives},
                                                      {"tan", tan_primitives}};
  for (DType dt : {dtypes::float32, dtypes::float16, dtypes::bfloat16})
    for (auto [name, build] : builders) {
      UOpRef out = build(input(dt));
      for (const UOp* u : out->toposort()) EXPECT_TRUE(primitives.count(u->op)) << name << " " << dt.name() << ": " << u->brief();
      EXPECT_EQ(out->dtype, dt);
    }
}

TEST(Decompositions, TheirDtypes) {
  EXPECT_TRUE(is_transcendental_dtype(dtypes::float32));
  EXPECT_TRUE(is_transcendental_dtype(dtypes::float16));
  EXPECT_TRUE(is_transcendental_dtype(dtypes::bfloat16));
  EXPECT_FALSE(is_transcendental_dtype(dtypes::float64));
  EXPECT_FALSE(is_transcendental_dtype(dtypes::int32));
}
