// What `rmodel fk --log` and `rmodel check-log` print is what a program embedding the library
// gets from the same stages (rmodel/stream/fk_stream.hpp, rmodel/stream/log_check.hpp) on the same log.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include <nlohmann/json.hpp>

#include "rmodel/stream/fk_stream.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/stream/log_check.hpp"
#include "test_support.hpp"

namespace {

using rmodel::test::run_rmodel;

std::string example_log(const std::string& file) {
  return (rmodel::test::source_dir() / "share/rmodel/examples" / file).string();
}

}  // namespace

TEST(CliEmbeddedStages, FkLogPrintsTheFramesTheLibrarysStageGives) {
  for (const char* log : {"fl.jsonl", "swing.jsonl"}) {
    const auto r = run_rmodel({"fk", "--sample", "--log", example_log(log), "-f", "jsonl"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto records = rmodel::test::json_lines(r.out);

    const rmodel::Model model = rmodel::test::pony();
    namespace kin = rmodel::kinematics;
    const kin::KinematicModel km = kin::KinematicModel::from_model(model, kin::MimicJoints::from_pose);
    std::vector<std::vector<Eigen::Isometry3d>> frames;
    std::vector<std::int64_t> stamps;
    rmodel::stream::FkStage stage(model, km, std::vector<double>(model.pose_size(), 0.0),
                                  [&](const rmodel::stream::FkRecord& rec) {
                                    frames.emplace_back();
                                    for (std::size_t b = 0; b < rec.kinematics.size(); ++b)
                                      frames.back().push_back(rec.frames.frame(b));
                                    stamps.push_back(rec.message.stamp().ns);
                                  });
    rmodel::stream::CallbackSink none({});
    rmodel::stream::Pipeline pipeline(stage, none);
    auto reader = rmodel::io::MessageReader::open(example_log(log));
    pipeline.run(reader);
    pipeline.finish();

    ASSERT_EQ(records.size(), frames.size()) << log;
    ASSERT_FALSE(records.empty());
    for (std::size_t i = 0; i < records.size(); ++i) {
      EXPECT_EQ(std::llround(records[i]["t"].get<double>() * 1e9), stamps[i]);
      for (const auto& f : records[i]["frames"]) {
        const auto body = km.find_body(f["link"].get<std::string>());
        ASSERT_TRUE(body) << f.dump();
        const Eigen::Isometry3d& x = frames[i][*body];
        // Positions as the command writes them: the nearest double, exactly.
        EXPECT_EQ(f["x"].get<double>(), x.translation().x()) << f.dump();
        EXPECT_EQ(f["y"].get<double>(), x.translation().y()) << f.dump();
        EXPECT_EQ(f["z"].get<double>(), x.translation().z()) << f.dump();
        const Eigen::Quaterniond q(f["qw"].get<double>(), f["qx"].get<double>(), f["qy"].get<double>(),
                                   f["qz"].get<double>());
        EXPECT_LT(q.angularDistance(Eigen::Quaterniond(x.linear())), 1e-12) << f.dump();
      }
    }
  }
}

TEST(CliEmbeddedStages, CheckLogReportsTheProblemsTheLibrarysRunFinds) {
  const std::string log = example_log("walk.jsonl");
  const auto r = run_rmodel({"check-log", "--sample", log, "--max-gap", "0.1", "--period", "0.01", "-f", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto doc = nlohmann::json::parse(r.out);

  const rmodel::Model model = rmodel::test::pony();
  rmodel::LogCheckOptions options;
  options.max_gap = rmodel::Time{100'000'000};
  options.period = rmodel::Time{10'000'000};
  rmodel::LogChecker checker(model, options);
  auto reader = rmodel::io::MessageReader::open(log);
  (void)rmodel::check_log(checker, reader);

  ASSERT_EQ(doc["problems"].size(), checker.problems().size());
  ASSERT_FALSE(checker.problems().empty());
  for (std::size_t i = 0; i < checker.problems().size(); ++i) {
    const auto& p = checker.problems()[i];
    EXPECT_EQ(doc["problems"][i]["code"], p.code);
    EXPECT_EQ(doc["problems"][i]["line"], p.line);
    EXPECT_EQ(doc["problems"][i]["message"], p.message);
  }
  EXPECT_EQ(doc["errors"], checker.error_count());
  EXPECT_EQ(doc["messages"], checker.message_count());
  EXPECT_EQ(doc["valid"], checker.valid());
}
