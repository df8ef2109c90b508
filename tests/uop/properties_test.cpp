// The derived properties, row by row from the spec's table (uop-dialect.tex, "Derived Properties"):
// dtype, shape, device, min_max for each row, addrspace (uop-dialect.md) and the "axis" paragraph,
// plus onegrad's documented refinements, symbolic dims, deep graphs and concurrent readers.
#include <gtest/gtest.h>

#include <thread>

#include "graph_builders.h"
#include "uop/verify/verify.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

const Device kCpu("CPU");
const Device kCuda("CUDA");
const Device kPair = Device::tuple({"CPU:0", "CPU:1"});

// min_max as ints / doubles for compact expectations.
std::pair<int64_t, int64_t> mm(const UOpRef& u) { return {int64_t(u->vmin().as_int()), int64_t(u->vmax().as_int())}; }
std::pair<double, double> mmf(const UOpRef& u) { return {u->vmin().as_double(), u->vmax().as_double()}; }
std::pair<int64_t, int64_t> range_of(DType dt) { return {int64_t(dt.int_min()), int64_t(dt.int_max())}; }
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<int64_t> sshape(const UOpRef& u) { return *u->static_shape(); }

// An int32 value of shape `s` (a PARAM placeholder) whose elements lie in [lo, hi].
UOpRef bounded(int64_t lo, int64_t hi, std::vector<int64_t> s = {4}, DType dt = dtypes::int32, Device dev = kCpu) {
  return UOp::create(Ops::PARAM, {UOp::shape_operand(dims(s))},
                     ParamArg{0, dt, std::move(dev), std::nullopt, "", ConstValue::from_int(lo), ConstValue::from_int(hi)});
}
UOpRef i32(int64_t v) { return UOp::const_int(dtypes::int32, v); }

}  // namespace

// ---- source ops -------------------------------------------------------------------------------

TEST(PropertiesRow, Buffer) {
  UOpRef b = UOp::create(Ops::BUFFER, {}, BufferArg{next_buffer_id(), 10, dtypes::int8, kCuda, AddrSpace::LOCAL});
  EXPECT_EQ(b->dtype, dtypes::int8);                 // from arg
  EXPECT_EQ(sshape(b), std::vector<int64_t>{10});    // (size,) from arg
  EXPECT_EQ(b->device(), kCuda);                     // from arg
  EXPECT_EQ(mm(b), range_of(dtypes::int8));          // dtype range
  EXPECT_EQ(b->addrspace(), AddrSpace::LOCAL);       // from arg
  EXPECT_EQ(b->axis(), std::nullopt);                // default NULL
  UOpRef t = buffer(10, dtypes::float32, kPair);
  EXPECT_EQ(sshape(t), std::vector<int64_t>{20});    // (n*size,) on an n-tuple device
  EXPECT_EQ(t->axis(), 0);                           // axis 0: the device dim
  EXPECT_EQ(mmf(t), std::make_pair(-kInf, kInf));
}

TEST(PropertiesRow, Const) {
  UOpRef c = UOp::const_int(dtypes::int16, -7);
  EXPECT_EQ(c->dtype, dtypes::int16);
  EXPECT_TRUE(c->shape().empty());
  EXPECT_TRUE(c->device().is_null());
  EXPECT_EQ(mm(c), std::make_pair(int64_t(-7), int64_t(-7)));  // [v, v]
  EXPECT_EQ(c->axis(), std::nullopt);
  EXPECT_EQ(c->addrspace(), std::nullopt);
  UOpRef f = UOp::const_float(dtypes::float32, 1.5);
  EXPECT_EQ(mmf(f), std::make_pair(1.5, 1.5));
}

TEST(PropertiesRow, Param) {
  UOpRef p = UOp::create(Ops::PARAM, {UOp::shape_operand(dims({3, 2}))},
                         ParamArg{1, dtypes::uint8, kCuda, AddrSpace::REG, "", {}, {}});
  EXPECT_EQ(p->dtype, dtypes::uint8);                        // from arg
  EXPECT_EQ(sshape(p), (std::vector<int64_t>{3, 2}));        // from src[0]
  EXPECT_EQ(p->device(), kCuda);                             // from arg
  EXPECT_EQ(mm(p), range_of(dtypes::uint8));                 // dtype range
  EXPECT_EQ(p->addrspace(), AddrSpace::REG);                 // from arg
  EXPECT_EQ(mm(bounded(-3, 9)), std::make_pair(int64_t(-3), int64_t(9)));  // from its bounds
  UOpRef n = UOp::variable("n", 1, 64);
  EXPECT_TRUE(n->shape().empty());
  EXPECT_EQ(n->dtype, dtypes::index);
  EXPECT_EQ(mm(n), std::make_pair(int64_t(1), int64_t(64)));
  // no addrspace in the arg: a pointer dtype gives it
  UOpRef q = UOp::create(Ops::PARAM, {}, ParamArg{0, dtypes::float32.ptr(AddrSpace::LOCAL), kCpu, std::nullopt, "", {}, {}});
  EXPECT_EQ(q->addrspace(), AddrSpace::LOCAL);
}

