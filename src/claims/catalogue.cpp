// The catalogue of claims: what each source says, what it published, how
// it is measured here and what counts as reproduced. The runs are in
// lamping_veach.cpp, jump_back_hash.cpp and timing.cpp.
#include <array>
#include <string>

#include "jumphash/claims.hpp"
#include "jumphash/keys.hpp"
#include "runs.hpp"

namespace jumphash {

using namespace claims_detail;

namespace {

// clang-format off
const std::array<Claim, 20> kClaims{{
    {"jump-key-42-history",
     "Key 42 changes bucket only at bucket counts 1, 2, 3, 23, 34, 41, 44 and 572 up to 800 "
     "buckets, each time into the new bucket; at n = 100 it is in bucket 43.",
     kExercise,
     "n 1 2 3 23 34 41 44 572 -> bucket 0 1 2 22 33 40 43 571; bucket 43 at n = 100",
     "TRACE 42 800 and HASH 42 100 under jump (fig. 1 of Lamping and Veach's paper)",
     "exact",
     ClaimKind::deterministic, &run_jump_key_42_history},
    {"modulo-10-to-12-moves-five-sixths",
     "Going from 10 to 12 shards, hash mod n moves 5/6 of the keys: the two remainders agree "
     "only when the hash mod 60 is 0..9.",
     kJapaneseArticle,
     "5/6 of the keys move; 10 of every 60 stay",
     "keys 0..599999 (10,000 whole periods of 60) under modulo, 10 -> 12; moved keys counted",
     "exact: 500,000 of 600,000 move, and every key that stays has key mod 60 in 0..9",
     ClaimKind::deterministic, &run_modulo_10_to_12},
    {"jump-10-to-12-moves-one-sixth",
     "Going from 10 to 12 buckets, jump moves only the 1/6 of the keys that must move, all of "
     "them into the new buckets 10 and 11.",
     kLampingVeach,
     "1/6 of the keys move (modulo: 5/6); changed keys all go to bucket 10 or 11",
     "keys random:1000000:1 under jump, 10 -> 12; moved keys and their new buckets counted "
     "(modulo on the same keys for contrast)",
     "moved fraction within 4 standard deviations of 1/6 (binomial: +-0.15 points); no moved "
     "key outside buckets 10 and 11",
     ClaimKind::statistical, &run_jump_10_to_12},
    {"jump-loops-below-ln-n-plus-1",
     "Jump's expected number of loop iterations is below ln(n) + 1.",
     kLampingVeach,
     "expected iterations < ln(n) + 1 (the sum of 1/i for i = 2..n, plus the last step)",
     "fig. 1 with its loop counted, keys random:100000:7 at n = 10, 100, ..., 1000000",
     "each mean below ln(n) + 1 and within 4 standard errors of H_n, the exact expectation",
     ClaimKind::statistical, &run_jump_loop_below_ln_n},
    {"ring-1000-points-bucket-sizes",
     "Even with 1000 points per bucket, a consistent-hash ring's bucket sizes spread over "
     "0.92..1.09 of the mean (99% interval), while jump's are exact.",
     kLampingVeach,
     "ring, 1000 points per bucket: 0.92..1.09 of the mean; jump: 0.99999998..1.00000002 "
     "(Intel Xeon E5-1650, 2014)",
     "a ring of 5000 buckets x 1000 points on a 32-bit circle (positions from SplitMix64's "
     "mix), each bucket's exact arc length; the 0.5% and 99.5% quantiles of size / mean. "
     "Jump at n = 1000 on keys random:2000000:5: key counts cannot show exactness to 1e-8, "
     "only that the loads spread no wider than sampling noise",
     "ring quantiles within +-0.01 of 0.92 and 1.09; jump's load chi-square below dof + 4 "
     "standard deviations",
     ClaimKind::statistical, &run_ring_bucket_sizes},
    {"ring-memory-1000-by-1000",
     "A ring of 1000 points for each of 1000 buckets takes 46 MB as an STL map or 7.6 MB as a "
     "sorted vector; jump keeps no data structure.",
     kLampingVeach,
     "46 MB (STL map), 7.6 MB (sorted vector), none for jump",
     "the ring's 1,000,000 points as a sorted vector of 8-byte (32-bit position, bucket) pairs "
     "and as a std::map counting its allocations (with glibc, also the heap blocks)",
     "the sorted vector rounds to 7.6 MiB and jump builds nothing; the map's size depends on "
     "the platform's tree node and allocator (the paper's 46 MB is 48 bytes a node), so it is "
     "reported, not judged",
     ClaimKind::deterministic, &run_ring_memory},
    {"jump-add-bucket-takes-from-all",
     "Adding a bucket to 1000, jump takes about 0.1% of the key space from every one of the "
     "1000 buckets; a ring with 10 points per bucket takes from at most 10 of them.",
     kLampingVeach,
     "jump: every bucket gives about 0.1%; ring with 10 points per bucket: at most 10 buckets "
     "give",
     "jump: keys random:20000000:11 at n = 1000 -> 1001, moved keys counted per old bucket; "
     "ring: 1000 buckets x 10 points, bucket 1000's 10 points added, the buckets whose arcs "
     "they split counted from the ring itself",
     "jump: all 1000 buckets give keys, moved fraction within 4 standard deviations of 1/1001 "
     "and the givers' counts pass a chi-square test; ring: at most 10 buckets give",
     ClaimKind::statistical, &run_add_bucket_sources},
    {"servers-array-removal",
     "Removing server 3 of 10 from servers[jump(key, 10)] renumbers the servers after it and "
     "moves most keys; schemes that take any server id (MementoHash, ketama's ring, rendezvous "
     "hashing) move only server 3's keys.",
     kJapaneseArticle,
     "most keys go to a different server (the article's derivation, no number given)",
     "keys 0..99999 on nodes 0..9, node 3 removed (MOVED -3): jump indexing the node list, "
     "memento, ketama and rendezvous",
     "jump: more than half the keys move; memento, ketama, rendezvous: exactly the keys that "
     "were on server 3 move",
     ClaimKind::deterministic, &run_servers_array_removal},
    {"jumpback-generator-calls",
     "JumpBackHash* needs 1 + (a-1)a/(2a-1) SplitMix64 calls per lookup on average (eq. 25, "
     "a = 2^ceil(log2 n) / n), fewer than 5/3, with the variance of eq. 26.",
     "Otmar Ertl, \"JumpBackHash: Say Goodbye to the Modulo Operation to Distribute Keys "
     "Uniformly to Buckets\" (eq. 25, 26), as reproduced in the article \"JumpBackHash: "
     "Constant-Time Consistent Hashing by Walking Active Indices Backwards\"",
     "measured 1.658, 1.665, 1.046 against eq. 25's 1.658, 1.667, 1.046 at n = 129, 65537, "
     "1000000 (20,000 keys per n); variances within +-0.02 of eq. 26",
     "keys random:200000:2024 per n, SplitMix64 outputs counted; the variance compared with "
     "that of the model whose mean is eq. 25 (1 + B W, B a Bernoulli((a-1)/a), W geometric "
     "with success (2a-1)/a^2)",
     "mean within 4 standard errors of eq. 25; variance within +-0.02 of the model's",
     ClaimKind::statistical, &run_jumpback_generator_calls},
    {"jump-loops-against-harmonic",
     "Jump's loop count follows the harmonic number H_n.",
     kJumpBackArticle,
     "5.38, 11.71, 14.46 loops against H_n 5.44, 11.67, 14.39 at n = 129, 65537, 1000000 "
     "(20,000 keys per n)",
     "fig. 1 with its loop counted, keys random:200000:2024 per n",
     "each mean within 4 standard errors of H_n (variance: the sum of (1/i)(1 - 1/i))",
     ClaimKind::statistical, &run_jump_loops_against_harmonic},
    {"jumpback-monotone",
     "JumpBackHash is monotone: growing n to n + 1 moves keys only into bucket n.",
     kJumpBackArticle,
     "zero monotonicity violations across 2,000 keys x n = 1..3000",
     "keys random:2000:1, n = 1..3000: a violation is ch(k, n + 1) other than ch(k, n) and n; "
     "counted for jumpback, jumpback-indep and jump",
     "exact: 0 violations for each",
     ClaimKind::deterministic, &run_monotonicity},
    {"jumpback-uniform-at-100",
     "JumpBackHash spreads keys uniformly for a given n.",
     kJumpBackArticle,
     "chi-square 87.9 on 99 dof at n = 100",
     "keys random:1000000:100 at n = 100, Pearson's chi-square of the 100 loads",
     "chi-square within 99 +- 4 standard deviations (43..155); the published 87.9 is one draw "
     "of that distribution",
     ClaimKind::statistical, &run_jumpback_uniform_at_100},
    {"shrink-flows-chi-square",
     "When shrinking by several buckets at once, JumpBackHash sends each removed bucket's keys "
     "to the survivors unevenly; jump and independent per-interval streams spread them "
     "uniformly.",
     kJumpBackArticle,
     "chi-square/dof of removed buckets' destinations, JumpBackHash / jump: 16->4 1035 / 1.09, "
     "32->8 791 / 0.88, 256->64 127 / 1.00, 300->100 32.5 / 1.00; independent streams "
     "1.00-1.02; JumpBackHash destination shares 0.49x-1.51x (16->4), 0.46x-2.54x (32->8), "
     "one cell at 18x (256->64) and 17x (300->100); 600,000 random keys",
     "keys random:600000:12345; per removed bucket, Pearson's chi-square of its destination "
     "counts against uniform over the survivors, pooled (sum of chi-square / sum of dof); "
     "shares are a cell's count / its uniform expectation",
     "jumpback within +-10% of each published value; jump and jumpback-indep below 1 + 4 "
     "standard deviations of a uniform chi-square per dof",
     ClaimKind::statistical, &run_shrink_flows},
    {"shard-12-destinations",
     "On 16 -> 4 under JumpBackHash, shard 12 sends 37.5% of its keys to node 2 and 12.5% to "
     "node 3 instead of 25% each.",
     kJumpBackArticle,
     "37.5% to node 2, 12.5% to node 3",
     "the keys of random:2000000:12 on shard 12 at n = 16 (about 125,000), counted by bucket "
     "at n = 4; jumpback-indep for contrast",
     "both shares within 4 standard deviations (binomial) of 37.5% and 12.5%",
     ClaimKind::statistical, &run_shard_12_destinations},
    {"jump-jumpback-agreement",
     "Switching between jump and JumpBackHash reshuffles everything: at n = 100 they agree on "
     "about 1/n of the keys, as chance would.",
     kJumpBackArticle,
     "0.99% of keys agree at n = 100",
     "keys random:1000000:99 at n = 100",
     "within 4 standard deviations (binomial) of 1/n = 1%",
     ClaimKind::statistical, &run_jump_jumpback_agreement},
    {"key-as-v-shortcut",
     "Using the key itself as V (a shortcut of the paper's future work) puts 25x the mean load "
     "on one of 100 buckets with sequential ids and leaves 26 empty; with hashed keys bucket 3 "
     "sees only 128 of the 256 low-byte values.",
     kJumpBackArticle,
     "25x the mean load on one bucket, 26 of 100 empty; bucket 3: 128 of 256 low-byte values",
     "JumpBackHash* with V = the key (W still from SplitMix64) at n = 100: ids 0..99999; then "
     "hashed keys random:1000000:1 (SplitMix64 outputs), distinct key & 0xFF in bucket 3",
     "exact: the largest load rounds to 25x the mean, 26 buckets empty, 128 low-byte values",
     ClaimKind::deterministic, &run_key_as_v_shortcut},
    {"two-level-routing",
     "Routing with one key twice, shard = ch(k, 16) then replica = ch(k, 4), sends shards 0-3 "
     "to replica = shard id under any consistent hash, and under JumpBackHash also skews shards "
     "8-15; salting the second level, ch(mix(k ^ SALT), 4), fixes it.",
     kJumpBackArticle,
     "shards 0-3 pinned to replica = shard id; shards 8-15 skewed under JumpBackHash; salting "
     "fixes it (no numbers given)",
     "keys random:600000:12345; shard and replica under jump, jumpback, jumpback-indep, and "
     "jumpback with the replica from SplitMix64's mix of k ^ 0x5A17ED5EC0DD1E7E; per shard, "
     "the chi-square of its replica counts against uniform over 4, pooled",
     "shards 0-3: every key's replica is its shard id; jumpback shards 8-15 above 10 per dof; "
     "jump and jumpback-indep shards 4-15, and salted shards 0-15, below 1 + 4 standard "
     "deviations per dof",
     ClaimKind::statistical, &run_two_level_routing},
    {"jump-vs-ring-speed",
     "Jump is 3-4x faster than a ring with 1000 points per bucket for up to 1000 buckets.",
     kLampingVeach,
     "3-4x faster (Intel Xeon E5-1650, 2014)",
     "one loop over 65,536 random keys per algorithm, best of 5 passes: jump at n against a "
     "sorted-vector ring of n x 1000 points (binary search), n = 10, 100, 1000; ratio of "
     "times in this run",
     "ring time / jump time between 2.25 and 5 (3-4x, widened by a quarter) at every n",
     ClaimKind::timing, &run_jump_vs_ring_speed},
    {"lookup-times-against-modulo",
     "Lookup times of modulo, jump and JumpBackHash* at n = 128, 129, 10^6 and 2^30.",
     kJumpBackArticle,
     "ns on an Apple M3 Pro (clang -O2): modulo / jump / JumpBackHash* 7.5 / 61.8 / 7.5 at "
     "128, 7.7 / 60.4 / 20.1 at 129, 6.4 / 150.1 / 8.0 at 10^6, 5.9 / 220.7 / 8.4 at 2^30 "
     "(jump 8.2x, 7.8x, 23.5x, 37.4x modulo; JumpBackHash* 1.0x, 2.6x, 1.25x, 1.42x)",
     "one loop over 65,536 random keys per algorithm and n, best of 5 passes; each time "
     "divided by modulo's at the same n",
     "none: the article's times are its machine's; the ratios are shown beside its ratios",
     ClaimKind::timing, &run_lookup_times_against_modulo},
    {"jumpback-matches-divide",
     "At n = 2^i JumpBackHash* costs what a hardware divide costs; at n = 2^i + 1 it is 2.6x "
     "slower than modulo.",
     kJumpBackArticle,
     "7.5 vs 7.5 ns at 128, 7.9 vs 7.9 at 1024; 2.6x modulo at 2^i + 1 (Apple M3 Pro)",
     "one loop over 65,536 random keys per algorithm and n, best of 5 passes, at n = 128, "
     "1024, 129, 1025; JumpBackHash* time / modulo time",
     "0.67..1.5 at 2^i; 1.8..3.5 at 2^i + 1",
     ClaimKind::timing, &run_jumpback_against_divide},
}};
// clang-format on

}  // namespace

std::string_view claim_kind_name(ClaimKind kind) {
  switch (kind) {
    case ClaimKind::deterministic:
      return "deterministic";
    case ClaimKind::statistical:
      return "statistical";
    case ClaimKind::timing:
      return "timing";
  }
  return "timing";
}

std::string_view claim_verdict_name(ClaimVerdict verdict) {
  switch (verdict) {
    case ClaimVerdict::reproduced:
      return "reproduced";
    case ClaimVerdict::differs:
      return "differs";
    case ClaimVerdict::measured_only:
      return "measured-only";
  }
  return "differs";
}

std::span<const Claim> claims() { return kClaims; }

std::string claim_ids() {
  std::string ids;
  for (const Claim& claim : kClaims) {
    if (!ids.empty()) ids += ", ";
    ids += claim.id;
  }
  return ids;
}

Result<const Claim*> find_claim(std::string_view id) {
  for (const Claim& claim : kClaims) {
    if (claim.id == id) return &claim;
  }
  return fail("unknown claim '", printable_input(id), "'; the claims are: ", claim_ids());
}

ClaimResult run_claim(const Claim& claim) { return claim.run(); }

}  // namespace jumphash
