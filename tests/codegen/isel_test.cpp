// Instruction Selection (codegen/isel.h): each row of the spec's decomposition table as a pattern
// rewrite, the backend capabilities that choose what is decomposed, and the errors. The values the
// decompositions compute are checked end to end in tests/render/dtype_test.cpp (CPU_DECOMPOSE_ALL=1
// against exec_alu) and tests/engine/isel_accuracy_test.cpp (Tensor programs).
#include <gtest/gtest.h>

#include <numbers>
#include <set>

#include "codegen/decompositions.h"
#include "codegen/isel.h"
#include "uop/errors.h"

using namespace onegrad;

namespace {

UOpRef input(DType dt, int64_t slot = 0) {
  return UOp::create(Ops::PARAM, dt, {}, ParamArg{slot, dt, Device(), std::nullopt, "x" + std::to_string(slot), {}, {}});
}
UOpRef alu(Ops op, std::vector<UOpRef> s) { return UOp::alu(op, std::move(s)); }
UOpRef sink(const UOpRef& u) { return UOp::create(Ops::SINK, dtypes::void_, {u}); }
UOpRef select_all(const UOpRef& u) { return select_instructions(sink(u), lacks_every_decomposed_op())->src[0]; }
UOpRef T() { return UOp::const_bool(true); }

// A backend that lacks exactly one op (on every dtype).
Capabilities lacking(Ops missing) {
  return {"lacks-one", [missing](Ops op, DType) { return op != missing; }};
}
UOpRef select_one(Ops missing, const UOpRef& u) { return select_instructions(sink(u), lacking(missing))->src[0]; }

bool has_op(const UOpRef& u, Ops op) {
  for (const UOp* n : u->toposort())
    if (n->op == op) return true;
  return false;
}

}  // namespace

// One test per row: the rewrite is exactly the spec's formula (hash-consing makes == structural).
TEST(ISel, Neg) {
  for (DType dt : {dtypes::float32, dtypes::int32, dtypes::uint8, dtypes::int64}) {
    UOpRef a = input(dt);
    EXPECT_EQ(select_one(Ops::NEG, alu(Ops::NEG, {a})), alu(Ops::MUL, {a, UOp::const_int(dt, -1)})) << dt.name();
  }
}

TEST(ISel, Sub) {
  UOpRef a = input(dtypes::float32), b = input(dtypes::float32, 1);
  // SUB only: ADD(A, NEG(B)) with the NEG left for the backend
  EXPECT_EQ(select_one(Ops::SUB, alu(Ops::SUB, {a, b})), alu(Ops::ADD, {a, alu(Ops::NEG, {b})}));
  // lacking both: the NEG is decomposed in turn
  EXPECT_EQ(select_all(alu(Ops::SUB, {a, b})), alu(Ops::ADD, {a, alu(Ops::MUL, {b, UOp::const_float(dtypes::float32, -1)})}));
}

TEST(ISel, Div) {
  UOpRef a = input(dtypes::float16), b = input(dtypes::float16, 1);
  EXPECT_EQ(select_one(Ops::DIV, alu(Ops::DIV, {a, b})), alu(Ops::MUL, {a, alu(Ops::RECIP, {b})}));
}

TEST(ISel, Comparisons) {
  for (DType dt : {dtypes::float32, dtypes::int8, dtypes::uint64, dtypes::bool_}) {
    UOpRef a = input(dt), b = input(dt, 1);
    EXPECT_EQ(select_one(Ops::CMPGT, alu(Ops::CMPGT, {a, b})), alu(Ops::CMPLT, {b, a}));
    EXPECT_EQ(select_one(Ops::CMPGE, alu(Ops::CMPGE, {a, b})), alu(Ops::CMPNE, {alu(Ops::CMPLT, {a, b}), T()}));
    EXPECT_EQ(select_one(Ops::CMPLE, alu(Ops::CMPLE, {a, b})), alu(Ops::CMPNE, {alu(Ops::CMPLT, {b, a}), T()}));
    EXPECT_EQ(select_one(Ops::CMPEQ, alu(Ops::CMPEQ, {a, b})), alu(Ops::CMPNE, {alu(Ops::CMPNE, {a, b}), T()}));
  }
}

TEST(ISel, Not) {
  UOpRef a = input(dtypes::bool_);
  EXPECT_EQ(select_one(Ops::NOT, alu(Ops::NOT, {a})), alu(Ops::CMPNE, {a, T()}));
}

TEST(ISel, SqrtAndPow) {
  UOpRef a = input(dtypes::float64), b = input(dtypes::float64, 1);
  UOpRef half = UOp::const_float(dtypes::float64, 0.5);
  EXPECT_EQ(select_one(Ops::SQRT, alu(Ops::SQRT, {a})), alu(Ops::EXP2, {alu(Ops::MUL, {half, alu(Ops::LOG2, {a})})}));
  EXPECT_EQ(select_one(Ops::POW, alu(Ops::POW, {a, b})), alu(Ops::EXP2, {alu(Ops::MUL, {alu(Ops::LOG2, {a}), b})}));
  // float32 with EXP2 and LOG2 lacking too: their polynomials come in, no transcendental is left
  UOpRef f = input(dtypes::float32);
  UOpRef out = select_all(alu(Ops::SQRT, {f}));
  for (Ops op : {Ops::SQRT, Ops::EXP2, Ops::LOG2}) EXPECT_FALSE(has_op(out, op)) << op_name(op);
}

