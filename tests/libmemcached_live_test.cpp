// Live comparisons with the real libraries Debian packages (native builds
// only, built when libmemcached, zlib and OpenSSL are found):
//  - ketama against libmemcached 1.1.4's own memcached_generate_hash (no
//    server needed: it only computes the continuum and the lookup), both
//    modes, on several node lists and ~2000 random keys per list, bytes
//    >= 0x80 and UTF-8 included;
//  - crc32 against zlib's crc32, md5 against OpenSSL's MD5 and
//    one_at_a_time and murmur3_x86_32 against libhashkit's, on random byte
//    strings of 0..300 bytes.
#include <gtest/gtest.h>
#include <libhashkit-1.0/hashkit.h>
#include <libmemcached-1.0/memcached.h>
#include <openssl/evp.h>
#include <zlib.h>

#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/hashes.hpp"
#include "test_data.hpp"

namespace jumphash {
namespace {

/// Random byte strings of lengths 0..max_length (every byte value).
std::vector<std::string> random_byte_strings(std::size_t count, std::size_t max_length,
                                             std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::size_t> length(0, max_length);
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<std::string> result;
  for (std::size_t i = 0; i < count; ++i) {
    std::string bytes(length(random), '\0');
    for (char& c : bytes) c = static_cast<char>(byte(random));
    result.push_back(std::move(bytes));
  }
  return result;
}

/// ~2000 keys: random bytes (>= 0x80 and NUL included), UTF-8 text and
/// ordinary ASCII keys, all non-empty (memcached keys are).
std::vector<std::string> live_keys() {
  std::vector<std::string> keys;
  for (std::string& bytes : random_byte_strings(1000, 40, 7)) {
    if (!bytes.empty()) keys.push_back(std::move(bytes));
  }
  const std::array<std::string_view, 6> utf8_parts{"café", "日本語キー", "ключ", "😀", "ß", "ü"};
  for (int i = 0; i < 500; ++i) {
    keys.push_back(std::string(utf8_parts[static_cast<std::size_t>(i) % utf8_parts.size()]) +
                   std::to_string(i));
  }
  for (int i = 0; i < 500; ++i) keys.push_back("user:" + std::to_string(i * 7919));
  return keys;
}

/// A libmemcached handle with `nodes` added as memcached_server_add_with_weight
/// would be called for "host:port" servers (a name without a numeric port
/// uses the default 11211), after the ketama behaviour of `mode`.
struct Memcached {
  Memcached(const NodeList& nodes, std::string_view mode) : handle(memcached_create(nullptr)) {
    if (mode == "weighted") {
      EXPECT_EQ(memcached_behavior_set(handle, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1), MEMCACHED_SUCCESS);
    } else {
      EXPECT_EQ(memcached_behavior_set(handle, MEMCACHED_BEHAVIOR_KETAMA, 1), MEMCACHED_SUCCESS);
    }
    for (const Node& node : nodes) {
      std::string host = node.name;
      in_port_t port = MEMCACHED_DEFAULT_PORT;
      const std::size_t colon = node.name.rfind(':');
      if (colon != std::string::npos &&
          node.name.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
        host = node.name.substr(0, colon);
        port = static_cast<in_port_t>(std::stoul(node.name.substr(colon + 1)));
      }
      EXPECT_EQ(memcached_server_add_with_weight(handle, host.c_str(), port, node.weight),
                MEMCACHED_SUCCESS)
          << node.name;
    }
  }
  ~Memcached() { memcached_free(handle); }
  Memcached(const Memcached&) = delete;
  Memcached& operator=(const Memcached&) = delete;

