// nlohmann_json as a JSON message parser: for cross-checking the native parser and for the
// parser comparison in tests/bench/bench_io.cpp. Test and benchmark code, not part of
// librmodel (see json_parsers.hpp).

#include <cstdint>
#include <limits>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "io/read/builder.hpp"
#include "io/read/parsers.hpp"

namespace rmodel::io::detail {
namespace {

using json = nlohmann::json;

class NlohmannParser final : public JsonMessageParser {
public:
  ParseStatus parse(std::string_view text, std::size_t /*capacity*/, MessageBuilder& b,
                    ParseFailure& failure) override {
    failure_ = &failure;
    json j;
    try {
      j = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
      failure.offset = e.byte > 0 ? e.byte - 1 : 0;
      failure.reason = fmt::format("invalid JSON: {}", e.what());
      return ParseStatus::Error;
    } catch (const json::exception& e) {
      failure.offset = 0;
      failure.reason = fmt::format("invalid JSON: {}", e.what());
      return ParseStatus::Error;
    }
    if (j.is_array()) return ParseStatus::Document;
    if (!j.is_object()) return fail("expected a JSON object");
    for (const auto& [key, v] : j.items()) {
      switch (classify_key(key)) {
        case Key::Name:
          if (!strings(v, b.begin_names(), "name")) return ParseStatus::Error;
          break;
        case Key::Contact:
          if (!strings(v, b.begin_contacts(), "contact")) return ParseStatus::Error;
          break;
        case Key::Position:
        case Key::Velocity:
        case Key::Effort:
        case Key::Support:
          if (!numbers(v, b.begin_numbers(classify_key(key)), key)) return ParseStatus::Error;
          break;
        case Key::T:
          if (v.is_null()) {
            b.set_t_null();
          } else if (v.is_number()) {
            // The DOM keeps only the double: the nearest nanosecond (exact below 104 days).
            const auto ns = time_from_seconds(v.get<double>());
            if (!ns) return fail("'t': beyond the range of times");
            b.set_t(*ns);
          } else {
            return fail("'t': expected a number");
          }
          break;
        case Key::Cycle: {
          std::int64_t c = 0;
          if (!integer(v, c, "cycle")) return ParseStatus::Error;
          b.set_cycle(c);
          break;
        }
        case Key::Sync:
          if (!v.is_boolean()) return fail("'sync': expected true");
          b.set_sync(v.get<bool>());
          break;
        case Key::Header:
          if (!v.is_object()) return fail("'header': expected an object");
          if (auto it = v.find("stamp"); it != v.end()) {
            if (!it->is_object()) return fail("'header.stamp': expected an object");
            for (const auto& [k, sv] : it->items()) {
              std::int64_t x = 0;
              switch (classify_stamp_key(k)) {
                case StampKey::Secs:
                  if (!integer(sv, x, "header.stamp.secs")) return ParseStatus::Error;
                  b.set_secs(x);
                  break;
                case StampKey::Nsecs:
                  if (!integer(sv, x, "header.stamp.nsecs")) return ParseStatus::Error;
                  b.set_nsecs(x);
                  break;
                case StampKey::Unknown: break;
              }
            }
          }
          break;
        case Key::Trajectory: return ParseStatus::Document;
        case Key::Unknown: break;
      }
    }
    if (const char* why = b.finish()) return fail(why);
    return ParseStatus::Ok;
  }

private:
  ParseFailure* failure_ = nullptr;

  ParseStatus fail(std::string reason) {
    failure_->offset = 0;
    failure_->reason = std::move(reason);
    return ParseStatus::Error;
  }
  bool strings(const json& v, StringListSink& sink, std::string_view key) {
    if (!v.is_array()) return fail(fmt::format("'{}': expected an array of strings", key)), false;
    std::size_t i = 0;
    for (const auto& s : v) {
      ++i;
      if (!s.is_string())
        return fail(fmt::format("'{}' element {}: expected a string", key, i)), false;
      sink.push(s.get_ref<const std::string&>());
    }
    return true;
  }
  bool numbers(const json& v, std::vector<double>& out, std::string_view key) {
    if (!v.is_array()) return fail(fmt::format("'{}': expected an array of numbers", key)), false;
    std::size_t i = 0;
    for (const auto& x : v) {
      ++i;
      if (x.is_null()) {
        out.push_back(std::numeric_limits<double>::quiet_NaN());
      } else if (x.is_number()) {
        out.push_back(x.get<double>());
      } else {
        return fail(fmt::format("'{}' element {}: expected a number", key, i)), false;
      }
    }
    return true;
  }
  bool integer(const json& v, std::int64_t& out, std::string_view key) {
    if (v.is_number_unsigned()) {
      const auto u = v.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return fail(fmt::format("'{}': integer out of range", key)), false;
      out = static_cast<std::int64_t>(u);
      return true;
    }
    if (v.is_number_integer()) {
      out = v.get<std::int64_t>();
      return true;
    }
    return fail(fmt::format("'{}': expected an integer", key)), false;
  }
};

}  // namespace
}  // namespace rmodel::io::detail

namespace rmodel::io::testing {
std::unique_ptr<detail::JsonMessageParser> make_nlohmann_parser() {
  return std::make_unique<detail::NlohmannParser>();
}
}  // namespace rmodel::io::testing
