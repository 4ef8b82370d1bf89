#pragma once
// Internal: sines and cosines of a batch of angles, for the per-pose loops.
//
// Why not libm: forward kinematics of a 7-joint chain spent most of its time in sincos
// (callgrind: about half of FK + Jacobian). Joint angles are small, so a short reduction
// by π/2 and two polynomials, inlined and free of branches on the data, do the same work
// in a fraction of the time, to within rounding (tests/unit/kinematics: against std::sin
// and std::cos over a wide range, a few ulp at most). Four angles go through each pass in
// the four lanes of a 256-bit vector (one AVX register in the AVX clone of the caller, see
// clones.hpp; two SSE2 or NEON registers otherwise: GCC's and clang's vector extensions,
// no intrinsics): the angles of a chain are independent, and one vector pass costs about
// what one scalar pass did. Angles beyond ±1e5 rad, and NaN or infinity, go to libm.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace rmodel::kinematics::detail {

/// sin and cos of one angle through libm, in one call where glibc offers it.
inline void libm_sin_cos(double x, double& s, double& c) noexcept {
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
  ::sincos(x, &s, &c);  // glibc's; GCC and clang both declare it in C++ (_GNU_SOURCE)
#else
  s = std::sin(x);
  c = std::cos(x);
#endif
}

/// Four angles per pass: one AVX register, or two SSE2 ones in the baseline build.
using Double4 = double __attribute__((vector_size(32)));
using Bits4 = std::uint64_t __attribute__((vector_size(32)));
inline constexpr std::size_t kSinCosLanes = 4;

/// sin x and cos x of every lane to within a few ulp, valid for |x| <= 1e5 (the caller
/// sends the other lanes to libm).
[[gnu::always_inline]] inline void sin_cos_lanes(const Double4& x, Double4& s, Double4& c) noexcept {
  // x = k·π/2 + r with |r| <= π/4. π/2 = P1 + P2 + P3 (Cody–Waite): P1 and P2 have 33
  // significant bits, so k·P1 and k·P2 are exact for |k| < 2^20 and the subtractions lose
  // nothing; P3 carries the rest to 2^-122.
  constexpr double two_over_pi = 0x1.45f306dc9c883p-1;
  constexpr double P1 = 0x1.921fb54400000p+0;
  constexpr double P2 = 0x1.0b4611a600000p-34;
  constexpr double P3 = 0x1.3198a2e037073p-69;
  // Round to nearest by adding and removing 1.5·2^52 (exact for |x·2/π| < 2^51), which
  // also leaves k's low bits in the sum's mantissa: no libm call, no conversion.
  constexpr double shifter = 0x1.8p52;
  const Double4 shifted = x * two_over_pi + shifter;
  const Double4 k = shifted - shifter;
  Bits4 quadrant;
  std::memcpy(&quadrant, &shifted, sizeof quadrant);
  const Double4 r = ((x - k * P1) - k * P2) - k * P3;
  const Double4 z = r * r;
  // Taylor series to r^17 and r^18: on |r| <= π/4 the first terms left out are below
  // 1e-19 (sin) and 4e-21 (cos), far under an ulp; Horner's rounding is what remains.
  constexpr double s3 = -1.0 / 6.0, s5 = 1.0 / 120.0, s7 = -1.0 / 5040.0, s9 = 1.0 / 362880.0,
                   s11 = -1.0 / 39916800.0, s13 = 1.0 / 6227020800.0, s15 = -1.0 / 1307674368000.0,
                   s17 = 1.0 / 355687428096000.0;
  constexpr double c4 = 1.0 / 24.0, c6 = -1.0 / 720.0, c8 = 1.0 / 40320.0, c10 = -1.0 / 3628800.0,
                   c12 = 1.0 / 479001600.0, c14 = -1.0 / 87178291200.0, c16 = 1.0 / 20922789888000.0,
                   c18 = -1.0 / 6402373705728000.0;
  const Double4 sp =
      r + r * z * (s3 + z * (s5 + z * (s7 + z * (s9 + z * (s11 + z * (s13 + z * (s15 + z * s17)))))));
  // 1 − z/2 + z²·(...): the small tail added last keeps cos accurate near |r| = π/4.
  const Double4 cp =
      (1.0 - 0.5 * z) + z * z * (c4 + z * (c6 + z * (c8 + z * (c10 + z * (c12 + z * (c14 + z * (c16 + z * c18)))))));
  // Quadrant k mod 4: odd swaps sine and cosine, 2 and 3 negate the sine, 1 and 2 the
  // cosine. Selected with bit masks: the quadrants of random poses are unpredictable.
  Bits4 sp_bits, cp_bits;
  std::memcpy(&sp_bits, &sp, sizeof sp_bits);
  std::memcpy(&cp_bits, &cp, sizeof cp_bits);
  const Bits4 odd = -(quadrant & 1U);  // all ones where k is odd
  const Bits4 s_bits = ((sp_bits & ~odd) | (cp_bits & odd)) ^ ((quadrant & 2U) << 62);
  const Bits4 c_bits = ((cp_bits & ~odd) | (sp_bits & odd)) ^ (((quadrant + 1U) & 2U) << 62);
  std::memcpy(&s, &s_bits, sizeof s);
  std::memcpy(&c, &c_bits, sizeof c);
}

/// s[i] = sin x[i], c[i] = cos x[i] for i < n rounded up to a multiple of kSinCosLanes (the
/// caller pads x), to within a few ulp of libm.
[[gnu::always_inline]] inline void sin_cos(const double* x, double* s, double* c, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; i += kSinCosLanes) {
    Double4 xs, sv, cv;
    std::memcpy(&xs, x + i, sizeof xs);
    sin_cos_lanes(xs, sv, cv);
    std::memcpy(s + i, &sv, sizeof sv);
    std::memcpy(c + i, &cv, sizeof cv);
    // Large, infinite and NaN angles: libm (its full reduction); rare, so predicted.
    // (The four tests summed, so that they are one straight sequence, not four branches.)
    const int in_range = int{std::abs(x[i]) <= 1e5} + int{std::abs(x[i + 1]) <= 1e5} +
                         int{std::abs(x[i + 2]) <= 1e5} + int{std::abs(x[i + 3]) <= 1e5};
    if (in_range != static_cast<int>(kSinCosLanes)) [[unlikely]] {
      for (std::size_t j = i; j < i + kSinCosLanes; ++j) libm_sin_cos(x[j], s[j], c[j]);
    }
  }
}

}  // namespace rmodel::kinematics::detail
