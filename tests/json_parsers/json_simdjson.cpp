// simdjson (On Demand and DOM, one parser reused across messages) as JSON message parsers:
// for cross-checking the native parser and for the parser comparison in
// tests/bench/bench_io.cpp. Test and benchmark code, not part of librmodel (see
// json_parsers.hpp). Compiled to nothing without simdjson.

#include "io/read/builder.hpp"
#include "io/read/parsers.hpp"

#ifdef RMODEL_HAVE_SIMDJSON

#include <cstdint>
#include <limits>
#include <string>

#include <fmt/format.h>
#include <simdjson.h>

namespace rmodel::io::detail {
namespace {

namespace od = simdjson::ondemand;
namespace dom = simdjson::dom;
using simdjson::error_code;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

static_assert(kPadding >= simdjson::SIMDJSON_PADDING, "readers must pad for simdjson");

class OndemandParser final : public JsonMessageParser {
public:
  ParseStatus parse(std::string_view text, std::size_t capacity, MessageBuilder& b,
                    ParseFailure& failure) override {
    failure_ = &failure;
    od::document doc;
    if (auto e = parser_.iterate(text.data(), text.size(), capacity).get(doc)) return fail(e, "");
    od::json_type type;
    if (auto e = doc.type().get(type)) return fail(e, "");
    if (type == od::json_type::array) return ParseStatus::Document;
    if (type != od::json_type::object) return fail("expected a JSON object");
    od::object obj;
    if (auto e = doc.get_object().get(obj)) return fail(e, "");
    for (auto field : obj) {
      std::string_view key;
      if (auto e = field.unescaped_key().get(key)) return fail(e, "");
      od::value v;
      if (auto e = field.value().get(v)) return fail(e, key);
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
        case Key::Support: {
          const Key k = classify_key(key);
          if (!numbers(v, b.begin_numbers(k), key)) return ParseStatus::Error;
          break;
        }
        case Key::T: {
          // The number's own text, read exactly as the native parser does.
          bool is_null = false;
          if (v.is_null().get(is_null) == simdjson::SUCCESS && is_null) {
            b.set_t_null();
            break;
          }
          std::string_view text = v.raw_json_token();
          double check = 0;
          if (auto e = v.get_double().get(check)) return fail(e, "t");
          while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' ||
                                   text.back() == '\t' || text.back() == ',' || text.back() == '}'))
            text.remove_suffix(1);
          Time t;
          if (parse_time(text, t) != TimeParseStatus::ok) return fail(simdjson::NUMBER_ERROR, "t");
          b.set_t(t);
          break;
        }
        case Key::Cycle: {
          std::int64_t c = 0;
          if (auto e = v.get_int64().get(c)) return fail(e, "cycle");
          b.set_cycle(c);
          break;
        }
        case Key::Sync: {
          bool s = false;
          if (auto e = v.get_bool().get(s)) return fail(e, "sync");
          b.set_sync(s);
          break;
        }
        case Key::Header: {
          od::object h;
          if (auto e = v.get_object().get(h)) return fail(e, "header");
          for (auto hf : h) {
            std::string_view hk;
            if (auto e = hf.unescaped_key().get(hk)) return fail(e, "header");
            if (hk != "stamp") continue;
            od::object st;
            if (auto e = hf.value().get_object().get(st)) return fail(e, "header.stamp");
            for (auto sf : st) {
              std::string_view sk;
              if (auto e = sf.unescaped_key().get(sk)) return fail(e, "header.stamp");
              std::int64_t x = 0;
              switch (classify_stamp_key(sk)) {
                case StampKey::Secs:
                  if (auto e = sf.value().get_int64().get(x)) return fail(e, "header.stamp.secs");
                  b.set_secs(x);
                  break;
                case StampKey::Nsecs:
                  if (auto e = sf.value().get_int64().get(x)) return fail(e, "header.stamp.nsecs");
                  b.set_nsecs(x);
                  break;
                case StampKey::Unknown: break;
              }
            }
          }
          break;
        }
        case Key::Trajectory: return ParseStatus::Document;
        case Key::Unknown: break;
      }
    }
    // Anything after the object is an error.
    const char* loc = nullptr;
    if (doc.current_location().get(loc) == simdjson::SUCCESS)
      return fail("unexpected text after the message");
    if (const char* why = b.finish()) return fail(why);
    return ParseStatus::Ok;
  }

private:
  od::parser parser_;
  ParseFailure* failure_ = nullptr;

  ParseStatus fail(std::string reason) {
    failure_->offset = 0;
    failure_->reason = std::move(reason);
    return ParseStatus::Error;
  }
  ParseStatus fail(error_code e, std::string_view key) {
    failure_->offset = 0;
    failure_->reason = key.empty() ? std::string(simdjson::error_message(e))
                                   : fmt::format("'{}': {}", key, simdjson::error_message(e));
    return ParseStatus::Error;
  }
  bool number(od::value& v, double& out, std::string_view key) {
    bool is_null = false;
    if (v.is_null().get(is_null) == simdjson::SUCCESS && is_null) {
      out = kNaN;
      return true;
    }
    if (auto e = v.get_double().get(out)) return fail(e, key), false;
    return true;
  }
  bool numbers(od::value& v, std::vector<double>& out, std::string_view key) {
    od::array arr;
    if (auto e = v.get_array().get(arr)) return fail(e, key), false;
    for (auto el : arr) {
      od::value ev;
      if (auto e = el.get(ev)) return fail(e, key), false;
      double d = 0;
      if (!number(ev, d, key)) return false;
      out.push_back(d);
    }
    return true;
  }
  bool strings(od::value& v, StringListSink& sink, std::string_view key) {
    od::array arr;
    if (auto e = v.get_array().get(arr)) return fail(e, key), false;
    for (auto el : arr) {
      std::string_view s;
      if (auto e = el.get_string().get(s)) return fail(e, key), false;
      sink.push(s);
    }
    return true;
  }
};

