// Random text mutations of TVMScript programs for the fuzzers (parser_fuzz_test, suite_fuzz_test):
// deleted, inserted and duplicated text, swapped lines, changed indentation, stray characters,
// and integer literals replaced by edge values.
#pragma once
#include <cctype>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace onegrad::tir::testing {

const char* const kFragments[] = {
    "(", ")", "[", "]", "{", "}", ":", ",", ".", "=", "+=", "+", "-", "*", "/", "//", "%", "<", "==", " and ",
    " not ", " if ", " else ", "\n", "\n    ", "    ", "\t", "0", "1", "-1", "2.5", "1e400", "99999999999999999999",
    "\"", "'", "\"\"\"", "#", "\\\n", "A", "i", "n", "T.", "T.int64(", "T.float32(", "T.Buffer((", "T.block(\"b\")",
    "T.axis.remap(\"SR\", [", "T.init()", "T.grid(", "range(", "T.Ramp(", "T.Broadcast(", "T.Shuffle([", "[()]",
    "T.allocate([", "T.decl_buffer(", "T.match_buffer(", "T.alloc_buffer(", "with ", "for ", "while ", "assert ",
    "return ", "break", "as ", "lambda", "@T.prim_func\n", "def ", "class ", "None", "True", "0:4", "::", "$",
};

inline std::string mutate(const std::string& text, std::mt19937_64& rng) {
  std::string s = text;
  int edits = 1 + static_cast<int>(rng() % 3);
  for (int e = 0; e < edits && !s.empty(); ++e) {
    size_t at = rng() % s.size();
    switch (rng() % 6) {
      case 0: s.erase(at, 1 + rng() % 8); break;
      case 1: s.insert(at, kFragments[rng() % std::size(kFragments)]); break;
      case 2: {  // duplicate a span
        size_t len = 1 + rng() % 40;
        s.insert(at, s.substr(at, len));
        break;
      }
      case 3: {  // swap two lines
        std::vector<std::string> lines;
        size_t start = 0;
        for (size_t p; (p = s.find('\n', start)) != std::string::npos; start = p + 1) lines.push_back(s.substr(start, p - start));
        lines.push_back(s.substr(start));
        if (lines.size() > 2) std::swap(lines[rng() % lines.size()], lines[rng() % lines.size()]);
        s.clear();
        for (size_t i = 0; i < lines.size(); ++i) s += lines[i] + (i + 1 < lines.size() ? "\n" : "");
        break;
      }
      case 4: {  // change the indentation of a line
        size_t line = s.rfind('\n', at);
        line = line == std::string::npos ? 0 : line + 1;
        if (rng() % 2) s.insert(line, "    ");
        else if (s.compare(line, 4, "    ") == 0) s.erase(line, 4);
        break;
      }
      default: s[at] = static_cast<char>(rng() % 128); break;
    }
  }
  return s;
}

// `text` with one integer literal (a run of digits not inside a name) replaced by an edge value:
// zero, negatives, the int32 limits, powers of two. Programs stay parseable more often than under
// mutate(), so the checkers and the interpreter see more mutants.
inline std::string mutate_literal(const std::string& text, std::mt19937_64& rng) {
  static const char* const kValues[] = {"0", "1", "-1", "2", "3", "7", "-8", "255", "256", "65536", "2147483647",
                                        "-2147483648", "100000"};
  std::vector<std::pair<size_t, size_t>> literals;
  for (size_t i = 0; i < text.size();) {
    if (std::isdigit(static_cast<unsigned char>(text[i])) &&
        (i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_' || text[i - 1] == '.'))) {
      size_t j = i;
      while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
      literals.emplace_back(i, j - i);
      i = j;
    } else {
      ++i;
    }
  }
  if (literals.empty()) return text;
  auto [at, len] = literals[rng() % literals.size()];
  return text.substr(0, at) + kValues[rng() % std::size(kValues)] + text.substr(at + len);
}

}  // namespace onegrad::tir::testing
