// The printed form of a rewrite trace.
#include "rewrite/graph_rewrite.h"

namespace onegrad {

std::string RewriteTrace::str() const {
  std::string out;
  for (const TraceEntry& e : entries) out += e.rule + ": " + e.before->brief() + " -> " + e.after->brief() + "\n";
  return out;
}

}  // namespace onegrad
