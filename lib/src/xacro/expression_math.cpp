// xacro's expressions: the math module (Python 3.11's, as CPython computes and checks it).
#include "xacro/expression.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <numbers>
#include <numeric>

#include "xacro/expression_internal.hpp"

namespace rmodel::xacro::expr {

Value Evaluator::math_checked(double r, std::initializer_list<double> inputs, bool pole) {
  bool any_nan = false, all_finite = true;
  for (const double x : inputs) {
    any_nan = any_nan || std::isnan(x);
    all_finite = all_finite && std::isfinite(x);
  }
  if (std::isnan(r) && !any_nan) fail("math domain error");
  if (std::isinf(r) && all_finite) fail(pole ? "math domain error" : "math range error");
  return Value::real(r);
}

double Evaluator::exact_sum(const List& items) {
  std::vector<double> partials;
  double special = 0.0;  // an infinity or NaN seen
  bool has_special = false;
  for (const Value& item : items) {
    double x = number(item, "fsum");
    if (!std::isfinite(x)) {
      special = has_special ? special + x : x;
      has_special = true;
      continue;
    }
    std::size_t used = 0;
    for (double y : partials) {
      if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
      const double hi = x + y;
      const double lo = y - (hi - x);
      if (lo != 0.0) partials[used++] = lo;
      x = hi;
    }
    if (!std::isfinite(x)) fail("intermediate overflow in fsum");
    partials.resize(used);
    partials.push_back(x);
  }
  if (has_special) {
    if (std::isnan(special)) {
      for (const Value& item : items)
        if (std::isinf(item.as_double())) fail("-inf + inf in fsum");
    }
    return special;
  }
  double hi = 0.0;
  if (!partials.empty()) {
    std::size_t n = partials.size();
    hi = partials[--n];
    double lo = 0.0;
    while (n > 0) {
      const double x = hi;
      const double y = partials[--n];
      hi = x + y;
      const double yr = hi - x;
      lo = y - yr;
      if (lo != 0.0) break;
    }
    if (n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0))) {
      const double y = lo * 2.0;
      const double x = hi + y;
      const double yr = x - hi;
      if (y == yr) hi = x;
    }
  }
  return hi;
}

