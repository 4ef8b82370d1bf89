// Edit distance and "did you mean" suggestions, against distances counted by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rmodel/base/suggest.hpp"

namespace {

TEST(EditDistance, CountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(rmodel::edit_distance("", ""), 0u);
  EXPECT_EQ(rmodel::edit_distance("abc", ""), 3u);
  EXPECT_EQ(rmodel::edit_distance("", "abc"), 3u);
  EXPECT_EQ(rmodel::edit_distance("kitten", "sitting"), 3u);  // k->s, e->i, +g
  EXPECT_EQ(rmodel::edit_distance("jonits", "joints"), 1u);    // one swap
  EXPECT_EQ(rmodel::edit_distance("exponentail", "exponential"), 1u);
  EXPECT_EQ(rmodel::edit_distance("neck_pich", "neck_pitch"), 1u);  // one insertion
  EXPECT_EQ(rmodel::edit_distance("--sampel", "--sample"), 1u);
  EXPECT_EQ(rmodel::edit_distance("JSON", "json"), 0u);  // case is ignored
  EXPECT_EQ(rmodel::edit_distance("ca", "abc"), 3u);    // optimal string alignment, not full Damerau
}

TEST(EditDistance, IsSymmetric) {
  const std::vector<std::string> words{"", "a", "ab", "ba", "joints", "chains", "groups", "jacobian"};
  for (const auto& a : words)
    for (const auto& b : words) EXPECT_EQ(rmodel::edit_distance(a, b), rmodel::edit_distance(b, a)) << a << " " << b;
}

TEST(ClosestMatch, NamesTheLikelyTypo) {
  const std::vector<std::string> commands{"check", "info", "tree", "joints", "chains", "groups", "index", "filter"};
  EXPECT_EQ(rmodel::closest_match("jonits", commands), "joints");
  EXPECT_EQ(rmodel::closest_match("chians", commands), "chains");
  EXPECT_EQ(rmodel::closest_match("fitler", commands), "filter");
  EXPECT_EQ(rmodel::did_you_mean("grups", commands), "; did you mean 'groups'?");
}

TEST(ClosestMatch, SuggestsNothingForFarWordsOrExactMatches) {
  const std::vector<std::string> names{"neck_pitch", "head_yaw", "jaw_slide"};
  EXPECT_EQ(rmodel::closest_match("elbow", names), "");
  EXPECT_EQ(rmodel::closest_match("neck_pitch", names), "");
  EXPECT_EQ(rmodel::did_you_mean("xyz", names), "");
  EXPECT_EQ(rmodel::closest_match("", names), "");
  // Short words allow one edit only: "ab" is not "head_yaw".
  EXPECT_EQ(rmodel::closest_match("ab", std::vector<std::string>{"cd", "abcd"}), "");
}

TEST(ClosestMatch, AUniquePrefixIsEnough) {
  const std::vector<std::string> kinds{"exponential", "moving_average", "median"};
  EXPECT_EQ(rmodel::closest_match("expo", kinds), "exponential");
  EXPECT_EQ(rmodel::closest_match("me", kinds), "");  // too short to be a prefix hint
}

TEST(ClosestMatch, TiesGoToTheFirstCandidate) {
  const std::vector<std::string_view> names{"left", "lift"};
  EXPECT_EQ(rmodel::closest_match("loft", names), "left");
}

}  // namespace
