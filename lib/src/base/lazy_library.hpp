#pragma once
// Internal: a shared library opened on first use instead of linked. Every library linked to
// librmodel is loaded and relocated at every start of every program using it, `rmodel
// --version` included (docs/design.md, "Start-up"). A library needed by few runs is instead
// reached through forwarding functions: librmodel defines, hidden, each function it calls,
// and each forwards to the real one, looked up in the library opened on the first call.
// Used by io/ros/lazy_libraries.cpp (zstd, lz4, bzip2, SQLite), base/lazy_kdl.cpp (KDL),
// base/lazy_tinyxml2.cpp (tinyxml2) and base/yaml_tree.cpp (rmodel's yaml plugin).

#include <dlfcn.h>

#include <atomic>
#include <mutex>
#include <string>

#include "rmodel/base/error.hpp"

namespace rmodel::detail {

/// A shared library opened on the first lookup of one of its functions.
class LazyLibrary {
public:
  constexpr LazyLibrary(const char* soname, const char* purpose) : soname_(soname), purpose_(purpose) {}

  /// The address of `name`; throws rmodel::IoError when the library or the function is
  /// missing (a broken installation: the package depends on the library).
  void* lookup(const char* name) {
    // A mutex rather than std::call_once, whose thread-local state would make librmodel
    // depend on the dynamic loader's TLS functions. Taken once per forwarded function.
    const std::lock_guard lock(mutex_);
    if (!tried_) {
      // RTLD_LAZY: the library's own calls into libstdc++ and libc are bound when first
      // made, as for a linked library. RTLD_NOW bound all of them at the open: 116 for
      // tinyxml2, 0.1 M instructions of every run that reads a URDF, of which a parse makes
      // a dozen. The libraries opened here come with the package's Depends, which give them
      // what they call, so binding late only moves the work.
      handle_ = dlopen(soname_, RTLD_LAZY | RTLD_LOCAL);
      tried_ = true;
    }
    if (handle_ == nullptr)
      throw IoError(soname_, std::string("cannot load the library (needed to ") + purpose_ + ")");
    void* address = dlsym(handle_, name);
    if (address == nullptr) throw IoError(soname_, std::string("the library has no function ") + name);
    return address;
  }

private:
  const char* soname_;
  const char* purpose_;
  std::mutex mutex_;
  bool tried_ = false;
  void* handle_ = nullptr;
};

/// The function `name` of `library` as a pointer of type `Function*`, looked up on the first
/// call through `cache` (one cache per forwarding function).
template <typename Function>
Function* resolve_lazily(LazyLibrary& library, std::atomic<Function*>& cache, const char* name) {
  Function* f = cache.load(std::memory_order_acquire);
  if (f == nullptr) {
    f = reinterpret_cast<Function*>(library.lookup(name));
    cache.store(f, std::memory_order_release);
  }
  return f;
}

}  // namespace rmodel::detail

// RMODEL_FORWARD_CXX(library, id, "mangled name", result, (parameters), (arguments)) defines
// the C++ function of that mangled name, hidden, as rmodel_forward_<id>, forwarding to the
// function of the same name in `library`. For a member function or constructor the first
// parameter is the object (`this`), which is how the Itanium C++ ABI passes it; a class
// returned by value is returned the same way by both.
#define RMODEL_FORWARD_CXX(library, id, mangled, result, params, args)                   \
  __attribute__((visibility("hidden"))) result rmodel_forward_##id params __asm__(mangled); \
  result rmodel_forward_##id params {                                                      \
    static std::atomic<result(*) params> cache{nullptr};                                   \
    return rmodel::detail::resolve_lazily(library, cache, mangled) args;                   \
  }