TEST(ISel, MulAcc) {
  for (DType dt : {dtypes::int32, dtypes::uint8}) {
    UOpRef a = input(dt), b = input(dt, 1), c = input(dt, 2);
    EXPECT_EQ(select_one(Ops::MULACC, alu(Ops::MULACC, {a, b, c})), alu(Ops::ADD, {alu(Ops::MUL, {a, b}), c}));
  }
}

// A float MULACC rounds once: an ADD of the rounded MUL is not it, so a target that lacks it is told.
TEST(ISel, FloatMulAccHasNoDecomposition) {
  UOpRef a = input(dtypes::float32), b = input(dtypes::float32, 1), c = input(dtypes::float32, 2);
  try {
    select_one(Ops::MULACC, alu(Ops::MULACC, {a, b, c}));
    FAIL() << "no error";
  } catch (const TargetError& e) {
    EXPECT_NE(std::string(e.what()).find("lacks MULACC on float32 and the decomposition table has none"), std::string::npos) << e.what();
  }
}

TEST(ISel, Transcendentals) {
  UOpRef x = input(dtypes::float32);
  EXPECT_EQ(select_one(Ops::EXP2, alu(Ops::EXP2, {x})), exp2_primitives(x));
  EXPECT_EQ(select_one(Ops::LOG2, alu(Ops::LOG2, {x})), log2_primitives(x));
  EXPECT_EQ(select_one(Ops::SIN, alu(Ops::SIN, {x})), sin_primitives(x));
}

// cos and tan as Tensor::cos / Tensor::tan build them: the quadrant is shifted, pi/2 never added.
TEST(ISel, CosAndTanCompositions) {
  for (DType dt : {dtypes::float32, dtypes::float16, dtypes::bfloat16}) {
    UOpRef x = input(dt);
    UOpRef half_pi = UOp::const_float(dt, std::numbers::pi / 2);
    UOpRef cos = alu(Ops::SIN, {alu(Ops::ADD, {x, half_pi})});
    EXPECT_EQ(select_one(Ops::SIN, cos), cos_primitives(x)) << dt.name();
    EXPECT_EQ(select_one(Ops::SIN, alu(Ops::SIN, {alu(Ops::ADD, {half_pi, x})})), cos_primitives(x)) << dt.name();
    EXPECT_EQ(select_one(Ops::SIN, alu(Ops::DIV, {alu(Ops::SIN, {x}), cos})), tan_primitives(x)) << dt.name();
    // another constant is a plain SIN of a sum
    UOpRef other = alu(Ops::ADD, {x, UOp::const_float(dt, 1.5)});
    EXPECT_EQ(select_one(Ops::SIN, alu(Ops::SIN, {other})), sin_primitives(other)) << dt.name();
    // sin(y) / cos(x) with y != x is no tan
    UOpRef y = input(dt, 1);
    UOpRef q = select_one(Ops::SIN, alu(Ops::DIV, {alu(Ops::SIN, {y}), cos}));
    EXPECT_EQ(q, alu(Ops::DIV, {sin_primitives(y), cos_primitives(x)})) << dt.name();
  }
  // a backend with SIN keeps the compositions as they are
  UOpRef x = input(dtypes::float32);
  UOpRef cos = alu(Ops::SIN, {alu(Ops::ADD, {x, UOp::const_float(dtypes::float32, std::numbers::pi / 2)})});
  EXPECT_EQ(select_one(Ops::DIV, cos), cos);
}

// Ops the backend renders are left alone; a backend that renders everything changes nothing.
TEST(ISel, RenderedOpsAreKept) {
  UOpRef a = input(dtypes::float32), b = input(dtypes::float32, 1);
  UOpRef g = sink(alu(Ops::ADD, {alu(Ops::SUB, {a, b}), alu(Ops::SQRT, {alu(Ops::DIV, {a, b})})}));
  Capabilities all{"all", [](Ops, DType) { return true; }};
  EXPECT_EQ(select_instructions(g, all), g);
  UOpRef out = select_instructions(g, lacking(Ops::DIV));
  EXPECT_TRUE(has_op(out, Ops::SUB));
  EXPECT_TRUE(has_op(out, Ops::SQRT));
  EXPECT_FALSE(has_op(out, Ops::DIV));
}

// Capabilities per dtype: the C-like default decomposes float32 SIN and keeps float64 SIN.
TEST(ISel, CapabilitiesPerDtype) {
  Capabilities c{"c-like", [](Ops op, DType dt) { return op != Ops::SIN || dt == dtypes::float64; }};
  UOpRef s32 = alu(Ops::SIN, {input(dtypes::float32)}), s64 = alu(Ops::SIN, {input(dtypes::float64)});
  EXPECT_FALSE(has_op(select_instructions(sink(s32), c), Ops::SIN));
  EXPECT_EQ(select_instructions(sink(s64), c), sink(s64));
}

