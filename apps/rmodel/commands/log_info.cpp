// rmodel log-info: what a ROS log holds — topics, types, message counts, time span and rate
// per topic — as `ros2 bag info` and `mcap info` show it; `--format json` for scripts.
#include <optional>

#include <fmt/format.h>

#include "app.hpp"
#include "command.hpp"
#include "option_fields.hpp"
#include "options/input_options.hpp"
#include "options/output.hpp"
#include "rmodel/base/error.hpp"
#include "rmodel/io/bag.hpp"

namespace rmodel::cli {
namespace {

/// "srdf" or "json": what a semantics topic holds.
std::string semantics_format(const io::RecordedSemantics& s) {
  return s.format == io::SemanticsText::srdf ? "srdf" : "json";
}

std::string seconds(std::int64_t ns) {
  return fmt::format("{}.{:09d}", ns / 1'000'000'000, static_cast<int>(ns % 1'000'000'000));
}

class LogInfoCommand : public Command {
public:
  void setup(CLI::App& app) override {
    app.description(fmt::format(
        "What a ROS log holds: format, topics with their types, message counts, time span and rate, and whether it "
        "carries the robot's model (a URDF on /robot_description, and its semantics on /robot_description_semantic "
        "or /rmodel/semantics). Reads the binary logs ({}) and rosbag2 directories, without decoding the messages",
        log_extensions_text(true)));
    with_kind(app.add_option("log", log_, fmt::format("ROS log ({}, or a rosbag2 directory)", log_extensions_text(true))),
              ValueKind::file)
        ->required()
        ->type_name("LOG");
    out_.add_to(app, {OutputFormat::text, OutputFormat::json, OutputFormat::csv}, OutputFormat::text);
  }

  int run() override {
    // The summary of a log is read from its index and end records: a pipe has neither.
    if (log_ == "-") throw InvalidArgument("log-info reads a log file or a rosbag2 directory, not standard input");
    io::LogInfo info = io::read_log_info(log_);
    // The model the log carries, if any: read up to it (a recorder receives it first).
    std::optional<io::RecordedModel> model;
    try {
      model = io::robot_description(log_);
    } catch (const ParseError& e) {
      info.problems.push_back(e.what());
    }
    for (std::string& problem : info.problems) problem = in_flag_words(problem);
    if (out_.is(OutputFormat::json)) {
      Json doc = json_document("rmodel.log_info");
      doc["path"] = info.path;
      doc["format"] = std::string(io::to_string(info.format));
      doc["detail"] = info.detail;
      doc["messages"] = info.messages;
      doc["start_ns"] = info.start_ns;
      doc["end_ns"] = info.end_ns;
      doc["duration_s"] = static_cast<double>(info.end_ns - info.start_ns) * 1e-9;
      doc["topics"] = Json::array();
      for (const auto& t : info.topics)
        doc["topics"].push_back({{"name", t.name}, {"type", t.type}, {"messages", t.messages},
                                 {"first_ns", t.first_ns}, {"last_ns", t.last_ns}, {"rate_hz", t.rate_hz()},
                                 {"connections", t.connections}});
      doc["robot_description"] =
          model ? Json{{"topic", model->topic}, {"type", model->type}, {"bytes", model->urdf.size()},
                       {"message", model->message}, {"log_time_ns", model->log_time_ns}}
                : Json(nullptr);
      const io::RecordedSemantics* s = model && model->semantics ? &*model->semantics : nullptr;
      doc["semantics"] = s ? Json{{"topic", s->topic}, {"type", s->type}, {"format", semantics_format(*s)},
                                  {"bytes", s->text.size()}, {"message", s->message}, {"log_time_ns", s->log_time_ns}}
                           : Json(nullptr);
      doc["problems"] = info.problems;
      out_.write(json_text(doc));
    } else if (out_.is(OutputFormat::csv)) {
      // One row per topic.
      Table table({"topic", "type", "messages", "first_ns", "last_ns", "rate_hz", "connections"});
      for (const auto& t : info.topics)
        table.add_row({t.name, t.type, t.messages, t.first_ns, t.last_ns, t.rate_hz(), t.connections});
      out_.write(table.render(OutputFormat::csv));
    } else {
      std::string out;
      out += fmt::format("Files:        {}\n", info.path);
      // A ROS 1 bag without chunks (no message was ever written) has no detail to give.
      out += info.detail.empty() ? fmt::format("Format:       {}\n", io::to_string(info.format))
                                 : fmt::format("Format:       {} ({})\n", io::to_string(info.format), info.detail);
      // Exact, as the stamps: a span of years in nanoseconds is beyond a double's 53 bits.
      out += fmt::format("Duration:     {} s\n", seconds(info.end_ns - info.start_ns));
      out += fmt::format("Start:        {} s\n", seconds(info.start_ns));
      out += fmt::format("End:          {} s\n", seconds(info.end_ns));
      out += fmt::format("Messages:     {}\n", info.messages);
      out += model ? fmt::format("Model:        {} ({}, {} bytes, message {})\n", model->topic, model->type,
                                 model->urdf.size(), model->message)
                   : std::string("Model:        none\n");
      // The semantics the model is replayed with (its full pose's order), when it has some.
      if (model && model->semantics) {
        const io::RecordedSemantics& s = *model->semantics;
        out += fmt::format("Semantics:    {} ({}, {}, {} bytes, message {})\n", s.topic, s.type,
                           semantics_format(s) == "srdf" ? "SRDF" : "rmodel JSON", s.text.size(), s.message);
      }
      out += fmt::format("Topics:       {}\n", info.topics.size());
      std::size_t w = 0, tw = 0;
      for (const auto& t : info.topics) {
        w = std::max(w, t.name.size());
        tw = std::max(tw, t.type.size());
      }
      // As `rosbag info`: the connections only when a topic has several.
      for (const auto& t : info.topics)
        out += fmt::format("  {:<{}}  {:<{}}  {:>7} msgs  {:>9.3f} Hz{}\n", t.name, w, t.type, tw, t.messages,
                           t.rate_hz(), t.connections > 1 ? fmt::format("  ({} connections)", t.connections) : "");
      for (const auto& p : info.problems) out += fmt::format("Problem:      {}\n", p);
      out_.write(out);
    }
    out_.close();
    return info.problems.empty() ? kOk : 1;
  }

private:
  std::string log_;
  OutputOptions out_;
};

}  // namespace

std::unique_ptr<Command> make_log_info_command() { return std::make_unique<LogInfoCommand>(); }

}  // namespace rmodel::cli
