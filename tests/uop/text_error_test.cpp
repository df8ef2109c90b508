// Malformed text: a ParseError naming the line, the column and what was expected; and a fuzzer
// that mutates valid text and checks nothing but ParseError ever comes out.
#include <gtest/gtest.h>

#include <random>

#include "text_samples.h"
#include "uop/errors.h"
#include "uop/text/text.h"

namespace onegrad {
namespace {

struct ErrorCase {
  const char* text;
  int line, column;
  const char* message;  // a part of the message
};

TEST(TextErrors, MessagesNameLineColumnAndExpectation) {
  const ErrorCase cases[] = {
      {"%0 = FOO index 4", 1, 6, "unknown op 'FOO'"},
      {"%0 = CONST flaot32 1.0", 1, 12, "unknown dtype 'flaot32'"},
      {"%0 = CONST ptr<float32, LOCAL 1.0", 1, 15, "expected '>' closing ptr<"},
      {"%0 = CONST index 4\n%1 = ADD index (%0, %x)", 2, 21, "undefined value %x"},
      {"%0 = CONST index 4\n%0 = CONST index 5", 2, 1, "redefinition of %0"},
      {"%0 = CONST index 4 5", 1, 20, "expected end of line after the node, found \"5\""},
      {"%0 = CONST index 4 tag=x", 1, 24, "expected a tag (an int64), found \"x\""},
      {"%0 = CONST index 12x", 1, 18, "bad number '12x'"},
      {"%0 = CONST index 999999999999999999999999999999999999999999", 1, 18, "does not fit in 128 bits"},
      {"%0 = CONST float32 1e999", 1, 20, "bad number '1e999'"},
      {"%0 = CONST float32 nan(0x1234)", 1, 20, "expected nan(0x<16 hex digits of a NaN>)"},
      {"%0 = SOURCE void \"abc", 1, 18, "unterminated string"},
      {"%0 = SOURCE void \"abc\ndef\"", 1, 18, "unterminated string"},
      {"%0 = SOURCE void \"a\\qb\"", 1, 20, "unknown escape"},
      {"%0 = SOURCE void \"\\x4\"", 1, 19, "two hex digits"},
      {"%0 = CONST index 16\n%1 = RANGE index (%0) {id=0, LOOPY}", 2, 30, "expected an AxisType"},
      {"%0 = CONST index 16\n%1 = RANGE index (%0) {id=x, LOOP}", 2, 27, "expected an id (an int64)"},
      {"%0 = BUFFER float32 {id=1, size=4, GLOBAL, device=CPU}", 1, 44, "in this order"},
      {"%0 = BUFFER float32 {id=1, size=4 GLOBAL}", 1, 35, "expected ',' or '}'"},
      {"%0 = BUFFER float32 {what=1}", 1, 22, "expected a record field"},
      {"%0 = PERMUTE float32 [1, true]", 1, 26, "expected an integer (an int64)"},
      {"%0 = FLIP float32 [true, 1]", 1, 26, "expected true or false"},
      {"%0 = PERMUTE float32 [1, 99999999999999999999]", 1, 26, "(an int64)"},
      {"%0 = COPY float32 device=(CPU CUDA)", 1, 31, "',' or ')' in a device tuple"},
      {"%0 = CUSTOM float32 ???", 1, 21, "expected an arg"},
      {"%0 = ADD index (%0", 1, 17, "undefined value %0"},
      {"%0 = CONST index 1\n%1 = ADD index (%0, %0", 2, 23, "')' closing the sources"},
      {"%0 CONST index 1", 1, 4, "expected '=' after %0"},
      {"0 = CONST index 1", 1, 1, "expected a value name like %3"},
      {"% = CONST index 1", 1, 2, "expected a name after '%'"},
      {"%0 = CONST index 1\nroots %0\n%1 = CONST index 2", 3, 1, "nothing after the roots line"},
      {"%0 = CONST index 1\n%1 = CONST index 2\nroots %0, %1", 3, 1, "expected one root, the text names 2"},
      {"", 1, 1, "empty graph"},
      {"# only a comment\n\n", 3, 1, "empty graph"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      parse_graph(c.text);
      ADD_FAILURE() << "parsed";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.line, c.line) << e.what();
      EXPECT_EQ(e.column, c.column) << e.what();
      std::string prefix = "line " + std::to_string(c.line) + ", column " + std::to_string(c.column) + ": ";
      EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
}

TEST(TextErrors, ParseArgRejectsTrailingText) {
  EXPECT_THROW(parse_arg("[1, 2] x", dtypes::float32), ParseError);
  EXPECT_THROW(parse_arg("4\n", dtypes::float32), ParseError);
  EXPECT_TRUE(parse_arg("", dtypes::float32).is_none());
}

// Mutations that keep the text mostly intact, so the parser gets deep before it fails.
std::string mutate(std::string s, std::mt19937& rng) {
  static const std::string kInteresting = "%=(),{}[]\"\\#/<>-.:0123456789eE \n\txinfna";
  int edits = 1 + int(rng() % 3);
  for (int e = 0; e < edits && !s.empty(); e++) {
    size_t at = rng() % s.size();
    switch (rng() % 5) {
      case 0: s[at] = char(rng() % 256); break;                                  // any byte
      case 1: s[at] = kInteresting[rng() % kInteresting.size()]; break;          // a syntax byte
      case 2: s.insert(s.begin() + long(at), kInteresting[rng() % kInteresting.size()]); break;
      case 3: s.erase(at, 1 + rng() % 4); break;
      case 4: s.resize(at); break;                                               // truncation
    }
  }
  return s;
}

TEST(TextFuzz, MutatedTextParsesOrThrowsParseError) {
  std::vector<UOpRef> nodes;
  for (int i = 0; i < kNumOps; i++) nodes.push_back(text_samples::sample_node(op_at(i)));
  for (const Arg& a : text_samples::sample_args()) nodes.push_back(UOp::create(Ops::CUSTOM, dtypes::float32, {}, a));
  // Small texts (one node each) and one big one, so mutations hit every arg spelling often.
  std::vector<std::string> seeds;
  for (const UOpRef& n : nodes) seeds.push_back(print_graph(n));
  seeds.push_back(print_graph(nodes));

  std::mt19937 rng(20240607);
  int parsed = 0, rejected = 0;
  for (int i = 0; i < 6000; i++) {
    std::string text = mutate(seeds[rng() % seeds.size()], rng);
    try {
      std::vector<UOpRef> roots = parse_graphs(text);
      parsed++;
      // Whatever parsed is a graph the printer can write and the parser read back.
      std::string again = print_graph(roots);
      std::vector<UOpRef> back = parse_graphs(again);
      ASSERT_EQ(back.size(), roots.size()) << text;
      for (size_t r = 0; r < roots.size(); r++) ASSERT_EQ(back[r].get(), roots[r].get()) << text;
    } catch (const ParseError& e) {
      rejected++;
      ASSERT_GE(e.line, 1);
      ASSERT_GE(e.column, 1);
    } catch (const std::exception& e) {
      FAIL() << "unexpected " << typeid(e).name() << ": " << e.what() << "\ninput:\n" << text;
    }
  }
  RecordProperty("parsed", parsed);
  RecordProperty("rejected", rejected);
  // Both outcomes happen, so neither check above is vacuous.
  EXPECT_GT(parsed, 100);
  EXPECT_GT(rejected, 1000);
}

}  // namespace
}  // namespace onegrad