// Everything decomposable, decomposed: only primitives are left (float64 transcendentals and float
// MULACC, which have no decomposition, stay).
TEST(ISel, LacksEverythingLeavesPrimitives) {
  const std::set<Ops> decomposed = {Ops::NEG,  Ops::SUB,  Ops::DIV, Ops::CMPGT, Ops::CMPGE, Ops::CMPLE, Ops::CMPEQ,
                                    Ops::NOT,  Ops::EXP2, Ops::LOG2, Ops::SIN, Ops::SQRT, Ops::POW};
  for (DType dt : {dtypes::float32, dtypes::float16, dtypes::bfloat16}) {
    UOpRef a = input(dt), b = input(dt, 1);
    std::vector<UOpRef> outs;
    for (Ops op : {Ops::NEG, Ops::EXP2, Ops::LOG2, Ops::SIN, Ops::SQRT}) outs.push_back(alu(op, {a}));
    for (Ops op : {Ops::SUB, Ops::DIV, Ops::POW}) outs.push_back(alu(op, {a, b}));
    for (Ops op : {Ops::CMPGT, Ops::CMPGE, Ops::CMPLE, Ops::CMPEQ})
      outs.push_back(alu(Ops::NOT, {alu(op, {a, b})}));
    UOpRef out = select_instructions(UOp::create(Ops::SINK, dtypes::void_, outs), lacks_every_decomposed_op());
    for (const UOp* u : out->toposort()) EXPECT_FALSE(decomposed.count(u->op)) << dt.name() << ": " << u->brief();
    UOpRef fma = sink(alu(Ops::MULACC, {a, b, a}));
    EXPECT_EQ(select_instructions(fma, lacks_every_decomposed_op()), fma) << dt.name();
  }
  UOpRef i = input(dtypes::int32);
  EXPECT_FALSE(has_op(select_all(alu(Ops::MULACC, {i, i, i})), Ops::MULACC));
  for (Ops op : {Ops::EXP2, Ops::LOG2, Ops::SIN}) EXPECT_FALSE(has_decomposition(op, dtypes::float64));
  UOpRef s64 = sink(alu(Ops::SIN, {input(dtypes::float64)}));
  EXPECT_EQ(select_instructions(s64, lacks_every_decomposed_op()), s64);
}

// Integer semantics: DIV and SQRT, POW are float-only rows; NEG, SUB, MULACC wrap as ints do.
TEST(ISel, RowsAndTheirDtypes) {
  EXPECT_TRUE(has_decomposition(Ops::NEG, dtypes::int32));
  EXPECT_FALSE(has_decomposition(Ops::NEG, dtypes::bool_));
  EXPECT_FALSE(has_decomposition(Ops::DIV, dtypes::int32));
  EXPECT_TRUE(has_decomposition(Ops::DIV, dtypes::bfloat16));
  EXPECT_FALSE(has_decomposition(Ops::NOT, dtypes::int32));
  EXPECT_TRUE(has_decomposition(Ops::CMPEQ, dtypes::bool_));
  EXPECT_FALSE(has_decomposition(Ops::SQRT, dtypes::int64));
  EXPECT_TRUE(has_decomposition(Ops::MULACC, dtypes::int16));
  EXPECT_FALSE(has_decomposition(Ops::MULACC, dtypes::float32));
  EXPECT_FALSE(has_decomposition(Ops::ADD, dtypes::float32));  // a primitive: not in the table
  EXPECT_EQ(find_decomposition(Ops::ADD), nullptr);
  EXPECT_TRUE(has_decomposition(Ops::THREEFRY, dtypes::uint64));  // codegen/threefry.h
  EXPECT_FALSE(has_decomposition(Ops::THREEFRY, dtypes::uint32));
  EXPECT_EQ(decomposition_table().size(), 15u);
}

TEST(ISel, MissingDecompositionIsATargetError) {
  Capabilities none{"bare", [](Ops, DType) { return false; }};
  UOpRef s64 = sink(alu(Ops::EXP2, {input(dtypes::float64)}));
  try {
    select_instructions(s64, none);
    FAIL() << "no error";
  } catch (const TargetError& e) {
    EXPECT_NE(std::string(e.what()).find("target 'bare' lacks EXP2 on float64"), std::string::npos) << e.what();
  }
}

// The rewrite is traceable by rule name.
TEST(ISel, TraceNamesTheRules) {
  UOpRef a = input(dtypes::float32), b = input(dtypes::float32, 1);
  RewriteTrace trace;
  select_instructions(sink(alu(Ops::SUB, {a, b})), lacks_every_decomposed_op(), &trace);
  std::string s = trace.str();
  EXPECT_NE(s.find("sub:"), std::string::npos) << s;
  EXPECT_NE(s.find("neg:"), std::string::npos) << s;
}
