#include "codegen/opt_actions.h"

#include <cctype>
#include <unordered_set>

#include "codegen/kernel_axes.h"

namespace onegrad {

namespace {

// One row per kind of move: the op, the SPLIT target, the factors (SPLIT) or multiples (PADTO)
// tried, and which `top` values. Factors stay small: UPCAST and UNROLL multiply the body
// (kMaxExpansion caps them anyway), and every action is a candidate to compile and time.
struct ActionRow {
  OptOp op;
  AxisType target;
  std::vector<int64_t> args;
  std::vector<bool> tops;
};

const std::vector<ActionRow>& action_table() {
  static const std::vector<ActionRow> rows = {
      {OptOp::SPLIT, AxisType::UPCAST, {2, 3, 4, 8, 16}, {false}},
      {OptOp::SPLIT, AxisType::UNROLL, {2, 3, 4, 8, 16}, {false}},
      // a THREAD part outermost gives each worker one contiguous block of the axis
      {OptOp::SPLIT, AxisType::THREAD, {2, 4, 8, 16}, {true}},
      {OptOp::SPLIT, AxisType::LOCAL, {2, 4, 8, 16, 32, 64, 128}, {false}},
      // a GLOBAL part outermost: each workgroup one contiguous block of the axis
      {OptOp::SPLIT, AxisType::GLOBAL, {2, 4, 16, 64, 256}, {true}},
      // GROUP_REDUCE lanes where the target has local memory (row_opts drops the row elsewhere:
      // without it a GROUP_REDUCE is a level of partial sums, the precision rule's, cut after the
      // search's opts; a search over levels would trade only precision)
      {OptOp::SPLIT, AxisType::GROUP_REDUCE, {16, 32, 64, 128, 256}, {false}},
      {OptOp::PADTO, AxisType::LOOP, {8, 16, 32}, {false}},
      {OptOp::SWAP, AxisType::LOOP, {}, {false}},
      {OptOp::NOLOCALS, AxisType::LOOP, {}, {false}},
  };
  return rows;
}

std::vector<Opt> row_opts(const ActionRow& row, int64_t naxes) {
  std::vector<Opt> out;
  switch (row.op) {
    case OptOp::SPLIT:
      for (int64_t a = 0; a < naxes; a++)
        for (int64_t k : row.args)
          for (bool top : row.tops) out.push_back(Opt::split(a, k, row.target, top));
      break;
    case OptOp::PADTO:
      for (int64_t a = 0; a < naxes; a++)
        for (int64_t m : row.args) out.push_back(Opt{OptOp::PADTO, a, m});
      break;
    case OptOp::SWAP:
      for (int64_t a = 0; a < naxes; a++)
        for (int64_t b = a + 1; b < naxes; b++) out.push_back(Opt::swap(a, b));
      break;
    default: out.push_back(Opt{row.op}); break;
  }
  return out;
}

}  // namespace

std::vector<Opt> opt_actions(const UOpRef& sink, const Capabilities* target) {
  if (runs_in_order(sink)) return {};  // its loops stay whole and in order: nothing to choose
  int64_t naxes = int64_t(kernel_axes(sink).size());
  std::vector<Opt> out;
  std::unordered_set<const UOp*> made{sink.get()};  // interned nodes: one pointer per kernel
  std::vector<UOpRef> alive;  // a freed kernel's address can be reused by the next one: keep them until the end
  for (const ActionRow& row : action_table()) {
    if (row.target == AxisType::GROUP_REDUCE && (!target || target->local_memory_bytes <= 0)) continue;
    for (const Opt& o : row_opts(row, naxes)) {
      try {
        UOpRef k = apply_opt(sink, o, false, target);
        if (made.insert(k.get()).second) out.push_back(o);
        alive.push_back(std::move(k));
      } catch (const OptError&) {
        // not legal here (a factor that does not divide, a target the backend lacks): not a move
      }
    }
  }
  return out;
}

namespace {

// A cursor over opts_text's output; every mismatch is an OptError quoting the whole text.
struct OptsParser {
  std::string_view text;
  size_t pos = 0;

  [[noreturn]] void fail(const std::string& why) const {
    throw OptError("cannot read opts '" + std::string(text) + "' at column " + std::to_string(pos + 1) + ": " + why);
  }
  void skip_spaces() {
    while (pos < text.size() && text[pos] == ' ') pos++;
  }
  bool eat(char c) {
    skip_spaces();
    if (pos < text.size() && text[pos] == c) {
      pos++;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  std::string word() {
    skip_spaces();
    size_t start = pos;
    while (pos < text.size() && (std::isalnum(static_cast<unsigned char>(text[pos])) || text[pos] == '_')) pos++;
    if (start == pos) fail("expected a name");
    return std::string(text.substr(start, pos - start));
  }
  int64_t number() {
    std::string w = word();
    for (char c : w)
      if (!std::isdigit(static_cast<unsigned char>(c))) fail("expected a number, got '" + w + "'");
    return std::stoll(w);
  }
  Opt opt() {
    std::string name = word();
    std::optional<OptOp> op = parse_opt_op(name);
    if (!op) fail("unknown opt '" + name + "'");
    Opt o{*op};
    if (*op == OptOp::NOLOCALS || *op == OptOp::TC) return o;
    expect('(');
    o.axis = number();
    expect(',');
    o.arg = number();
    if (*op == OptOp::SPLIT) {
      expect(',');
      std::string t = word();
      std::optional<AxisType> target = parse_axis_type(t);
      if (!target) fail("unknown axis type '" + t + "'");
      o.target = *target;
      if (eat(',')) {
        if (word() != "top") fail("expected 'top'");
        o.top = true;
      }
    }
    expect(')');
    return o;
  }
};

}  // namespace

std::vector<Opt> parse_opts(std::string_view text) {
  OptsParser p{text};
  std::vector<Opt> out;
  p.expect('[');
  if (!p.eat(']')) {
    do out.push_back(p.opt());
    while (p.eat(','));
    p.expect(']');
  }
  p.skip_spaces();
  if (p.pos != text.size()) p.fail("unexpected text after ']'");
  return out;
}

}  // namespace onegrad
