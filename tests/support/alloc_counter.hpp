#pragma once
// Counts heap allocations made by the current thread, to prove that hot paths allocate
// nothing. Include in exactly the test files that use it: the replacement operator new is
// defined in test_support.cpp and therefore active for the whole test executable.

#include <cstddef>

namespace rmodel::test {

/// Number of operator new calls on this thread since the program started.
std::size_t allocation_count() noexcept;

/// Counts allocations between construction and count().
class AllocationCounter {
public:
  AllocationCounter() noexcept : start_(allocation_count()) {}
  [[nodiscard]] std::size_t count() const noexcept { return allocation_count() - start_; }

private:
  std::size_t start_;
};

}  // namespace rmodel::test
