// The run of each claim (one function each) and the sources they cite.
// Internal to src/claims/; the catalogue (catalogue.cpp) lists them.
#pragma once

#include <string_view>

#include "jumphash/claims.hpp"

namespace jumphash::claims_detail {

// The sources, by title and author as they give them.
inline constexpr std::string_view kLampingVeach =
    "John Lamping and Eric Veach, \"A Fast, Minimal Memory, Consistent Hash Algorithm\" (2014, "
    "arXiv:1406.2294)";
inline constexpr std::string_view kJapaneseArticle =
    "the article \"Jump Consistent Hash：表を持たずにシャード番号を決めるコンシステントハッシュと、"
    "その前提条件\"";
inline constexpr std::string_view kExercise = "the exercise \"Jump Consistent Hash\"";
inline constexpr std::string_view kErtl =
    "Otmar Ertl, \"JumpBackHash: Say Goodbye to the Modulo Operation to Distribute Keys "
    "Uniformly to Buckets\" (arXiv:2403.18682)";
inline constexpr std::string_view kJumpBackArticle =
    "the article \"JumpBackHash: Constant-Time Consistent Hashing by Walking Active Indices "
    "Backwards\"";

// Lamping & Veach, the Japanese article, the exercise (lamping_veach.cpp).
ClaimResult run_jump_key_42_history();
ClaimResult run_modulo_10_to_12();
ClaimResult run_jump_10_to_12();
ClaimResult run_jump_loop_below_ln_n();
ClaimResult run_ring_bucket_sizes();
ClaimResult run_ring_memory();
ClaimResult run_add_bucket_sources();
ClaimResult run_servers_array_removal();

// Ertl's paper and the JumpBackHash article (jump_back_hash.cpp).
ClaimResult run_jumpback_generator_calls();
ClaimResult run_jump_loops_against_harmonic();
ClaimResult run_monotonicity();
ClaimResult run_jumpback_uniform_at_100();
ClaimResult run_shrink_flows();
ClaimResult run_shard_12_destinations();
ClaimResult run_jump_jumpback_agreement();
ClaimResult run_key_as_v_shortcut();
ClaimResult run_two_level_routing();

// Speed, as ratios within one run (timing.cpp).
ClaimResult run_jump_vs_ring_speed();
ClaimResult run_lookup_times_against_modulo();
ClaimResult run_jumpback_against_divide();

}  // namespace jumphash::claims_detail
