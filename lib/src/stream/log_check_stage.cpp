// The stage of `rmodel check-log` and the run that drives it (rmodel/stream/log_check.hpp).
#include "rmodel/stream/log_check.hpp"

namespace rmodel {
namespace {

/// Calls `on_wait` when the pipeline flushes (the reader is about to wait, or the end).
class WaitSink final : public stream::Sink {
public:
  explicit WaitSink(std::function<void()> on_wait) : on_wait_(std::move(on_wait)) {}
  void joint_state(const JointState&, std::optional<std::int64_t>) override {}
  void support_state(const SupportState&, std::optional<std::int64_t>) override {}
  void flush() override {
    if (on_wait_) on_wait_();
  }

private:
  std::function<void()> on_wait_;
};

}  // namespace

LogCheckStage::LogCheckStage(LogChecker& checker, ProblemCallback on_problem)
    : checker_(&checker), on_problem_(std::move(on_problem)) {}

void LogCheckStage::push(const io::Message& message, stream::Output& out, stream::Reporter&) {
  if (message.has_stamp && !out.in_window(message.stamp())) return checker_->add_outside(message);
  checker_->add(message);
  hand_on();
}

void LogCheckStage::finish(stream::Output&, stream::Reporter&) {
  checker_->finish();
  hand_on();
}

void LogCheckStage::read_error(const stream::Event& event) {
  if (event.severity != Severity::error) return;
  checker_->add_read_error(io::ReadError{event.line, event.item, std::string(event.text), event.byte_offset});
  hand_on();
}

void LogCheckStage::hand_on() {
  if (!on_problem_) {
    handed_ = checker_->problems().size();
    return;
  }
  for (; handed_ < checker_->problems().size(); ++handed_) on_problem_(checker_->problems()[handed_]);
}

stream::Summary check_log(LogChecker& checker, io::MessageReader& reader, LogCheckRun run) {
  LogCheckStage stage(checker, std::move(run.on_problem));
  WaitSink sink(std::move(run.on_wait));
  stream::Pipeline pipeline(
      stage, sink, [&](const stream::Event& e) { stage.read_error(e); }, std::move(run.run));
  pipeline.run(reader);
  pipeline.finish();
  return pipeline.summary();
}

}  // namespace rmodel