  memcached_st* handle;
};

NodeList nodes_named(const std::vector<std::string>& names, std::vector<std::uint32_t> weights = {}) {
  NodeList nodes;
  for (std::size_t i = 0; i < names.size(); ++i) {
    nodes.push_back({names[i], i < weights.size() ? weights[i] : 1});
  }
  return nodes;
}

void expect_same_as_libmemcached(const std::string& label, const NodeList& nodes) {
  const Algorithm& ketama = **find_algorithm("ketama");
  for (const std::string_view mode : {"weighted", "plain"}) {
    const std::string assignment = "mode=" + std::string(mode);
    const std::vector<std::string_view> assignments{assignment};
    const auto placement = ketama.build(nodes, *OptionValues::parse(ketama.options, assignments, "ketama"));
    ASSERT_TRUE(placement) << placement.error();
    Memcached memcached(nodes, mode);
    int mismatches = 0;
    for (const std::string& key : live_keys()) {
      const std::uint32_t expected = memcached_generate_hash(memcached.handle, key.data(), key.size());
      if ((*placement)->locate(key) != expected && ++mismatches <= 5) {
        ADD_FAILURE() << label << " mode " << mode << ": key of " << key.size()
                      << " bytes goes to " << (*placement)->locate(key) << ", libmemcached says "
                      << expected;
      }
    }
    EXPECT_EQ(mismatches, 0) << label << " mode " << mode;
  }
}

TEST(KetamaLive, MatchesLibmemcachedOnTheVectorConfigs) {
  for (const std::string config :
       {"servers3", "servers10", "servers100", "servers100_minus50", "servers10_minus3",
        "servers4_weighted", "servers10_port11212"}) {
    expect_same_as_libmemcached(config, testing::system_config(config));
  }
}

TEST(KetamaLive, MatchesLibmemcachedOnOtherLists) {
  // 156-point sizes, ports, a weighted plain-mode list and one server.
  expect_same_as_libmemcached("25 numbered", numbered_nodes(25));
  expect_same_as_libmemcached("47 numbered", numbered_nodes(47));
  expect_same_as_libmemcached("ports", nodes_named({"a:1", "b:65535", "c:11211", "d", "e:0"}));
  expect_same_as_libmemcached("weighted", nodes_named({"x:11211", "y:11212", "z"}, {1, 7, 100}));
  expect_same_as_libmemcached("tiny share", nodes_named({"big", "small"}, {100000, 1}));
  expect_same_as_libmemcached("one server", nodes_named({"solo:11211"}));
}

TEST(HashesLive, Crc32EqualsZlib) {
  for (const std::string& bytes : random_byte_strings(300, 300, 1)) {
    const auto expected = static_cast<std::uint32_t>(
        ::crc32(0, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
    EXPECT_EQ(jumphash::crc32(bytes), expected) << bytes.size() << " bytes";
    // Continuing from a previous crc, as zlib's first argument does.
    const auto continued = static_cast<std::uint32_t>(
        ::crc32(expected, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
    EXPECT_EQ(jumphash::crc32(bytes, expected), continued) << bytes.size() << " bytes";
  }
}

TEST(HashesLive, Md5EqualsOpenSsl) {
  for (const std::string& bytes : random_byte_strings(300, 300, 2)) {
    std::array<std::uint8_t, 16> expected{};
    unsigned int length = 0;
    ASSERT_EQ(EVP_Digest(bytes.data(), bytes.size(), expected.data(), &length, EVP_md5(), nullptr), 1);
    ASSERT_EQ(length, 16u);
    EXPECT_EQ(md5(bytes), expected) << bytes.size() << " bytes";
  }
}

TEST(HashesLive, OneAtATimeEqualsLibhashkit) {
  for (const std::string& bytes : random_byte_strings(300, 300, 3)) {
    EXPECT_EQ(one_at_a_time(bytes), libhashkit_one_at_a_time(bytes.data(), bytes.size()))
        << bytes.size() << " bytes";
  }
}

TEST(HashesLive, Murmur3EqualsLibhashkit) {
  // libhashkit_murmur3 is MurmurHash3_x86_32 seeded with 0xdeadbeef * length.
  for (const std::string& bytes : random_byte_strings(300, 300, 4)) {
    const auto seed = static_cast<std::uint32_t>(0xdeadbeefu * bytes.size());
    EXPECT_EQ(murmur3_x86_32(bytes, seed), libhashkit_murmur3(bytes.data(), bytes.size()))
        << bytes.size() << " bytes";
  }
}

}  // namespace
}  // namespace jumphash
