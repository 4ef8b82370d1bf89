// urdfdom (and through it tinyxml and console_bridge) is opened on the first URDF read, not
// linked: a run that reads no URDF (`rmodel --version`, `help`, `log-info`) does not load
// three libraries and run tinyxml's static initialisers (docs/design.md, "Start-up"). The
// three functions librmodel calls are defined here, hidden, and forward to the real ones as
// base/lazy_kdl.cpp's do (see there).
//
// Compiled on its own (not in a unity batch), and only into the shared library.

#include <atomic>
#include <string>

#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include "base/lazy_library.hpp"

namespace {

rmodel::detail::LazyLibrary urdfdom_library(RMODEL_URDFDOM_SONAME, "read URDF files");
rmodel::detail::LazyLibrary console_bridge_library(RMODEL_CONSOLE_BRIDGE_SONAME, "read URDF files");

}  // namespace

RMODEL_FORWARD_CXX(urdfdom_library, parse_urdf,
                   "_ZN4urdf9parseURDFERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
                   urdf::ModelInterfaceSharedPtr, (const std::string& text), (text))
RMODEL_FORWARD_CXX(console_bridge_library, get_output_handler, "_ZN14console_bridge16getOutputHandlerEv",
                   console_bridge::OutputHandler*, (), ())
RMODEL_FORWARD_CXX(console_bridge_library, use_output_handler,
                   "_ZN14console_bridge16useOutputHandlerEPNS_13OutputHandlerE", void,
                   (console_bridge::OutputHandler * handler), (handler))
