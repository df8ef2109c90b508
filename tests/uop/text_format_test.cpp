// The text form as people read and write it: golden text for small graphs, comments, names.
#include <gtest/gtest.h>

#include "uop/text/text.h"

namespace onegrad {
namespace {

TEST(TextFormat, GoldenLoop) {
  UOpRef buf = UOp::create(Ops::BUFFER, dtypes::float32.ptr(), {},
                           BufferArg{1, 16, dtypes::float32, Device("CPU"), AddrSpace::GLOBAL});
  UOpRef r = UOp::range(16, 0);
  UOpRef idx = UOp::create(Ops::INDEX, buf->dtype, {buf, r});
  UOpRef val = UOp::create(Ops::ADD, dtypes::float32, {UOp::const_float(dtypes::float32, 1.5), UOp::const_float(dtypes::float32, 1.5)});
  UOpRef st = UOp::create(Ops::STORE, dtypes::void_, {idx, val});
  UOpRef end = UOp::create(Ops::END, dtypes::void_, {st, r});
  EXPECT_EQ(print_graph(UOp::create(Ops::SINK, dtypes::void_, {end})),
            "%0 = BUFFER ptr<float32, GLOBAL> {id=1, size=16, dtype=float32, device=CPU, GLOBAL}\n"
            "%1 = CONST index 16\n"
            "%2 = RANGE index (%1) {id=0, LOOP}\n"
            "%3 = INDEX ptr<float32, GLOBAL> (%0, %2)\n"
            "%4 = CONST float32 1.5\n"
            "%5 = ADD float32 (%4, %4)\n"
            "%6 = STORE void (%3, %5)\n"
            "%7 = END void (%6, %2)\n"
            "%8 = SINK void (%7)\n");
}

TEST(TextFormat, GoldenArgs) {
  UOpRef t = UOp::create(Ops::BUFFER, {}, BufferArg{1, 16, dtypes::float32, Device("CPU"), AddrSpace::GLOBAL});
  EXPECT_EQ(print_graph(t), "%0 = BUFFER float32 {id=1, size=16, device=CPU, GLOBAL}\n");
  auto last_line = [](const UOpRef& u) {
    std::string s = print_graph(u);
    s.pop_back();
    return s.substr(s.rfind('\n') + 1);
  };
  EXPECT_EQ(last_line(UOp::create(Ops::REDUCE, {t}, ReduceArg{Ops::ADD, {0}})), "%1 = REDUCE float32 (%0) {ADD, axes=[0]}");
  EXPECT_EQ(last_line(UOp::create(Ops::PERMUTE, {t}, Arg::Ints{0})), "%1 = PERMUTE float32 (%0) [0]");
  EXPECT_EQ(last_line(UOp::create(Ops::FLIP, {t}, Arg::Bools{true})), "%1 = FLIP float32 (%0) [true]");
  EXPECT_EQ(last_line(cast(t, dtypes::float16)), "%1 = CAST float16 (%0) dtype=float16");
  EXPECT_EQ(last_line(UOp::create(Ops::COPY, {t}, Device::tuple({"CPU:0", "CPU:1"}))),
            "%1 = COPY float32 (%0) device=(CPU:0, CPU:1)");
  EXPECT_EQ(last_line(UOp::create(Ops::LOAD, {t}, LoadArg{Device("CPU"), AddrSpace::LOCAL})),
            "%1 = LOAD float32 (%0) {device=CPU, LOCAL}");
  EXPECT_EQ(last_line(UOp::create(Ops::SLICE, {t, UOp::index(2)}, SliceArg{4, dtypes::int8})),
            "%2 = SLICE int8 (%0, %1) {size=4}");
  EXPECT_EQ(last_line(UOp::variable("n", 1, 16)), "%0 = PARAM index {slot=-1, name=\"n\", min=1, max=16}");
  EXPECT_EQ(last_line(UOp::create(Ops::GETTUPLE, {UOp::create(Ops::TUPLE, {t})}, int64_t(0))),
            "%2 = GETTUPLE float32 (%1) int=0");
  EXPECT_EQ(last_line(UOp::create(Ops::SOURCE, {}, "a\n\"b\"\\")), "%0 = SOURCE void \"a\\n\\\"b\\\"\\\\\"");
  EXPECT_EQ(last_line(t->with_tag(3)), "%0 = BUFFER float32 {id=1, size=16, device=CPU, GLOBAL} tag=3");
}

TEST(TextFormat, CommentsBlankLinesAndNames) {
  // Hand-written golden input: own names, comments, blank lines, spacing; sources may be shared.
  const char* text = R"(
    # a loop bound and a range
    %n   = CONST index 16        // the bound
    %r=RANGE index(%n){id=0,LOOP}

    %two = CONST index 2   # shared below
    %a.1 = MUL index (%r, %two)
    %sum = ADD index (%a.1, %two)
  )";
  UOpRef r = UOp::range(16, 0);
  UOpRef expected = UOp::create(Ops::ADD, dtypes::index, {r * 2, UOp::index(2)});
  EXPECT_EQ(parse_graph(text).get(), expected.get());
}

TEST(TextFormat, RootsLineChoosesTheRoot) {
  UOpRef root = parse_graph("%0 = CONST index 1\n%1 = CONST index 2\nroots %0\n# done\n");
  EXPECT_EQ(root.get(), UOp::index(1).get());
  std::vector<UOpRef> roots = parse_graphs("%0 = CONST index 1\n%1 = CONST index 2\nroots %1, %0");
  ASSERT_EQ(roots.size(), 2u);
  EXPECT_EQ(roots[0].get(), UOp::index(2).get());
  EXPECT_EQ(roots[1].get(), UOp::index(1).get());
}

TEST(TextFormat, ParserAcceptsDTypeAliasesAndBareDefaults) {
  // Lenient input for hand-written tests; the printer writes the canonical spelling.
  UOpRef a = parse_graph("%0 = BUFFER float {id=1, size=4}");
  EXPECT_EQ(a.get(), UOp::create(Ops::BUFFER, {}, BufferArg{1, 4, dtypes::float32, Device(), AddrSpace::GLOBAL}).get());
  UOpRef d = parse_graph("%0 = COPY float32 device=(CPU)");
  EXPECT_EQ(d->arg.get<Device>(), Device::tuple({"CPU"}));
}

}  // namespace
}  // namespace onegrad
