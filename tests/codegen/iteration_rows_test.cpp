// codegen/iteration_rows.h: when the iterations of an axis touch only their own rows of every
// memory a kernel stores to and reads back, so that a THREAD split (or threads shared by several
// loop nests) gives the serial result. Kernels that carry a value through memory from one loop to
// the next are what TIR programs lower to; Tensor kernels never read what they store.
#include <gtest/gtest.h>

#include "codegen/iteration_rows.h"
#include "codegen/kernel_axes.h"
#include "codegen/opt.h"
#include "uop/text/text.h"

namespace onegrad {
namespace {

// t[i] = a[i, 0] (a register row buffer), then out[i, j] = a[i, j] - t[READ]: the second nest reads
// the row the first wrote in the same iteration of r0 when READ is %r0, another row otherwise.
std::string carried_row(const std::string& read) {
  return R"(
%c1 = CONST index 1
%c3 = CONST index 3
%c4 = CONST index 4
%c8 = CONST index 8
%c32 = CONST index 32
%s32 = STACK index (%c32)
%out = PARAM ptr<float32, GLOBAL> (%s32) {slot=0}
%a = PARAM ptr<float32, GLOBAL> (%s32) {slot=1}
%t = BUFFER ptr<float32, REG> {id=0, size=4, dtype=float32, REG}
%r0 = RANGE index (%c4) {id=0, LOOP}
%row = MUL index (%r0, %c8)
%ap = INDEX ptr<float32, GLOBAL> (%a, %row)
%x = LOAD float32 (%ap)
%tp = INDEX ptr<float32, REG> (%t, %r0)
%st = STORE void (%tp, %x)
%r1 = RANGE index (%c8) {id=1, LOOP}
%i = ADD index (%row, %r1)
%ap2 = INDEX ptr<float32, GLOBAL> (%a, %i)
%y = LOAD float32 (%ap2)
%rev = SUB index (%c3, %r0)
%next = ADD index (%r0, %c1)
%ta = AFTER ptr<float32, REG> (%t, %st)
%tr = INDEX ptr<float32, REG> (%ta, )" + read + R"()
%m = LOAD float32 (%tr)
%v = SUB float32 (%y, %m)
%op = INDEX ptr<float32, GLOBAL> (%out, %i)
%st2 = STORE void (%op, %v)
%e1 = END void (%st2, %r1)
%g = GROUP void (%st, %e1)
%e0 = END void (%g, %r0)
%sink = SINK void (%e0)
)";
}

UOpRef axis(const UOpRef& sink, size_t k) { return kernel_axes(sink).at(k); }

TEST(IterationRows, RowFormOfLinearAddresses) {
  UOpRef r = UOp::range(UOp::index(16), 0, AxisType::LOOP), k = UOp::range(UOp::index(8), 1, AxisType::LOOP);
  auto f = row_form(r * 8 + k, r.get());
  ASSERT_TRUE(f);
  EXPECT_EQ(f->stride, 8);
  EXPECT_EQ(f->rest->vmin().as_int(), 0);
  EXPECT_EQ(f->rest->vmax().as_int(), 7);
  // through int32 casts that cannot wrap (a TIR loop variable is an int32 cast to index)
  UOpRef i32 = UOp::create(Ops::CAST, dtypes::int32, {r});
  UOpRef addr = UOp::create(Ops::CAST, dtypes::index, {UOp::alu(Ops::MUL, {i32, UOp::const_int(dtypes::int32, 1024)})});
  ASSERT_TRUE(row_form(addr, r.get()));
  EXPECT_EQ(row_form(addr, r.get())->stride, 1024);
  // not linear in r: a division, a product of two ranges
  EXPECT_FALSE(row_form(UOp::alu(Ops::IDIV, {r, UOp::index(2)}), r.get()));
  EXPECT_FALSE(row_form(r * k, r.get()));
  // an address without r has stride 0
  EXPECT_EQ(row_form(k + 3, r.get())->stride, 0);
}

TEST(IterationRows, AcceptsRowsWrittenAndReadInTheSameIteration) {
  UOpRef k = parse_graph(carried_row("%r0"));
  EXPECT_EQ(iteration_rows_conflict(k, axis(k, 0).get()), "");
  // and so a THREAD split of that axis applies
  EXPECT_EQ(kernel_shape(apply_opt(k, Opt::split(0, 2, AxisType::THREAD))), "t2 L2 L8");
}

TEST(IterationRows, RefusesReadsOfAnotherIterationsRow) {
  for (const char* read : {"%rev", "%next"}) {
    UOpRef k = parse_graph(carried_row(read));
    std::string why = iteration_rows_conflict(k, axis(k, 0).get());
    EXPECT_NE(why.find("register buffer 0"), std::string::npos) << read << ": " << why;
    EXPECT_THROW(apply_opt(k, Opt::split(0, 2, AxisType::THREAD)), OptError) << read;
  }
  UOpRef k = parse_graph(carried_row("%rev"));
  EXPECT_EQ(iteration_rows_conflict(k, axis(k, 0).get(), "axis 0"),
            "the load of register buffer 0 addresses no multiple of the axis plus an offset: it may touch another "
            "iteration's elements");
  k = parse_graph(carried_row("%next"));
  EXPECT_EQ(iteration_rows_conflict(k, axis(k, 0).get()),
            "the load of register buffer 0 reaches outside its iteration's rows (offset 1..1, rows of 1)");
}

TEST(IterationRows, InnerAxisOfACarriedRowIsRefused) {
  // r1's iterations all read t[r0], which none of them wrote: t is stored outside r1 but its
  // addresses do not move with r1 (stride 0)
  UOpRef k = parse_graph(carried_row("%r0"));
  EXPECT_NE(iteration_rows_conflict(k, axis(k, 1).get()), "");
}

}  // namespace
}  // namespace onegrad
