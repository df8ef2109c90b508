// IterVarType names as TVM spells them (IterVarType2String), for T.iter_var in and out.
#pragma once
#include <optional>
#include <string_view>

#include "tir/ast/buffer.h"

namespace onegrad::tir {

std::string_view iter_var_type_name(IterVarType t);
std::optional<IterVarType> iter_var_type_from_name(std::string_view name);

}  // namespace onegrad::tir
