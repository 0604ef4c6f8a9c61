// The catalogue of the articles' claims (jumphash/claims.hpp): its shape,
// every deterministic claim asserted exactly, every statistical claim on its
// fixed keys against its stated tolerance, and wrong implementations failing
// those tolerances. Timing claims are never asserted (only their shape).
#include "jumphash/claims.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include "claims/checks.hpp"
#include "claims/measure.hpp"
#include "claims/variants.hpp"
#include "jumphash/algorithms.hpp"

namespace jumphash {
namespace {

using namespace claims_detail;

const Claim& claim(std::string_view id) {
  Result<const Claim*> found = find_claim(id);
  EXPECT_TRUE(found) << id;
  return **found;
}

ClaimResult run(std::string_view id) { return run_claim(claim(id)); }

// ---- the catalogue -----------------------------------------------------------

TEST(ClaimsCatalogue, IdsAreUniqueStableWordsAndEveryFieldIsFilled) {
  std::set<std::string_view> ids;
  for (const Claim& each : claims()) {
    EXPECT_TRUE(ids.insert(each.id).second) << "duplicate id " << each.id;
    EXPECT_FALSE(each.id.empty());
    EXPECT_TRUE(std::all_of(each.id.begin(), each.id.end(), [](char c) {
      return std::islower(static_cast<unsigned char>(c)) ||
             std::isdigit(static_cast<unsigned char>(c)) || c == '-';
    })) << each.id;
    for (std::string_view text :
         {each.statement, each.source, each.published, each.method, each.tolerance}) {
      EXPECT_FALSE(text.empty()) << each.id;
      EXPECT_EQ(text.find('\n'), std::string_view::npos) << each.id;
      // Product text never names internal files or says "seed".
      EXPECT_EQ(text.find("seed"), std::string_view::npos) << each.id;
      EXPECT_EQ(text.find("shared/"), std::string_view::npos) << each.id;
    }
    EXPECT_NE(each.run, nullptr) << each.id;
  }
  EXPECT_GE(ids.size(), 20u);
}

TEST(ClaimsCatalogue, EachKindIsRepresentedAndSourcesAreCitedByTitle) {
  std::set<ClaimKind> kinds;
  for (const Claim& each : claims()) {
    kinds.insert(each.kind);
    const bool cites = each.source.find("Lamping and Eric Veach") != std::string_view::npos ||
                       each.source.find("Otmar Ertl") != std::string_view::npos ||
                       each.source.find("the article \"") != std::string_view::npos ||
                       each.source.find("the exercise \"") != std::string_view::npos;
    EXPECT_TRUE(cites) << each.id << ": " << each.source;
  }
  EXPECT_EQ(kinds.size(), 3u);
}

TEST(ClaimsCatalogue, UnknownIdIsAnErrorListingTheIds) {
  Result<const Claim*> found = find_claim("no-such-claim");
  ASSERT_FALSE(found);
  EXPECT_EQ(found.error(), "unknown claim 'no-such-claim'; the claims are: " + claim_ids());
  EXPECT_NE(claim_ids().find("jump-key-42-history, modulo-10-to-12-moves-five-sixths"),
            std::string::npos);
  EXPECT_FALSE(find_claim("JUMP-KEY-42-HISTORY"));  // ids are case-sensitive
}

// ---- deterministic claims, exactly ---------------------------------------------

TEST(ClaimsDeterministic, Key42JumpsWhereTheExerciseSays) {
  const ClaimResult result = run("jump-key-42-history");
  EXPECT_EQ(result.measured,
            "n 1 2 3 23 34 41 44 572 -> bucket 0 1 2 22 33 40 43 571; bucket 43 at n = 100");
  EXPECT_EQ(result.verdict, ClaimVerdict::reproduced);
  ASSERT_TRUE(result.chart);
  ASSERT_EQ(result.chart->series.size(), 1u);
  EXPECT_TRUE(result.chart->step);
  EXPECT_EQ(result.chart->series[0].x, (std::vector<double>{1, 2, 3, 23, 34, 41, 44, 572, 800}));
}

TEST(ClaimsDeterministic, ModuloMovesExactlyFiveSixthsFromTenToTwelve) {
  const ClaimResult result = run("modulo-10-to-12-moves-five-sixths");
  EXPECT_EQ(result.measured,
            "500,000 of 600,000 keys moved (83.33%); keys that stayed with key mod 60 outside "
            "0..9: 0");
  EXPECT_EQ(result.verdict, ClaimVerdict::reproduced);
}

TEST(ClaimsDeterministic, RemovingServer3MovesOnlyItsKeysExceptUnderTheServersArray) {
  const ClaimResult result = run("servers-array-removal");
  EXPECT_EQ(result.measured,
            "jump: 68,882 moved, 10,009 were on server 3; memento: 9,959 moved, 9,959 were on "
            "server 3; ketama: 8,964 moved, 8,964 were on server 3; rendezvous: 10,129 moved, "
            "10,129 were on server 3 (of 100,000 keys)");
  EXPECT_EQ(result.verdict, ClaimVerdict::reproduced);
}

TEST(ClaimsDeterministic, NoMonotonicityViolations) {
  const ClaimResult result = run("jumpback-monotone");
  EXPECT_EQ(result.measured, "violations: jumpback 0, jumpback-indep 0, jump 0");
  EXPECT_EQ(result.verdict, ClaimVerdict::reproduced);
}

TEST(ClaimsDeterministic, KeyAsVShortcutSkewsExactlyAsTheArticleSays) {
  const ClaimResult result = run("key-as-v-shortcut");
  EXPECT_EQ(result.measured,
            "ids 0..99999: largest bucket 25.11x the mean, 26 of 100 empty; hashed keys in "
            "bucket 3: 128 of 256 low-byte values (256 with JumpBackHash* itself)");
  EXPECT_EQ(result.verdict, ClaimVerdict::reproduced);
}

TEST(ClaimsDeterministic, RingMemoryAsASortedVectorIsTheArticles7Point6MB) {
  const ClaimResult result = run("ring-memory-1000-by-1000");
  // The map's node size is the platform's; the vector and jump are not.
  EXPECT_EQ(result.measured.rfind("sorted vector 8,000,000 B (7.6 MiB); std::map ", 0), 0u)
      << result.measured;
  EXPECT_NE(result.measured.find("; jump 0 B (nothing is built)"), std::string::npos);
  EXPECT_EQ(result.verdict, ClaimVerdict::reproduced);
  EXPECT_EQ(sizeof(PaperRing::Point), 8u);
}

TEST(ClaimsDeterministic, EveryDeterministicClaimIsCoveredAbove) {
  std::set<std::string_view> covered{"jump-key-42-history",   "modulo-10-to-12-moves-five-sixths",
                                     "servers-array-removal", "jumpback-monotone",
                                     "key-as-v-shortcut",     "ring-memory-1000-by-1000"};
  for (const Claim& each : claims()) {
    if (each.kind == ClaimKind::deterministic) {
      EXPECT_TRUE(covered.count(each.id)) << each.id;
    }
  }
}

// ---- statistical claims, on their fixed keys ------------------------------------

class ClaimsStatistical : public ::testing::TestWithParam<std::string_view> {};

TEST_P(ClaimsStatistical, IsReproducedWithinItsTolerance) {
  const Claim& each = claim(GetParam());
  ASSERT_EQ(each.kind, ClaimKind::statistical);
  const ClaimResult result = run_claim(each);
  EXPECT_EQ(result.verdict, ClaimVerdict::reproduced) << each.id << ": " << result.measured;
}

INSTANTIATE_TEST_SUITE_P(
    Claims, ClaimsStatistical,
    ::testing::Values("jump-10-to-12-moves-one-sixth", "jump-loops-below-ln-n-plus-1",
                      "ring-1000-points-bucket-sizes", "jump-add-bucket-takes-from-all",
                      "jumpback-generator-calls", "jump-loops-against-harmonic",
                      "jumpback-uniform-at-100", "shrink-flows-chi-square", "shard-12-destinations",
                      "jump-jumpback-agreement", "two-level-routing"),
    [](const ::testing::TestParamInfo<std::string_view>& info) {
      std::string name(info.param);
      std::replace(name.begin(), name.end(), '-', '_');
      return name;
    });

TEST(ClaimsStatisticalCoverage, EveryStatisticalClaimIsInTheParameterList) {
  std::size_t statistical = 0;
  for (const Claim& each : claims()) statistical += each.kind == ClaimKind::statistical;
  EXPECT_EQ(statistical, 11u);
}

// ---- the tolerances reject wrong implementations --------------------------------

// The shared-bits flow table of JumpBackHash must not pass as uniform: the
// test that jump and jumpback-indep pass on 16 -> 4 rejects it by far.
TEST(ClaimsTolerances, SharedBitsFlowTableDoesNotPassAsUniform) {
  const KeySet keys = *KeySet::parse("random:600000:12345");
  const ShrinkFlows jumpback = shrink_flows(**find_algorithm("jumpback"), keys, 16, 4);
  const ShrinkFlows jump = shrink_flows(**find_algorithm("jump"), keys, 16, 4);
  const ShrinkFlows independent = shrink_flows(**find_algorithm("jumpback-indep"), keys, 16, 4);
  EXPECT_TRUE(flows_look_uniform(jump)) << jump.per_dof();
  EXPECT_TRUE(flows_look_uniform(independent)) << independent.per_dof();
  EXPECT_FALSE(flows_look_uniform(jumpback)) << jumpback.per_dof();
  EXPECT_GT(jumpback.per_dof(), 500);
  EXPECT_EQ(jumpback.dof, 36.0);  // 12 removed buckets x 3
}

// Modulo in place of jump: its 10 -> 12 moved count is nowhere near 1/6.
TEST(ClaimsTolerances, ModuloFailsTheOneSixthTolerance) {
  std::uint64_t moved_modulo = 0, moved_jump = 0;
  constexpr std::uint64_t kKeys = 1000000;
  for (std::uint64_t i = 0; i < kKeys; ++i) {
    const std::uint64_t key = random_key(1, i);
    moved_modulo += modulo_hash(key, 10) != modulo_hash(key, 12);
    moved_jump += jump_hash(key, 10) != jump_hash(key, 12);
  }
  EXPECT_TRUE(within_binomial(moved_jump, kKeys, 1.0 / 6));
  EXPECT_FALSE(within_binomial(moved_modulo, kKeys, 1.0 / 6));
  // And the tolerance is tight: a 1% bias in the moved fraction fails it.
  EXPECT_FALSE(within_binomial(moved_jump + kKeys / 100, kKeys, 1.0 / 6));
}

// The key-as-V shortcut on sequential ids fails the per-n uniformity test
// that JumpBackHash* passes at n = 100.
TEST(ClaimsTolerances, KeyAsVShortcutFailsTheUniformityTest) {
  std::vector<std::uint64_t> shortcut(100), real(100);
  for (std::uint64_t id = 0; id < 1000000; ++id) {
    ++shortcut[static_cast<std::size_t>(jump_back_hash_key_as_v(id, 100))];
    ++real[static_cast<std::size_t>(jump_back_hash(random_key(100, id), 100))];
  }
  double dof = 0;
  EXPECT_GT(chi_square_uniform(shortcut.data(), shortcut.size(), dof), chi_square_upper_bound(99));
  EXPECT_LT(chi_square_uniform(real.data(), real.size(), dof), chi_square_upper_bound(99));
}

// A ring with 100 points per bucket spreads far wider than the paper's
// 0.92..1.09 and fails the ring claim's criterion.
TEST(ClaimsTolerances, HundredPointRingFailsTheThousandPointSpread) {
  const RingSpread hundred = ring_spread(2000, 100);
  EXPECT_FALSE(matches_published_ring_spread(hundred)) << hundred.low << ".." << hundred.high;
  EXPECT_LT(hundred.low, 0.8);
  EXPECT_GT(hundred.high, 1.2);
}

// ---- the variants ---------------------------------------------------------------

TEST(ClaimsVariants, CountingJumpIsJumpAndCountsItsLoops) {
  for (std::uint64_t i = 0; i < 10000; ++i) {
    const std::uint64_t key = random_key(3, i);
    for (std::int32_t n : {1, 2, 10, 1000, 2147483647}) {
      std::uint64_t loops = 0;
      EXPECT_EQ(jump_hash_counting(key, n, &loops), jump_hash(key, n));
      EXPECT_GE(loops, 1u);
    }
  }
  std::uint64_t loops = 0;
  jump_hash_counting(42, 800, &loops);
  EXPECT_EQ(loops, 8u);  // key 42's eight buckets below 800
}

TEST(ClaimsVariants, PaperRingSharesSumToOneAndLookupsFollowTheArcs) {
  const PaperRing ring(10, 100);
  const std::vector<double> shares = ring.shares();
  double total = 0;
  for (double share : shares) total += share;
  EXPECT_NEAR(total, 1.0, 1e-12);
  // A key goes to the first point at or after its position, wrapping
  // around: compare with a linear scan.
  for (std::uint64_t i = 0; i < 2000; ++i) {
    const std::uint64_t key = random_key(8, i);
    const auto position = static_cast<std::uint32_t>(key >> 32);
    std::int32_t expected = ring.points().front().bucket;
    for (const PaperRing::Point& point : ring.points()) {
      if (point.position >= position) {
        expected = point.bucket;
        break;
      }
    }
    EXPECT_EQ(ring.bucket(key), expected) << key;
  }
  // A key exactly at a point's position belongs to that point.
  const PaperRing::Point& middle = ring.points()[500];
  EXPECT_EQ(ring.bucket(static_cast<std::uint64_t>(middle.position) << 32), middle.bucket);
}

TEST(ClaimsVariants, SaltedSecondLevelDiffersFromTheKey) {
  EXPECT_NE(salted_key(0), 0u);
  EXPECT_NE(salted_key(42), salted_key(43));
}

// ---- timing claims: shape only, never their numbers -----------------------------

TEST(ClaimsTiming, TimingClaimsSayTheyAreRatiosAndReportTheirN) {
  for (const Claim& each : claims()) {
    if (each.kind != ClaimKind::timing) continue;
    EXPECT_NE(each.method.find("best of 5 passes"), std::string_view::npos) << each.id;
  }
  const ClaimResult result = run("jumpback-matches-divide");
  for (const char* n : {"n = 128: ", "n = 1024: ", "n = 129: ", "n = 1025: "}) {
    EXPECT_NE(result.measured.find(n), std::string::npos) << result.measured;
  }
  EXPECT_NE(result.verdict, ClaimVerdict::measured_only);
}

// ---- rendering --------------------------------------------------------------------

TEST(ClaimsRender, TableBlockAndSummary) {
  const ClaimRun runs[] = {{&claim("jump-key-42-history"), run("jump-key-42-history")}};
  const std::string table = render_claims_table(runs);
  EXPECT_EQ(table.rfind("jump-key-42-history               deterministic  reproduced\n"
                        "  claim:     Key 42 changes bucket",
                        0),
            0u)
      << table;
  EXPECT_NE(table.find("\n  measured:  n 1 2 3 23 34 41 44 572 -> bucket 0 1 2 22 33 40 43 571; "
                       "bucket 43 at n = 100\n"),
            std::string::npos);
  EXPECT_TRUE(table.ends_with("\n\n1 claim: 1 reproduced, 0 differ, 0 measured only\n")) << table;
}

TEST(ClaimsRender, JsonEscapesAndCountsVerdicts) {
  Claim fake = claim("jump-key-42-history");
  fake.statement = "a \"quoted\"\\ text\twith a tab";
  ClaimResult differs;
  differs.measured = "x";
  differs.verdict = ClaimVerdict::differs;
  const ClaimRun runs[] = {{&fake, differs}};
  const std::string json = render_claims_json(runs);
  EXPECT_NE(json.find("\"statement\": \"a \\\"quoted\\\"\\\\ text\\twith a tab\""),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"chart\": null"), std::string::npos);
  EXPECT_NE(json.find("\"summary\": {\"reproduced\": 0, \"differs\": 1, \"measured_only\": 0}"),
            std::string::npos);
  EXPECT_EQ(render_claims_summary(runs), "1 claim: 0 reproduced, 1 differs, 0 measured only\n");
}

}  // namespace
}  // namespace jumphash