TEST(PropertiesRow, Binary) {
  UOpRef b = UOp::create(Ops::BINARY, {}, Arg(std::string("abcde")));
  EXPECT_EQ(b->dtype, dtypes::uint8);
  EXPECT_EQ(sshape(b), std::vector<int64_t>{5});
}

// ---- movement ops: src[0].dtype, (see op), src[0].device, src[0] ------------------------------

TEST(PropertiesRow, MovementOps) {
  UOpRef x = bounded(2, 9, {4, 3}, dtypes::int32, kCuda);
  struct Case {
    const char* name;
    UOpRef u;
    std::vector<int64_t> shape;
  };
  UOpRef idx3 = UOp::create(Ops::STACK, {i32(0), i32(2), i32(1)});
  Case cases[] = {
      {"PERMUTE", permute(x, {1, 0}), {3, 4}},
      {"FLIP", UOp::create(Ops::FLIP, {x}, Arg(Arg::Bools{true, false})), {4, 3}},
      {"RESHAPE", reshape(x, {2, 6}), {2, 6}},
      {"EXPAND", expand(reshape(x, {4, 1, 3}), {4, 5, 3}), {4, 5, 3}},
      {"SHRINK", shrink(x, {1, 0}, {2, 3}), {2, 3}},
      {"INDEX ()", UOp::create(Ops::INDEX, {x, i32(1)}), {3}},             // ()-shaped removes the dim
      {"INDEX (k,)", UOp::create(Ops::INDEX, {x, idx3}), {3, 3}},          // (k,)-shaped makes it k
      {"REPLICATED", UOp::create(Ops::REPLICATED, {x}, Arg(Arg::Ints{0})), {1, 3}},  // collapse axes to 1
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(c.u->dtype, dtypes::int32);
    EXPECT_EQ(sshape(c.u), c.shape);
    EXPECT_EQ(c.u->device(), kCuda);
    EXPECT_EQ(mm(c.u), std::make_pair(int64_t(2), int64_t(9)));
    EXPECT_NO_THROW(verify(c.u));
  }
  // STACK: a new leading axis; its min_max is the hull of the stacked values
  UOpRef st = UOp::create(Ops::STACK, {x, bounded(-1, 3, {4, 3}, dtypes::int32, kCuda)});
  EXPECT_EQ(sshape(st), (std::vector<int64_t>{2, 4, 3}));
  EXPECT_EQ(mm(st), std::make_pair(int64_t(-1), int64_t(9)));
  EXPECT_EQ(st->device(), kCuda);
  // SLICE: size elements of its dtype, a reinterpretation: dtype range
  UOpRef sl = UOp::create(Ops::SLICE, {reshape(x, {12}), UOp::index(2)}, SliceArg{5, dtypes::uint16});
  EXPECT_EQ(sl->dtype, dtypes::uint16);
  EXPECT_EQ(sshape(sl), std::vector<int64_t>{5});
  EXPECT_EQ(mm(sl), range_of(dtypes::uint16));
}

TEST(PropertiesRow, PadIncludesTheZeroFill) {
  // spec (.tex): PAD places T in a zero-filled output, so the output holds 0 as well as T's values
  UOpRef x = bounded(2, 9, {4});
  UOpRef p = pad(x, {1}, {6});
  EXPECT_EQ(sshape(p), std::vector<int64_t>{6});
  EXPECT_EQ(p->dtype, dtypes::int32);
  EXPECT_EQ(p->device(), kCpu);
  EXPECT_EQ(mm(p), std::make_pair(int64_t(0), int64_t(9)));
  EXPECT_EQ(mm(pad(bounded(-5, -1, {4}), {0}, {4})), std::make_pair(int64_t(-5), int64_t(-1)));  // no padding added
}

// ---- REDUCE: src[0].dtype, collapse axes to 1, src[0].device, dtype range ---------------------

TEST(PropertiesRow, Reduce) {
  UOpRef x = bounded(0, 1, {4, 3, 2}, dtypes::int16, kCuda);
  UOpRef r = reduce(x, Ops::ADD, {0, 2});
  EXPECT_EQ(r->dtype, dtypes::int16);
  EXPECT_EQ(sshape(r), (std::vector<int64_t>{1, 3, 1}));
  EXPECT_EQ(r->device(), kCuda);
  EXPECT_EQ(mm(r), range_of(dtypes::int16));
}

// ---- CAST: from arg, src[0].shape, src[0].device, clamped to dtype ----------------------------