class DomParser final : public JsonMessageParser {
public:
  ParseStatus parse(std::string_view text, std::size_t /*capacity*/, MessageBuilder& b,
                    ParseFailure& failure) override {
    failure_ = &failure;
    dom::element root;
    if (auto e = parser_.parse(text.data(), text.size(), false).get(root)) return fail(e, "");
    if (root.is_array()) return ParseStatus::Document;
    dom::object obj;
    if (root.get_object().get(obj)) return fail("expected a JSON object");
    for (dom::key_value_pair kv : obj) {
      const dom::element& v = kv.value;
      switch (classify_key(kv.key)) {
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
          if (!numbers(v, b.begin_numbers(classify_key(kv.key)), kv.key)) return ParseStatus::Error;
          break;
        case Key::T: {
          // The DOM keeps only the double: the nearest nanosecond (exact below 104 days).
          if (v.is_null()) {
            b.set_t_null();
            break;
          }
          double t = 0;
          if (!number(v, t, "t")) return ParseStatus::Error;
          const auto ns = time_from_seconds(t);
          if (!ns) return fail(simdjson::NUMBER_OUT_OF_RANGE, "t");
          b.set_t(*ns);
          break;
        }
        case Key::Cycle: {
          std::int64_t c = 0;
          if (auto e = v.get_int64().get(c)) return fail(e, "cycle");
          b.set_cycle(c);
          break;
        }
        case Key::Sync: {
          bool s = false;
          if (auto e = v.get_bool().get(s)) return fail(e, "sync");
          b.set_sync(s);
          break;
        }
        case Key::Header: {
          dom::object h;
          if (auto e = v.get_object().get(h)) return fail(e, "header");
          dom::element st_el;
          if (h.at_key("stamp").get(st_el) != simdjson::SUCCESS) break;
          dom::object st;
          if (auto e = st_el.get_object().get(st)) return fail(e, "header.stamp");
          for (dom::key_value_pair s : st) {
            std::int64_t x = 0;
            switch (classify_stamp_key(s.key)) {
              case StampKey::Secs:
                if (auto e = s.value.get_int64().get(x)) return fail(e, "header.stamp.secs");
                b.set_secs(x);
                break;
              case StampKey::Nsecs:
                if (auto e = s.value.get_int64().get(x)) return fail(e, "header.stamp.nsecs");
                b.set_nsecs(x);
                break;
              case StampKey::Unknown: break;
            }
          }
          break;
        }
        case Key::Trajectory: return ParseStatus::Document;
        case Key::Unknown: break;
      }
    }
    if (const char* why = b.finish()) return fail(why);
    return ParseStatus::Ok;
  }

private:
  dom::parser parser_;
  ParseFailure* failure_ = nullptr;

  ParseStatus fail(std::string reason) {
    failure_->offset = 0;
    failure_->reason = std::move(reason);
    return ParseStatus::Error;
  }
  ParseStatus fail(error_code e, std::string_view key) {
    failure_->offset = 0;
    failure_->reason = key.empty() ? std::string(simdjson::error_message(e))
                                   : fmt::format("'{}': {}", key, simdjson::error_message(e));
    return ParseStatus::Error;
  }
  bool number(const dom::element& v, double& out, std::string_view key) {
    if (v.is_null()) {
      out = kNaN;
      return true;
    }
    if (auto e = v.get_double().get(out)) return fail(e, key), false;
    return true;
  }
  bool numbers(const dom::element& v, std::vector<double>& out, std::string_view key) {
    dom::array arr;
    if (auto e = v.get_array().get(arr)) return fail(e, key), false;
    for (dom::element el : arr) {
      double d = 0;
      if (!number(el, d, key)) return false;
      out.push_back(d);
    }
    return true;
  }
  bool strings(const dom::element& v, StringListSink& sink, std::string_view key) {
    dom::array arr;
    if (auto e = v.get_array().get(arr)) return fail(e, key), false;
    for (dom::element el : arr) {
      std::string_view s;
      if (auto e = el.get_string().get(s)) return fail(e, key), false;
      sink.push(s);
    }
    return true;
  }
};

}  // namespace
}  // namespace rmodel::io::detail

namespace rmodel::io::testing {
std::unique_ptr<detail::JsonMessageParser> make_simdjson_ondemand_parser() {
  return std::make_unique<detail::OndemandParser>();
}
std::unique_ptr<detail::JsonMessageParser> make_simdjson_dom_parser() {
  return std::make_unique<detail::DomParser>();
}
}  // namespace rmodel::io::testing

#endif
