// MoveIt SRDF import. Until SRDF support lands, an SRDF is recognised and refused clearly.
#include "rmodel/error.hpp"
#include "rmodel/semantics.hpp"

namespace rmodel {

Semantics parse_srdf(std::string_view, const std::string& source_name) {
  throw ParseError({source_name, 0}, "SRDF semantics are not supported yet; use .cpf or rmodel JSON");
}

}  // namespace rmodel