TEST(PropertiesRow, Cast) {
  UOpRef x = bounded(-5, 300, {4, 3}, dtypes::int32, kCuda);
  UOpRef f = cast(x, dtypes::float32);
  EXPECT_EQ(f->dtype, dtypes::float32);
  EXPECT_EQ(sshape(f), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(f->device(), kCuda);
  EXPECT_EQ(mmf(f), std::make_pair(-5.0, 300.0));
  EXPECT_EQ(mm(cast(x, dtypes::uint8)), range_of(dtypes::uint8));          // does not fit: wraps
  EXPECT_EQ(mm(cast(bounded(3, 200), dtypes::uint8)), std::make_pair(int64_t(3), int64_t(200)));
  EXPECT_EQ(mm(cast(bounded(0, 0), dtypes::bool_)), std::make_pair(int64_t(0), int64_t(0)));
  EXPECT_EQ(mm(cast(bounded(1, 5), dtypes::bool_)), std::make_pair(int64_t(1), int64_t(1)));
  EXPECT_EQ(mm(cast(bounded(-1, 5), dtypes::bool_)), std::make_pair(int64_t(0), int64_t(1)));
  UOpRef big = UOp::const_float(dtypes::float64, 1e6);
  EXPECT_EQ(mm(cast(big, dtypes::int16)), std::make_pair(int64_t(32767), int64_t(32767)));  // saturates
  EXPECT_EQ(mmf(cast(UOp::const_float(dtypes::float32, 1e30), dtypes::float16)), std::make_pair(kInf, kInf));
}

// ---- BITCAST: from arg, src[0].shape, src[0].device, dtype range ------------------------------

TEST(PropertiesRow, Bitcast) {
  UOpRef x = bounded(0, 1, {4}, dtypes::int32, kCuda);
  UOpRef b = UOp::create(Ops::BITCAST, {x}, Arg(dtypes::float32));
  EXPECT_EQ(b->dtype, dtypes::float32);
  EXPECT_EQ(sshape(b), std::vector<int64_t>{4});
  EXPECT_EQ(b->device(), kCuda);
  EXPECT_EQ(mmf(b), std::make_pair(-kInf, kInf));
}

// ---- COPY: src[0].dtype, src[0].shape, from arg, src[0] ---------------------------------------

TEST(PropertiesRow, Copy) {
  UOpRef x = bounded(1, 6, {4, 2}, dtypes::int8, kCpu);
  UOpRef c = UOp::create(Ops::COPY, {x}, Arg(kCuda));
  EXPECT_EQ(c->dtype, dtypes::int8);
  EXPECT_EQ(sshape(c), (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(c->device(), kCuda);
  EXPECT_EQ(mm(c), std::make_pair(int64_t(1), int64_t(6)));
  EXPECT_EQ(c->addrspace(), AddrSpace::GLOBAL);
}

// ---- ALU ops ----------------------------------------------------------------------------------

TEST(PropertiesRow, AluUnary) {
  UOpRef x = UOp::create(Ops::PARAM, {UOp::shape_operand(dims({4}))},
                         ParamArg{0, dtypes::float32, kCuda, std::nullopt, "", ConstValue::from_float(1.0),
                                  ConstValue::from_float(2.0)});
  for (Ops op : {Ops::RECIP, Ops::TRUNC, Ops::EXP2, Ops::SQRT, Ops::NEG}) {
    SCOPED_TRACE(std::string(op_name(op)));
    UOpRef u = UOp::alu(op, {x});
    EXPECT_EQ(u->dtype, dtypes::float32);
    EXPECT_EQ(sshape(u), std::vector<int64_t>{4});
    EXPECT_EQ(u->device(), kCuda);
    EXPECT_EQ(mmf(u), std::make_pair(-kInf, kInf));  // dtype range
  }
  EXPECT_EQ(mm(UOp::alu(Ops::NEG, {bounded(1, 2)})), range_of(dtypes::int32));
}

TEST(PropertiesRow, Add) {
  UOpRef a = bounded(-2, 3, {4, 1}, dtypes::int32, kCuda), b = bounded(10, 20, {5}, dtypes::int32, kCuda);
  UOpRef s = a + b;
  EXPECT_EQ(s->dtype, dtypes::int32);
  EXPECT_EQ(sshape(s), (std::vector<int64_t>{4, 5}));  // broadcast
  EXPECT_EQ(s->device(), kCuda);
  EXPECT_EQ(mm(s), std::make_pair(int64_t(8), int64_t(23)));  // [a+b, A+B]
  // an int8 sum that may overflow wraps: dtype range
  UOpRef c = bounded(100, 120, {4}, dtypes::int8) + bounded(10, 20, {4}, dtypes::int8);
  EXPECT_EQ(mm(c), range_of(dtypes::int8));
  EXPECT_EQ(mm(bounded(10, 20, {4}, dtypes::int8) + bounded(1, 2, {4}, dtypes::int8)), std::make_pair(int64_t(11), int64_t(22)));
}

TEST(PropertiesRow, Mul) {
  UOpRef m = bounded(-2, 3, {4}, dtypes::int32, kCuda) * bounded(-5, 4, {1}, dtypes::int32, kCuda);
  EXPECT_EQ(m->dtype, dtypes::int32);
  EXPECT_EQ(sshape(m), std::vector<int64_t>{4});
  EXPECT_EQ(m->device(), kCuda);
  EXPECT_EQ(mm(m), std::make_pair(int64_t(-15), int64_t(12)));  // [min, max] of the four products
  UOpRef big = bounded(1, 100000, {4}) * bounded(1, 100000, {4});
  EXPECT_EQ(mm(big), range_of(dtypes::int32));  // overflows int32: dtype range
}

TEST(PropertiesRow, Max) {
  UOpRef m = maximum(bounded(-2, 3, {2, 4}, dtypes::int32, kCuda), bounded(0, 1, {4}, dtypes::int32, kCuda));
  EXPECT_EQ(m->dtype, dtypes::int32);
  EXPECT_EQ(sshape(m), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(m->device(), kCuda);
  EXPECT_EQ(mm(m), std::make_pair(int64_t(0), int64_t(3)));  // [max(a,b), max(A,B)]
}

TEST(PropertiesRow, OtherBinary) {
  UOpRef a = bounded(0, 3, {4}, dtypes::uint16, kCuda), b = bounded(0, 1, {4}, dtypes::uint16, kCuda);
  for (Ops op : {Ops::XOR, Ops::OR, Ops::SHL, Ops::SHR, Ops::SUB}) {
    SCOPED_TRACE(std::string(op_name(op)));
    UOpRef u = UOp::alu(op, {a, b});
    EXPECT_EQ(u->dtype, dtypes::uint16);
    EXPECT_EQ(sshape(u), std::vector<int64_t>{4});
    EXPECT_EQ(u->device(), kCuda);
    EXPECT_EQ(mm(u), range_of(dtypes::uint16));  // dtype range
  }
}

TEST(PropertiesRow, Comparisons) {
  UOpRef a = bounded(0, 3, {4, 1}, dtypes::int32, kCuda);
  UOpRef lt = a < bounded(5, 9, {3});
  EXPECT_EQ(lt->dtype, dtypes::bool_);
  EXPECT_EQ(sshape(lt), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(lt->device(), kCuda);
  EXPECT_EQ(mm(lt), std::make_pair(int64_t(1), int64_t(1)));                     // always true
  EXPECT_EQ(mm(bounded(5, 9) < bounded(0, 5)), std::make_pair(int64_t(0), int64_t(0)));  // never
  EXPECT_EQ(mm(bounded(0, 5) < bounded(3, 9)), std::make_pair(int64_t(0), int64_t(1)));
  UOpRef ne1 = ne(bounded(0, 3), bounded(4, 9));
  EXPECT_EQ(ne1->dtype, dtypes::bool_);
  EXPECT_EQ(mm(ne1), std::make_pair(int64_t(1), int64_t(1)));                   // disjoint
  EXPECT_EQ(mm(ne(bounded(2, 2), i32(2))), std::make_pair(int64_t(0), int64_t(0)));  // one point
  EXPECT_EQ(mm(ne(bounded(0, 3), i32(2))), std::make_pair(int64_t(0), int64_t(1)));
}

TEST(PropertiesRow, Where) {
  UOpRef c = bounded(0, 3, {4, 1}, dtypes::int32, kCuda) < bounded(0, 3, {1});
  UOpRef w = where(c, bounded(-3, 1, {4, 1}, dtypes::int16), bounded(0, 7, {5}, dtypes::int16));
  EXPECT_EQ(w->dtype, dtypes::int16);                                   // src[1].dtype
  EXPECT_EQ(sshape(w), (std::vector<int64_t>{4, 5}));                   // broadcast of all three
  EXPECT_EQ(w->device(), kCuda);                                        // src[0].device
  EXPECT_EQ(mm(w), std::make_pair(int64_t(-3), int64_t(7)));            // [min(b,c), max(B,C)]
  // refinement: a constant condition picks its branch
  EXPECT_EQ(mm(where(UOp::const_bool(true), bounded(-3, 1), bounded(0, 7))), std::make_pair(int64_t(-3), int64_t(1)));
  EXPECT_EQ(mm(where(UOp::const_bool(false), bounded(-3, 1), bounded(0, 7))), std::make_pair(int64_t(0), int64_t(7)));
  // ... and so does a condition whose interval is one point
  EXPECT_EQ(mm(where(bounded(0, 3) < bounded(5, 9), bounded(-3, 1), bounded(0, 7))), std::make_pair(int64_t(-3), int64_t(1)));
}

// ---- FUNCTION / CALL (through GETTUPLE) -------------------------------------------------------

TEST(PropertiesRow, FunctionAndCall) {
  UOpRef n = UOp::variable("n", 1, 64);
  UOpRef p0 = param(0, {n}, dtypes::int32), p1 = param(1, dims({1}), dtypes::int32);
  UOpRef body = UOp::create(Ops::TUPLE, {p0 + p1, cast(p0, dtypes::float32)});
  UOpRef a0 = tensor({7}, dtypes::int32, kCuda), a1 = tensor({1}, dtypes::int32, kCuda);
  for (Ops op : {Ops::FUNCTION, Ops::CALL}) {
    SCOPED_TRACE(std::string(op_name(op)));
    UOpRef fn = UOp::create(op, {body, a0, a1});
    EXPECT_EQ(fn->dtype, dtypes::void_);  // src[0].dtype: a TUPLE
    EXPECT_FALSE(fn->has_shape());        // a tuple of values has no one shape
    EXPECT_EQ(fn->device(), kCuda);       // src[1].device
    UOpRef g0 = UOp::create(Ops::GETTUPLE, {fn}, Arg(int64_t(0)));
    UOpRef g1 = UOp::create(Ops::GETTUPLE, {fn}, Arg(int64_t(1)));
    EXPECT_EQ(g0->dtype, dtypes::int32);
    EXPECT_EQ(g1->dtype, dtypes::float32);
    EXPECT_EQ(sshape(g0), std::vector<int64_t>{7});  // substitute PARAM shapes: n -> 7
    EXPECT_EQ(sshape(g1), std::vector<int64_t>{7});
    EXPECT_EQ(g0->device(), kCuda);
    EXPECT_EQ(mm(g0), range_of(dtypes::int32));  // dtype range
    EXPECT_NO_THROW(verify(g0));
  }
  // a body shape that is an expression of the PARAM's symbolic dim is substituted too
  UOpRef body2 = UOp::create(Ops::TUPLE, {reshape(expand(reshape(p0, {n, UOp::index(1)}), {n, UOp::index(2)}), {n * 2})});
  UOpRef g = UOp::create(Ops::GETTUPLE, {UOp::create(Ops::FUNCTION, {body2, a0})}, Arg(int64_t(0)));
  ASSERT_EQ(g->shape().size(), 1u);
  EXPECT_EQ(g->shape()[0], UOp::index(7) * 2);  // n*2 with n = 7 (interned: the same node)
  EXPECT_EQ(mm(g->shape()[0]), std::make_pair(int64_t(14), int64_t(14)));
}

// ---- RANGE, INDEX, STORE, AFTER, LOAD ---------------------------------------------------------

TEST(PropertiesRow, Range) {
  UOpRef r = UOp::range(10, 0);
  EXPECT_EQ(r->dtype, dtypes::index);
  EXPECT_TRUE(r->shape().empty());
  EXPECT_TRUE(r->device().is_null());
  EXPECT_EQ(mm(r), std::make_pair(int64_t(0), int64_t(9)));  // [0, n-1]
  UOpRef n = UOp::variable("n", 1, 64);
  EXPECT_EQ(mm(UOp::range(n, 1)), std::make_pair(int64_t(0), int64_t(63)));  // n-1 at most 63
}

TEST(PropertiesRow, Index) {
  UOpRef x = bounded(-4, 4, {5, 4, 3}, dtypes::int32, kCuda);
  UOpRef i = UOp::create(Ops::INDEX, {x, i32(1), UOp::create(Ops::STACK, {i32(0), i32(3)})});
  EXPECT_EQ(i->dtype, dtypes::int32);
  EXPECT_EQ(sshape(i), (std::vector<int64_t>{2, 3}));  // remaining dims
  EXPECT_EQ(i->device(), kCuda);
  EXPECT_EQ(mm(i), std::make_pair(int64_t(-4), int64_t(4)));
}

TEST(PropertiesRow, Store) {
  UOpRef b = buffer(4, dtypes::float32, kCuda);
  UOpRef s = UOp::create(Ops::STORE, {b, tensor({4}, dtypes::float32, kCuda)});
  EXPECT_EQ(s->dtype, dtypes::void_);
  EXPECT_TRUE(s->shape().empty());
  EXPECT_EQ(s->device(), kCuda);
}

TEST(PropertiesRow, After) {
  UOpRef b = bounded(3, 8, {4}, dtypes::int32, kCuda);
  UOpRef st = UOp::create(Ops::STORE, {buffer(4, dtypes::int32, kCuda), tensor({4}, dtypes::int32, kCuda)});
  UOpRef a = UOp::create(Ops::AFTER, {b, st});
  EXPECT_EQ(a->dtype, dtypes::int32);
  EXPECT_EQ(sshape(a), std::vector<int64_t>{4});
  EXPECT_EQ(a->device(), kCuda);
  EXPECT_EQ(mm(a), std::make_pair(int64_t(3), int64_t(8)));
}

TEST(PropertiesRow, Load) {
  UOpRef x = bounded(3, 8, {4}, dtypes::int32, kCpu);
  UOpRef l = UOp::create(Ops::LOAD, {x}, LoadArg{kCuda, AddrSpace::LOCAL});
  EXPECT_EQ(l->dtype, dtypes::int32);
  EXPECT_EQ(sshape(l), std::vector<int64_t>{4});
  EXPECT_EQ(l->device(), kCuda);                 // from arg
  EXPECT_EQ(l->addrspace(), AddrSpace::LOCAL);   // from arg
  EXPECT_EQ(mm(l), std::make_pair(int64_t(3), int64_t(8)));
  // no device in the arg: the source's (contiguous() on the same device)
  EXPECT_EQ(UOp::create(Ops::LOAD, {x}, LoadArg{Device(), AddrSpace::GLOBAL})->device(), kCpu);
  // a gated load yields alt where the gate is false: its interval holds alt too
  UOpRef gated = UOp::create(Ops::LOAD, {x, i32(0), bounded(0, 1, {4}, dtypes::bool_)}, LoadArg{kCpu});
  EXPECT_EQ(mm(gated), std::make_pair(int64_t(0), int64_t(8)));
  // kernel form: a LOAD through a pointer (INDEX) may read any value of its dtype, not the
  // pointer's "—" interval [0, 0] (which let the simplifier fold `load + 1` to 1)
  UOpRef p = UOp::create(Ops::PARAM, dtypes::int32.ptr(), {UOp::shape_operand(std::vector<int64_t>{4})},
                         ParamArg{0, dtypes::int32.ptr(), kCpu, std::nullopt, "", {}, {}});
  UOpRef at = UOp::create(Ops::INDEX, dtypes::int32.ptr(), {p, UOp::index(1)});
  UOpRef ld = UOp::create(Ops::LOAD, dtypes::int32, {at});
  EXPECT_EQ(mm(ld), range_of(dtypes::int32));
  UOpRef gld = UOp::create(Ops::LOAD, dtypes::int32, {at, i32(0), UOp::const_bool(true)});
  EXPECT_EQ(mm(gld), range_of(dtypes::int32));
}

// ---- refinements (sound intervals where the table says "dtype range") ------------------------

TEST(PropertiesRefinement, IdivIntervals) {
  EXPECT_EQ(mm(idiv(bounded(0, 10), i32(3))), std::make_pair(int64_t(0), int64_t(3)));
  EXPECT_EQ(mm(idiv(bounded(-7, 10), i32(2))), std::make_pair(int64_t(-4), int64_t(5)));  // floor: -7//2 = -4
  EXPECT_EQ(mm(idiv(bounded(-7, 10), i32(-2))), std::make_pair(int64_t(-5), int64_t(3)));  // 10//-2 = -5, -7//-2 = 3
  EXPECT_EQ(mm(idiv(bounded(10, 20), bounded(2, 5))), std::make_pair(int64_t(2), int64_t(10)));
  EXPECT_EQ(mm(idiv(bounded(0, 10), bounded(-1, 2))), range_of(dtypes::int32));  // divisor may be 0
  EXPECT_EQ(mm(idiv(bounded(int64_t(dtypes::int32.int_min()), 0), i32(-1))), range_of(dtypes::int32));  // overflows
}

TEST(PropertiesRefinement, ModIntervals) {
  EXPECT_EQ(mm(bounded(0, 10) % 3), std::make_pair(int64_t(0), int64_t(2)));
  EXPECT_EQ(mm(bounded(-10, 10) % 3), std::make_pair(int64_t(0), int64_t(2)));   // floor mod: sign of the divisor
  EXPECT_EQ(mm(bounded(1, 2) % 3), std::make_pair(int64_t(1), int64_t(2)));      // x % c == x for 0 <= x < c
  EXPECT_EQ(mm(bounded(0, 10) % bounded(2, 5)), std::make_pair(int64_t(0), int64_t(4)));
  EXPECT_EQ(mm(bounded(-10, 10) % -4), std::make_pair(int64_t(-3), int64_t(0)));
  EXPECT_EQ(mm(bounded(0, 10) % bounded(-1, 2)), range_of(dtypes::int32));  // divisor may be 0
}

TEST(PropertiesRefinement, BitwiseAndBool) {
  EXPECT_EQ(mm(UOp::alu(Ops::AND, {bounded(0, 12), bounded(0, 5)})), std::make_pair(int64_t(0), int64_t(5)));
  UOpRef t = UOp::const_bool(true), f = UOp::const_bool(false);
  EXPECT_EQ(mm(UOp::alu(Ops::AND, {t, f})), std::make_pair(int64_t(0), int64_t(0)));
  EXPECT_EQ(mm(UOp::alu(Ops::OR, {t, f})), std::make_pair(int64_t(1), int64_t(1)));
}

TEST(PropertiesRefinement, DeviceFallsBackPastAConstSource) {
  // spec: src[0].device; a CONST has none (NULL) and broadcasts anywhere, so the next source decides
  UOpRef x = tensor({4}, dtypes::float32, kCuda);
  UOpRef c = UOp::const_float(dtypes::float32, 2.0);
  EXPECT_EQ((c + x)->device(), kCuda);
  EXPECT_EQ((x + c)->device(), kCuda);
  EXPECT_EQ(where(UOp::const_bool(true), c, x)->device(), kCuda);
  EXPECT_TRUE((c + c)->device().is_null());
  UOpRef st = UOp::create(Ops::STORE, {buffer(4, dtypes::float32, kCuda), x});
  EXPECT_EQ(UOp::create(Ops::AFTER, {c, st})->device(), kCuda);
}

// ---- addrspace --------------------------------------------------------------------------------

TEST(PropertiesAddrspace, PassesThroughMovementAndMarkers) {
  UOpRef b = UOp::create(Ops::BUFFER, {}, BufferArg{next_buffer_id(), 12, dtypes::float32, kCpu, AddrSpace::LOCAL});
  UOpRef r = reshape(b, {4, 3});
  EXPECT_EQ(r->addrspace(), AddrSpace::LOCAL);
  EXPECT_EQ(UOp::create(Ops::CONTIGUOUS, {r})->addrspace(), AddrSpace::LOCAL);
  EXPECT_EQ((r + r)->addrspace(), std::nullopt);  // a computed value lives nowhere yet
  EXPECT_EQ(UOp::create(Ops::LOAD, {r}, LoadArg{kCpu, AddrSpace::REG})->addrspace(), AddrSpace::REG);
}

// ---- axis: the multi-device sharding dimension ------------------------------------------------

TEST(PropertiesAxis, BufferReshapePermute) {
  UOpRef b = buffer(12, dtypes::float32, kPair);  // (24,) on two devices, axis 0
  ASSERT_EQ(b->axis(), 0);
  UOpRef r = reshape(b, {2, 12});
  EXPECT_EQ(r->axis(), 0);                               // the shard boundary stays at axis 0
  EXPECT_EQ(reshape(b, {1, 2, 12})->axis(), 1);          // a leading size-1 axis moves it
  UOpRef r3 = reshape(b, {2, 3, 4});
  EXPECT_EQ(r3->axis(), 0);
  EXPECT_EQ(permute(r3, {2, 0, 1})->axis(), 1);          // PERMUTE follows the permutation
  EXPECT_EQ(permute(r3, {1, 2, 0})->axis(), 2);
  EXPECT_EQ(reshape(permute(r, {1, 0}), {3, 8})->axis(), std::nullopt);  // the boundary is gone: NULL
}

TEST(PropertiesAxis, ReduceReplicatedCopy) {
  UOpRef r = reshape(buffer(12, dtypes::float32, kPair), {2, 3, 4});
  EXPECT_EQ(reduce(r, Ops::ADD, {0})->axis(), std::nullopt);  // REDUCE on the shard axis -> NULL
  EXPECT_EQ(reduce(r, Ops::MAX, {2})->axis(), 0);             // elsewhere it stays
  EXPECT_EQ(UOp::create(Ops::REPLICATED, {r}, Arg(Arg::Ints{0}))->axis(), std::nullopt);
  EXPECT_EQ(UOp::create(Ops::REPLICATED, {r}, Arg(Arg::Ints{1}))->axis(), 0);
  EXPECT_EQ(UOp::create(Ops::COPY, {r}, Arg(kCpu))->axis(), std::nullopt);  // COPY -> NULL
  // spec (collectives): COPY to an n-tuple device reshards with axis = 0
  EXPECT_EQ(UOp::create(Ops::COPY, {tensor({8})}, Arg(kPair))->axis(), 0);
}

TEST(PropertiesAxis, AluInheritsAndMovementKeeps) {
  UOpRef r = reshape(buffer(12, dtypes::float32, kPair), {2, 12});
  UOpRef c = UOp::const_float(dtypes::float32, 1.0);
  EXPECT_EQ((c + r)->axis(), 0);             // ALU ops inherit from their sources
  EXPECT_EQ(cast(r, dtypes::int32)->axis(), 0);
  EXPECT_EQ(expand(reshape(r, {2, 1, 12}), {2, 5, 12})->axis(), 0);
  EXPECT_EQ(tensor({4})->axis(), std::nullopt);  // default NULL
  // INDEX removing a dim in front of the shard axis shifts it; indexing the shard axis ends it
  UOpRef p = permute(r, {1, 0});  // (12, 2), axis 1
  EXPECT_EQ(UOp::create(Ops::INDEX, {p, UOp::index(0)})->axis(), 0);
  EXPECT_EQ(UOp::create(Ops::INDEX, {r, UOp::index(0)})->axis(), std::nullopt);
  // STACK adds a leading axis: the shard axis moves one to the right
  EXPECT_EQ(UOp::create(Ops::STACK, {r, r})->axis(), 1);
}

// ---- symbolic dims ----------------------------------------------------------------------------

TEST(PropertiesSymbolic, ShapesThroughMovementAndBroadcast) {
  UOpRef n = UOp::variable("n", 1, 64);
  UOpRef x = expand(reshape(UOp::const_float(dtypes::float32, 1.0), dims({1, 1})), {n, UOp::index(1)});  // (n, 1)
  EXPECT_EQ(x->shape(), (Shape{n, UOp::index(1)}));
  UOpRef y = x + reshape(tensor({3}), dims({1, 3}));  // (n, 1) + (1, 3)
  EXPECT_EQ(y->shape(), (Shape{n, UOp::index(3)}));
  EXPECT_EQ(shape_str(y->shape()), "(n, 3)");
  UOpRef z = reshape(y, {n * 3});
  EXPECT_EQ(z->shape(), Shape{n * 3});
  EXPECT_EQ(permute(y, {1, 0})->shape(), (Shape{UOp::index(3), n}));
  EXPECT_EQ(reduce(y, Ops::ADD, {0})->shape(), (Shape{UOp::index(1), UOp::index(3)}));
  EXPECT_EQ(pad(y, {UOp::index(1), UOp::index(0)}, {n + 2, UOp::index(3)})->shape(), (Shape{n + 2, UOp::index(3)}));
  EXPECT_EQ(y->static_shape(), std::nullopt);
  EXPECT_NO_THROW(verify(z));
  // n and m are different dims: shape inference says why
  UOpRef m = UOp::variable("m", 1, 64);
  UOpRef bad = x + expand(reshape(UOp::const_float(dtypes::float32, 1.0), dims({1, 1})), {m, UOp::index(1)});
  EXPECT_FALSE(bad->has_shape());
  EXPECT_EQ(bad->props().shape_error, "ADD: broadcast rule: shapes (n, 1) and (m, 1) differ at axis 0 and neither is 1");
}

TEST(PropertiesSymbolic, MinMaxOfIndexMath) {
  UOpRef n = UOp::variable("n", 1, 64);
  EXPECT_EQ(mm(n * 4 + 3), std::make_pair(int64_t(7), int64_t(259)));
  EXPECT_EQ(mm(n - 1), std::make_pair(int64_t(0), int64_t(63)));
  EXPECT_EQ(mm(idiv(n + 7, 8)), std::make_pair(int64_t(1), int64_t(8)));
  EXPECT_EQ(mm(n % 8), std::make_pair(int64_t(0), int64_t(7)));
  EXPECT_EQ(mm(n < 65), std::make_pair(int64_t(1), int64_t(1)));
  EXPECT_EQ(mm(minimum(n, UOp::index(10))), std::make_pair(int64_t(1), int64_t(10)));
  EXPECT_EQ(mm(UOp::range(n * 4 + 3, 0)), std::make_pair(int64_t(0), int64_t(258)));
}

// ---- deep graphs and threads ------------------------------------------------------------------

TEST(PropertiesDeep, MillionNodeAddChain) {
  UOpRef x = bounded(-1, 2, {4, 3}, dtypes::int64);
  UOpRef one = UOp::const_int(dtypes::int64, 1);
  for (int i = 0; i < 1'000'000; i++) x = x + one;
  EXPECT_EQ(sshape(x), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(mm(x), std::make_pair(int64_t(999'999), int64_t(1'000'002)));
  EXPECT_EQ(x->device(), kCpu);
}

TEST(PropertiesThreads, ConcurrentCreationAndReading) {
  constexpr int kThreads = 8, kDepth = 2000;
  UOpRef n = UOp::variable("n", 1, 64);
  std::vector<UOpRef> roots(kThreads);
  std::vector<std::pair<int64_t, int64_t>> ranges(kThreads);
  std::vector<const Shape*> shapes(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++)
    threads.emplace_back([&, t] {
      UOpRef x = expand(reshape(UOp::const_int(dtypes::index, 1), dims({1, 1})), {n, UOp::index(3)});
      for (int i = 0; i < kDepth; i++) x = (x + n) % 1000 + (i % 7);
      roots[t] = x;
      ranges[t] = mm(x);
      shapes[t] = &x->shape();
    });
  for (std::thread& th : threads) th.join();
  for (int t = 1; t < kThreads; t++) {
    EXPECT_EQ(roots[t], roots[0]);    // one node per structure, whoever built it
    EXPECT_EQ(shapes[t], shapes[0]);  // one published set of properties
    EXPECT_EQ(ranges[t], ranges[0]);
  }
  EXPECT_EQ(roots[0]->shape(), (Shape{n, UOp::index(3)}));
}

// Interval bounds past the i128 range are infinite: never a wrong finite value.
TEST(MinMaxBounds, PastTheI128RangeIsInfiniteNotAValue) {
  const int64_t H = int64_t(1) << 40;
  UOpRef a = UOp::variable("a", H, H + 1000000), b = UOp::variable("b", -H, H);
  UOpRef big = (a * a) * (a * a);  // about 2^160: wholly past +inf
  EXPECT_TRUE(big->vmin().as_int() == kBoundNegInf);
  EXPECT_TRUE(big->vmax().as_int() == kBoundPosInf);
  UOpRef wide = (b * b) * (b * b) * b;  // [-2^200, 2^200]: both ends infinite
  EXPECT_TRUE(wide->vmin().as_int() == kBoundNegInf);
  EXPECT_TRUE(wide->vmax().as_int() == kBoundPosInf);
  // inf + finite stays inf; a factor that is exactly zero gives zero
  EXPECT_TRUE((big + 5)->vmax().as_int() == kBoundPosInf);
  EXPECT_TRUE((big * UOp::index(0))->vmax().as_int() == 0);
  EXPECT_TRUE(sat_add(kBoundPosInf, -5) == kBoundPosInf);
  EXPECT_TRUE(sat_mul(kBoundNegInf, -3) == kBoundPosInf);
  EXPECT_TRUE(sat_mul(kBoundPosInf, 0) == 0);
}
