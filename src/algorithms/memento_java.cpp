// memento-java: MementoHash as the authors' Java engine computes it
// (ch.supsi.dti.isin.consistenthash.memento.MementoEngine with their
// ch.supsi.dti.isin.hashfunction.HashFunction).
//
// The state and the replacement walk are those of memento.cpp
// (memento_engine.hpp); the hashes differ. With H the chosen 64-bit Java
// `long` hash of bytes:
//   b = Guava consistentHash(H(key), b_array_size)
//   rehash of a removed b with replacer r: |H(key || int32 big-endian b)| % r,
//   where seed b = 0 hashes the key alone (HashFunction.hash(key, 0)).
// H is CRC32 (java.util.zip), MD5 (first 4 digest bytes big-endian),
// xxHash32 seed 0 (commons-codec) or Math.abs(murmur3_x86_32) taken on the
// Java int and then widened, so Integer.MIN_VALUE stays negative.
#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "jumphash/algorithms.hpp"
#include "jumphash/hashes.hpp"
#include "memento_engine.hpp"
#include "node_set_algorithms.hpp"

namespace jumphash::node_set {
namespace {

enum class JavaHash { crc32, md5, xxhash32, murmur3 };

constexpr std::string_view kHashChoices[] = {"crc32", "md5", "xxhash32", "murmur3"};

const OptionSpec kOptions[] = {
    {.name = "hash",
     .default_value = "crc32",
     .description = "the engine's HashFunction: crc32, md5 (first 4 bytes), xxhash32 or murmur3",
     .choices = kHashChoices},
};

/// The engine's HashFunction.hash(bytes): a Java long.
std::int64_t java_hash(JavaHash hash, std::string_view bytes) {
  switch (hash) {
    case JavaHash::crc32:
      return crc32(bytes);
    case JavaHash::md5: {
      const std::array<std::uint8_t, 16> digest = md5(bytes);
      return (std::int64_t{digest[0]} << 24) | (std::int64_t{digest[1]} << 16) |
             (std::int64_t{digest[2]} << 8) | std::int64_t{digest[3]};
    }
    case JavaHash::xxhash32:
      return xxh32(bytes);
    case JavaHash::murmur3:
      break;
  }
  // Math.abs on the int: -2^31 has no positive counterpart and stays negative.
  const auto value = static_cast<std::int32_t>(murmur3_x86_32(bytes));
  return value < 0 ? static_cast<std::int64_t>(
                         static_cast<std::int32_t>(0u - static_cast<std::uint32_t>(value)))
                   : std::int64_t{value};
}

class MementoJavaPlacement final : public MementoPlacement {
 public:
  static Result<std::unique_ptr<Placement>> build(NodeList nodes, const OptionValues& options) {
    const std::string_view name = options.text("hash");
    JavaHash hash = JavaHash::crc32;
    for (std::size_t i = 0; i < std::size(kHashChoices); ++i) {
      if (name == kHashChoices[i]) hash = static_cast<JavaHash>(i);
    }
    return std::unique_ptr<Placement>(new MementoJavaPlacement(std::move(nodes), hash));
  }

  std::unique_ptr<Placement> clone() const override {
    return std::unique_ptr<Placement>(new MementoJavaPlacement(*this));
  }

 private:
  MementoJavaPlacement(NodeList nodes, JavaHash hash)
      : MementoPlacement(std::move(nodes)), hash_(hash) {}
  MementoJavaPlacement(const MementoJavaPlacement&) = default;

  std::uint32_t locate_slot(std::string_view key) const override {
    // consistentHash(long, int): the Java long, as its 64 bits.
    const auto first = static_cast<std::uint32_t>(
        jump_hash_guava(static_cast<std::uint64_t>(java_hash(hash_, key)),
                        static_cast<std::int32_t>(state_.b_array_size())));
    return state_.resolve(first, [this, key](std::uint32_t slot, std::uint32_t working) {
      const std::int64_t seeded =
          slot == 0 ? java_hash(hash_, key) : java_hash(hash_, with_seed(key, slot));
      const std::uint64_t magnitude =
          seeded < 0 ? 0 - static_cast<std::uint64_t>(seeded) : static_cast<std::uint64_t>(seeded);
      return static_cast<std::uint32_t>(magnitude % working);
    });
  }

  /// key || slot as a big-endian int32 (ByteBuffer.putInt).
  static std::string with_seed(std::string_view key, std::uint32_t slot) {
    std::string bytes(key);
    for (int shift = 24; shift >= 0; shift -= 8) {
      bytes.push_back(static_cast<char>((slot >> shift) & 0xFF));
    }
    return bytes;
  }

  JavaHash hash_;
};

}  // namespace

const Algorithm kMementoJava{
    .id = AlgorithmId::memento_java,
    .kind = AlgorithmKind::node_set,
    .name = "memento-java",
    .title = "MementoHash (Java engine)",
    .paper =
        "Coluzzi, Brocco, Antonucci, Leidi, MementoHash: A Stateful, Minimal Memory, Best "
        "Performing Consistent Hash Algorithm (IEEE/ACM Transactions on Networking, 2024; "
        "arXiv:2306.09783); the authors' Java engine (Guava consistentHash, CRC32, MD5, "
        "xxHash32 or MurmurHash3)",
    .expected_cost =
        "one hash and a Guava jump hash (about ln b steps over b slots), then one more hash "
        "each time it lands on a removed slot (rare while few are removed)",
    .memory =
        "one table entry (slot, replacer, previous removed: 12 bytes) per removed node, plus 4 "
        "bytes per slot and per node mapping slots to nodes",
    .consistent = true,
    .removes_any_bucket = true,
    .weights = false,
    .build = &MementoJavaPlacement::build,
    .options = kOptions,
    .keeps_history = true,
};

}  // namespace jumphash::node_set
