// tinyxml2 is opened on first use, not linked, as KDL is (base/lazy_kdl.cpp): a run that reads
// no XML (`rmodel --version`, `help`, replaying a log) does not load it (docs/design.md,
// "Start-up"). librmodel calls the 14 functions below, constructors, a destructor and const
// members, and no data of tinyxml2 (no vtable, no typeinfo: rmodel derives from none of its
// classes). Each is defined here under its mangled name, hidden, and forwards to tinyxml2's
// own, looked up in libtinyxml2 opened on the first call (base/lazy_library.hpp). A new call
// without a forwarder here fails the library's link (-z defs).
//
// Compiled on its own (not in a unity batch), and only into the shared library: the static
// library of the sanitizer build links tinyxml2.

#include <atomic>
#include <cstddef>

#include <tinyxml2.h>

#include "base/lazy_library.hpp"

namespace {

rmodel::detail::LazyLibrary tinyxml2_library(RMODEL_TINYXML2_SONAME, "read XML files");

}  // namespace

// RMODEL_FORWARD_XML(id, "mangled name", result, (parameters), (arguments))
#define RMODEL_FORWARD_XML(id, mangled, result, params, args) \
  RMODEL_FORWARD_CXX(tinyxml2_library, tinyxml2_##id, mangled, result, params, args)

using namespace tinyxml2;

// Documents
RMODEL_FORWARD_XML(document_new, "_ZN8tinyxml211XMLDocumentC1EbNS_10WhitespaceE", void,
                   (XMLDocument * self, bool process_entities, Whitespace whitespace),
                   (self, process_entities, whitespace))
RMODEL_FORWARD_XML(document_delete, "_ZN8tinyxml211XMLDocumentD1Ev", void, (XMLDocument * self), (self))
RMODEL_FORWARD_XML(document_parse, "_ZN8tinyxml211XMLDocument5ParseEPKcm", XMLError,
                   (XMLDocument * self, const char* text, std::size_t size), (self, text, size))
RMODEL_FORWARD_XML(document_error_str, "_ZNK8tinyxml211XMLDocument8ErrorStrEv", const char*,
                   (const XMLDocument* self), (self))
RMODEL_FORWARD_XML(document_error_name, "_ZNK8tinyxml211XMLDocument9ErrorNameEv", const char*,
                   (const XMLDocument* self), (self))

// Nodes and elements
RMODEL_FORWARD_XML(node_value, "_ZNK8tinyxml27XMLNode5ValueEv", const char*, (const XMLNode* self), (self))
RMODEL_FORWARD_XML(node_first_child_element, "_ZNK8tinyxml27XMLNode17FirstChildElementEPKc", const XMLElement*,
                   (const XMLNode* self, const char* name), (self, name))
RMODEL_FORWARD_XML(node_next_sibling_element, "_ZNK8tinyxml27XMLNode18NextSiblingElementEPKc", const XMLElement*,
                   (const XMLNode* self, const char* name), (self, name))
RMODEL_FORWARD_XML(element_attribute, "_ZNK8tinyxml210XMLElement9AttributeEPKcS2_", const char*,
                   (const XMLElement* self, const char* name, const char* value), (self, name, value))
RMODEL_FORWARD_XML(element_find_attribute, "_ZNK8tinyxml210XMLElement13FindAttributeEPKc", const XMLAttribute*,
                   (const XMLElement* self, const char* name), (self, name))
RMODEL_FORWARD_XML(element_get_text, "_ZNK8tinyxml210XMLElement7GetTextEv", const char*, (const XMLElement* self),
                   (self))

// Attributes
RMODEL_FORWARD_XML(attribute_name, "_ZNK8tinyxml212XMLAttribute4NameEv", const char*, (const XMLAttribute* self),
                   (self))
RMODEL_FORWARD_XML(attribute_value, "_ZNK8tinyxml212XMLAttribute5ValueEv", const char*,
                   (const XMLAttribute* self), (self))
RMODEL_FORWARD_XML(attribute_query_double, "_ZNK8tinyxml212XMLAttribute16QueryDoubleValueEPd", XMLError,
                   (const XMLAttribute* self, double* value), (self, value))
