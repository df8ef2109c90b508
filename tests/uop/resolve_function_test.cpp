// resolve_functions (uop/resolve_function.h): GETTUPLE(FUNCTION(TUPLE(body), args), i) becomes the
// body's element i with PARAM k replaced by a_k; nested FUNCTIONs whose PARAMs are the very nodes of
// the enclosing body's PARAMs (interned alike) keep their own meaning.
#include <gtest/gtest.h>

#include "graph_builders.h"
#include "uop/errors.h"
#include "uop/resolve_function.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

UOpRef tuple(std::vector<UOpRef> v) { return UOp::create(Ops::TUPLE, dtypes::void_, std::move(v)); }
UOpRef fn(const UOpRef& body, std::vector<UOpRef> args) {
  args.insert(args.begin(), body);
  return UOp::create(Ops::FUNCTION, dtypes::void_, std::move(args));
}
UOpRef get(const UOpRef& f, int64_t i) { return UOp::create(Ops::GETTUPLE, {f}, Arg(i)); }

}  // namespace

TEST(ResolveFunction, SubstitutesEachParamByItsArgument) {
  UOpRef p0 = param(0, dims({4})), p1 = param(1, dims({4}));
  UOpRef x = tensor({4}), y = tensor({4});
  UOpRef f = fn(tuple({p0 * p1 + p0, p1}), {x, y});
  EXPECT_EQ(resolve_functions(get(f, 0)), x * y + x);
  EXPECT_EQ(resolve_functions(get(f, 1)), y);
  // users of the GETTUPLEs are rebuilt; a graph without FUNCTION comes back as it is
  UOpRef both = tuple({get(f, 0) + get(f, 1)});
  EXPECT_EQ(resolve_functions(both), tuple({(x * y + x) + y}));
  EXPECT_EQ(resolve_functions(x * y), x * y);
}

TEST(ResolveFunction, NestedBodiesKeepTheirOwnParams) {
  UOpRef p0 = param(0, dims({3})), p1 = param(1, dims({3}));
  // inner(a, b) = a - b, called in outer's body as inner(p1, p0): the inner body's p0 is outer's p0
  // node too, and must become outer's p1 (then y), not outer's p0
  UOpRef inner = fn(tuple({p0 - p1}), {p1, p0});
  UOpRef outer = fn(tuple({get(inner, 0) * p0}), {tensor({3}), tensor({3})});
  const UOpRef &x = outer->src[1], &y = outer->src[2];
  EXPECT_EQ(resolve_functions(get(outer, 0)), (y - x) * x);
}

TEST(ResolveFunction, AParamWithoutArgumentIsAnError) {
  UOpRef f = fn(tuple({param(1, dims({2}))}), {tensor({2})});
  try {
    resolve_functions(get(f, 0));
    FAIL() << "expected VerifyError";
  } catch (const VerifyError& e) {
    EXPECT_NE(std::string(e.what()).find("PARAM 1 has no argument (1 given)"), std::string::npos) << e.what();
  }
}