// math.NAME of one or two numbers: sin, cos, ..., log (with its base), pow, hypot, dist.
std::optional<Value> Evaluator::math_function(Builtin f, List& args) {
  using B = Builtin;
  auto unary = [&](const char* name, double (*fn)(double), bool pole = false) {
    arity(args, 1, 1, name);
    const double x = number(args[0], name);
    return math_checked(fn(x), {x}, pole);
  };
  auto binary_math = [&](const char* name, double (*fn)(double, double), bool pole = false) {
    arity(args, 2, 2, name);
    const double x = number(args[0], name), y = number(args[1], name);
    return math_checked(fn(x, y), {x, y}, pole);
  };
  switch (f) {
    case B::sin: return unary("sin", [](double x) { return std::sin(x); });
    case B::cos: return unary("cos", [](double x) { return std::cos(x); });
    case B::tan: return unary("tan", [](double x) { return std::tan(x); });
    case B::asin: return unary("asin", [](double x) { return std::asin(x); });
    case B::acos: return unary("acos", [](double x) { return std::acos(x); });
    case B::atan: return unary("atan", [](double x) { return std::atan(x); });
    case B::sinh: return unary("sinh", [](double x) { return std::sinh(x); });
    case B::cosh: return unary("cosh", [](double x) { return std::cosh(x); });
    case B::tanh: return unary("tanh", [](double x) { return std::tanh(x); });
    case B::asinh: return unary("asinh", [](double x) { return std::asinh(x); });
    case B::acosh: return unary("acosh", [](double x) { return std::acosh(x); });
    case B::atanh: return unary("atanh", [](double x) { return std::atanh(x); }, true);
    case B::sqrt: return unary("sqrt", [](double x) { return std::sqrt(x); });
    case B::cbrt: return unary("cbrt", [](double x) { return std::cbrt(x); });
    case B::exp: return unary("exp", [](double x) { return std::exp(x); });
    case B::exp2: return unary("exp2", [](double x) { return std::exp2(x); });
    case B::expm1: return unary("expm1", [](double x) { return std::expm1(x); });
    case B::log1p: return unary("log1p", [](double x) { return std::log1p(x); }, true);
    case B::log10: return unary("log10", [](double x) { return std::log10(x); }, true);
    case B::log2: return unary("log2", [](double x) { return std::log2(x); }, true);
    case B::erf: return unary("erf", [](double x) { return std::erf(x); });
    case B::erfc: return unary("erfc", [](double x) { return std::erfc(x); });
    case B::gamma:
    case B::lgamma: {
      const char* name = f == B::gamma ? "gamma" : "lgamma";
      arity(args, 1, 1, name);
      const double x = number(args[0], name);
      if (x <= 0 && x == std::floor(x)) fail("math domain error");  // a pole
      return math_checked(f == B::gamma ? std::tgamma(x) : std::lgamma(x), {x});
    }
    case B::radians: return unary("radians", [](double x) { return x * (std::numbers::pi / 180.0); });
    case B::degrees: return unary("degrees", [](double x) { return x * (180.0 / std::numbers::pi); });
    case B::fabs: return unary("fabs", [](double x) { return std::fabs(x); });
    case B::floor:
    case B::ceil:
    case B::trunc: {
      const char* name = f == B::floor ? "floor" : f == B::ceil ? "ceil" : "trunc";
      arity(args, 1, 1, name);
      if (is_intlike(args[0])) return Value::integer(as_int(args[0]));
      const double x = number(args[0], name);
      return to_integer(f == B::floor ? std::floor(x) : f == B::ceil ? std::ceil(x) : std::trunc(x), name);
    }
    case B::pow: {
      arity(args, 2, 2, "pow");
      const double x = number(args[0], "pow"), y = number(args[1], "pow");
      if (x == 0 && y < 0) fail("math domain error");
      if (x < 0 && std::isfinite(x) && std::isfinite(y) && y != std::floor(y)) fail("math domain error");
      return math_checked(std::pow(x, y), {x, y});
    }
    case B::atan2: return binary_math("atan2", [](double x, double y) { return std::atan2(x, y); });
    case B::copysign: return binary_math("copysign", [](double x, double y) { return std::copysign(x, y); });
    case B::nextafter: return binary_math("nextafter", [](double x, double y) { return std::nextafter(x, y); });
    case B::fmod: {
      arity(args, 2, 2, "fmod");
      const double x = number(args[0], "fmod"), y = number(args[1], "fmod");
      if (std::isinf(y) && std::isfinite(x)) return Value::real(x);
      return math_checked(std::fmod(x, y), {x, y});
    }
    case B::remainder: return binary_math("remainder", [](double x, double y) { return std::remainder(x, y); });
    case B::hypot: {
      double r = 0;
      std::vector<double> xs;
      for (const Value& v : args) xs.push_back(number(v, "hypot"));
      bool any_inf = false;
      for (const double x : xs) any_inf = any_inf || std::isinf(x);
      if (any_inf) return Value::real(HUGE_VAL);
      for (const double x : xs) r = std::hypot(r, x);
      bool any_nan = false;
      for (const double x : xs) any_nan = any_nan || std::isnan(x);
      if (std::isinf(r) && !any_nan) fail("math range error");
      return Value::real(r);
    }
    case B::dist: {
      arity(args, 2, 2, "dist");
      const List p = iterate(args[0], "dist"), q = iterate(args[1], "dist");
      if (p.size() != q.size()) fail("both points must have the same number of dimensions");
      List d;
      for (std::size_t k = 0; k < p.size(); ++k) d.push_back(Value::real(number(p[k], "dist") - number(q[k], "dist")));
      Keywords none;
      return builtin(B::hypot, d, none);
    }
    case B::log: {
      arity(args, 1, 2, "log");
      const double x = number(args[0], "log");
      if (x <= 0) fail("math domain error");
      if (args.size() == 1) return math_checked(std::log(x), {x}, true);
      const double base = number(args[1], "log");
      if (base <= 0) fail("math domain error");
      if (base == 1) fail("float division by zero");
      return Value::real(std::log(x) / std::log(base));
    }
    default: return std::nullopt;
  }
}

