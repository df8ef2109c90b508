#include "tir/ast/iter_var_type.h"

namespace onegrad::tir {

namespace {

struct IterTypeName {
  std::string_view name;
  IterVarType type;
};
const IterTypeName kIterTypes[] = {
    {"DataPar", IterVarType::DataPar},       {"ThreadIndex", IterVarType::ThreadIndex},
    {"CommReduce", IterVarType::CommReduce}, {"Ordered", IterVarType::Ordered},
    {"Opaque", IterVarType::Opaque},         {"Unrolled", IterVarType::Unrolled},
    {"Vectorized", IterVarType::Vectorized}, {"Parallelized", IterVarType::Parallelized},
    {"Tensorized", IterVarType::Tensorized},
};

}  // namespace

std::string_view iter_var_type_name(IterVarType t) {
  for (const IterTypeName& n : kIterTypes)
    if (n.type == t) return n.name;
  return "Unknown";
}

std::optional<IterVarType> iter_var_type_from_name(std::string_view name) {
  for (const IterTypeName& n : kIterTypes)
    if (n.name == name) return n.type;
  return std::nullopt;
}

}  // namespace onegrad::tir
