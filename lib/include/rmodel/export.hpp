#pragma once
/// @file
/// RMODEL_API marks what librmodel exports. The library is built with hidden visibility
/// (-fvisibility=hidden -fvisibility-inlines-hidden), so only the declarations of the public
/// API carry this macro; the internals and the dependencies compiled into it (fmt, tinyxml2,
/// urdfdom, nlohmann_json, template instantiations) stay out of the dynamic symbol table.
/// On a class it exports the class's out-of-line members, vtable and typeinfo (needed to
/// catch rmodel's exceptions in another module).

#if defined(__GNUC__) || defined(__clang__)
#define RMODEL_API __attribute__((visibility("default")))
#else
#define RMODEL_API
#endif
