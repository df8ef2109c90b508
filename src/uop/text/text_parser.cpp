// The graph parser: one node per line, `%name = OP dtype (srcs) arg tag=N`, each source defined on
// an earlier line. Nodes are rebuilt with their explicit dtype through UOp::create, so the result
// is the interned graph itself. A single forward pass with a name table: no recursion, linear time.
#include <unordered_map>

#include "uop/text/arg_text.h"
#include "uop/errors.h"
#include "uop/text/text.h"

namespace onegrad {

namespace {

using ValueTable = std::unordered_map<std::string_view, UOpRef>;

const UOpRef& read_ref(TextCursor& cur, const ValueTable& values) {
  cur.skip_blanks();
  size_t at = cur.pos();
  std::string_view name = cur.value_name();
  auto it = values.find(name);
  if (it == values.end()) cur.fail_at(at, "undefined value %" + std::string(name) + " (define it on an earlier line)");
  return it->second;
}

// A comma-separated list of %refs up to the end of the line (the roots line).
std::vector<UOpRef> read_roots(TextCursor& cur, const ValueTable& values) {
  std::vector<UOpRef> roots;
  do roots.push_back(read_ref(cur, values));
  while (cur.consume(','));
  cur.expect_line_end("the roots");
  return roots;
}

UOpRef read_node(TextCursor& cur, const ValueTable& values) {
  cur.skip_blanks();
  size_t at = cur.pos();
  std::string_view op_text = cur.identifier();
  std::optional<Ops> op = parse_op(op_text);
  if (!op) {
    if (op_text.empty()) cur.fail_expected("an op name");
    cur.fail_at(at, "unknown op '" + std::string(op_text) + "'");
  }
  DType dtype = cur.dtype_value();
  std::vector<UOpRef> src;
  if (cur.consume('(') && !cur.consume(')')) {
    do src.push_back(read_ref(cur, values));
    while (cur.consume(','));
    cur.expect(')', "closing the sources");
  }
  Arg arg = read_arg(cur, dtype);
  std::optional<int64_t> tag;
  if (cur.consume_word("tag")) {
    cur.expect('=', "after tag");
    tag = cur.int64_value("a tag");
  }
  cur.expect_line_end("the node");
  return UOp::create(*op, dtype, std::move(src), std::move(arg), tag);
}

}  // namespace

std::vector<UOpRef> parse_graphs(std::string_view text) {
  TextCursor cur(text);
  ValueTable values;
  UOpRef last;
  std::vector<UOpRef> roots;
  while (cur.skip_to_content()) {
    if (!roots.empty()) cur.fail_expected("nothing after the roots line");
    if (cur.consume_word("roots")) {
      roots = read_roots(cur, values);
      continue;
    }
    size_t at = cur.pos();
    std::string_view name = cur.value_name();
    if (values.contains(name)) cur.fail_at(at, "redefinition of %" + std::string(name));
    cur.expect('=', "after %" + std::string(name));
    last = read_node(cur, values);
    values.emplace(name, last);
  }
  if (!roots.empty()) return roots;
  if (!last) cur.fail_at(cur.pos(), "empty graph: expected a line like '%0 = CONST index 4'");
  return {last};
}

UOpRef parse_graph(std::string_view text) {
  std::vector<UOpRef> roots = parse_graphs(text);
  if (roots.size() != 1) {
    // Point at the roots line: the last non-blank content.
    TextCursor cur(text);
    size_t line_start = 0;
    while (cur.skip_to_content()) {
      line_start = cur.pos();
      while (!cur.at_line_end()) cur.reset(cur.pos() + 1);
      if (!cur.at_end()) cur.reset(cur.pos() + 1);
    }
    cur.fail_at(line_start, "expected one root, the text names " + std::to_string(roots.size()));
  }
  return roots[0];
}

}  // namespace onegrad