// math.NAME that classify or take apart a float: isnan, isinf, isfinite, isclose, frexp, modf, ldexp, ulp.
std::optional<Value> Evaluator::float_function(Builtin f, List& args, Keywords& keywords) {
  using B = Builtin;
  switch (f) {
    case B::isnan:
    case B::isinf:
    case B::isfinite: {
      arity(args, 1, 1, "isnan");
      const double x = number(args[0], "isnan");
      return Value::boolean(f == B::isnan ? std::isnan(x) : f == B::isinf ? std::isinf(x) : std::isfinite(x));
    }
    case B::isclose: {
      arity(args, 2, 2, "isclose");
      const double rel = take(keywords, "rel_tol").value_or(Value::real(1e-9)).as_double();
      const double abs_tol = take(keywords, "abs_tol").value_or(Value::real(0.0)).as_double();
      no_keywords(keywords, "isclose");
      if (rel < 0 || abs_tol < 0) fail("tolerances must be non-negative");
      const double a = number(args[0], "isclose"), b = number(args[1], "isclose");
      if (a == b) return Value::boolean(true);
      if (std::isinf(a) || std::isinf(b)) return Value::boolean(false);
      const double diff = std::fabs(b - a);
      return Value::boolean((diff <= std::fabs(rel * b)) || (diff <= std::fabs(rel * a)) || diff <= abs_tol);
    }
    case B::frexp: {
      arity(args, 1, 1, "frexp");
      const double x = number(args[0], "frexp");
      if (!std::isfinite(x) || x == 0) return Value::list({Value::real(x), Value::integer(0)}, true);
      int e = 0;
      const double m = std::frexp(x, &e);
      return Value::list({Value::real(m), Value::integer(e)}, true);
    }
    case B::modf: {
      arity(args, 1, 1, "modf");
      const double x = number(args[0], "modf");
      if (std::isinf(x)) return Value::list({Value::real(std::copysign(0.0, x)), Value::real(x)}, true);
      double whole = 0;
      const double frac = std::modf(x, &whole);
      return Value::list({Value::real(frac), Value::real(whole)}, true);
    }
    case B::ldexp: {
      arity(args, 2, 2, "ldexp");
      const double x = number(args[0], "ldexp");
      const std::int64_t e = integer_argument(args[1], "ldexp");
      const double r = std::ldexp(x, static_cast<int>(std::clamp<std::int64_t>(e, -100000, 100000)));
      return math_checked(r, {x});
    }
    case B::ulp: {
      arity(args, 1, 1, "ulp");
      const double x = std::fabs(number(args[0], "ulp"));
      if (!std::isfinite(x)) return Value::real(x);
      const double next = std::nextafter(x, HUGE_VAL);
      if (std::isinf(next)) return Value::real(x - std::nextafter(x, -HUGE_VAL));
      return Value::real(next - x);
    }
    default: return std::nullopt;
  }
}

// math.NAME over sequences and integers: fsum, prod, factorial, comb, perm, gcd, lcm, isqrt.
std::optional<Value> Evaluator::integer_function(Builtin f, List& args, Keywords& keywords) {
  using B = Builtin;
  using K = Value::Kind;
  switch (f) {
    case B::fsum: {
      arity(args, 1, 1, "fsum");
      return Value::real(exact_sum(iterate(args[0], "fsum")));
    }
    case B::prod: {
      arity(args, 1, 1, "prod");
      Value total = take(keywords, "start").value_or(Value::integer(1));
      no_keywords(keywords, "prod");
      for (const Value& x : iterate(args[0], "prod")) total = binary("*", total, x);
      return total;
    }
    case B::factorial: {
      arity(args, 1, 1, "factorial");
      const std::int64_t n = integer_argument(args[0], "factorial");
      if (n < 0) fail("factorial() not defined for negative values");
      std::int64_t r = 1;
      for (std::int64_t k = 2; k <= n; ++k) r = checked_mul(r, k);
      return Value::integer(r);
    }
    case B::comb:
    case B::perm: {
      const char* name = f == B::comb ? "comb" : "perm";
      arity(args, f == B::comb ? 2 : 1, 2, name);
      if (f == B::perm) no_keywords(keywords, name);
      const std::int64_t n = integer_argument(args[0], name);
      const bool all = args.size() == 1 || args[1].kind == K::none;
      const std::int64_t k = all ? n : integer_argument(args[1], name);
      if (n < 0) fail("n must be a non-negative integer");
      if (k < 0) fail("k must be a non-negative integer");
      if (k > n) return Value::integer(0);
      std::int64_t r = 1;
      if (f == B::perm) {
        for (std::int64_t j = 0; j < k; ++j) r = checked_mul(r, n - j);
      } else {
        const std::int64_t m = std::min(k, n - k);
        for (std::int64_t j = 1; j <= m; ++j) {
          // r * (n - m + j) / j stays exact: r is comb(n - m + j - 1, j - 1)
          const std::int64_t g = std::gcd(r, j);
          r = checked_mul(r / g, (n - m + j) / (j / g));
        }
      }
      return Value::integer(r);
    }
    case B::gcd:
    case B::lcm: {
      std::int64_t r = f == B::gcd ? 0 : 1;
      for (const Value& v : args) {
        const std::int64_t x = integer_argument(v, f == B::gcd ? "gcd" : "lcm");
        if (x == INT64_MIN) fail("integer overflow (xacro here computes with 64-bit integers)");
        if (f == B::gcd) {
          r = std::gcd(r, x);
        } else {
          if (x == 0 || r == 0) {
            r = 0;
            continue;
          }
          r = checked_mul(std::abs(r) / std::gcd(r, x), std::abs(x));
        }
      }
      return Value::integer(r);
    }
    case B::isqrt: {
      arity(args, 1, 1, "isqrt");
      const std::int64_t n = integer_argument(args[0], "isqrt");
      if (n < 0) fail("isqrt() argument must be nonnegative");
      auto r = static_cast<std::int64_t>(std::sqrt(static_cast<double>(n)));
      while (r > 0 && r > n / r) --r;
      while ((r + 1) <= n / (r + 1)) ++r;
      return Value::integer(r);
    }
    default: return std::nullopt;
  }
}

}  // namespace rmodel::xacro::expr
