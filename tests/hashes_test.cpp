// The byte hashes against their specifications' published vectors. (The
// native-only comparisons with zlib, OpenSSL and libhashkit on random bytes
// are in libmemcached_live_test.cpp.)
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "jumphash/hashes.hpp"

namespace jumphash {
namespace {

std::string hex(const std::array<std::uint8_t, 16>& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  for (const std::uint8_t byte : digest) {
    text += kDigits[byte >> 4];
    text += kDigits[byte & 15];
  }
  return text;
}

TEST(Hashes, Md5MatchesTheRfc1321TestSuite) {
  // RFC 1321, appendix A.5.
  EXPECT_EQ(hex(md5("")), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(hex(md5("a")), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(hex(md5("abc")), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(hex(md5("message digest")), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(hex(md5("abcdefghijklmnopqrstuvwxyz")), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(hex(md5("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")),
            "d174ab98d277d9f5a5611c2c9f419d9f");
  EXPECT_EQ(hex(md5("12345678901234567890123456789012345678901234567890123456789012345678901234567890")),
            "57edf4a22be3c955ac49da2e2107b67a");
}

TEST(Hashes, Md5WordsAreLittleEndian) {
  // md5("") = d4 1d 8c d9 | 8f 00 b2 04 | e9 80 09 98 | ec f8 42 7e
  const std::array<std::uint8_t, 16> digest = md5("");
  EXPECT_EQ(md5_word_le(digest, 0), 0xd98c1dd4u);
  EXPECT_EQ(md5_word_le(digest, 1), 0x04b2008fu);
  EXPECT_EQ(md5_word_le(digest, 2), 0x980980e9u);
  EXPECT_EQ(md5_word_le(digest, 3), 0x7e42f8ecu);
}

TEST(Hashes, Crc32MatchesKnownValues) {
  EXPECT_EQ(crc32("123456789"), 0xcbf43926u);  // the CRC-32/ISO-HDLC check value
  EXPECT_EQ(crc32(""), 0u);
  EXPECT_EQ(crc32("a"), 0xe8b7be43u);
  EXPECT_EQ(crc32("The quick brown fox jumps over the lazy dog"), 0x414fa339u);
  // Continuing from a previous crc equals hashing the concatenation.
  EXPECT_EQ(crc32("56789", crc32("1234")), 0xcbf43926u);
}

TEST(Hashes, OneAtATimeMatchesJenkinsAndSignExtends) {
  // Bob Jenkins' published values (ASCII: signed and unsigned bytes agree).
  EXPECT_EQ(one_at_a_time(""), 0u);
  EXPECT_EQ(one_at_a_time("a"), 0xca2e9442u);
  EXPECT_EQ(one_at_a_time("The quick brown fox jumps over the lazy dog"), 0x519e91f5u);
  // Bytes >= 0x80, as libhashkit_one_at_a_time (libmemcached 1.1.4, x86-64)
  // returns them: each byte is sign-extended before it is added.
  EXPECT_EQ(one_at_a_time("\x80"), 0xc31d4e27u);
  EXPECT_EQ(one_at_a_time("\xff"), 0xae65a494u);
  EXPECT_EQ(one_at_a_time("caf\xc3\xa9"), 0xd99c709eu);
  EXPECT_EQ(one_at_a_time("\xff\xfe\x80\x01"), 0xf5c5799au);
}

TEST(Hashes, Murmur3MatchesPublishedVectors) {
  EXPECT_EQ(murmur3_x86_32("", 0), 0u);
  EXPECT_EQ(murmur3_x86_32("", 1), 0x514e28b7u);
  EXPECT_EQ(murmur3_x86_32("hello", 0), 0x248bfa47u);
  EXPECT_EQ(murmur3_x86_32("test", 0), 0xba6bd213u);
  EXPECT_EQ(murmur3_x86_32("The quick brown fox jumps over the lazy dog", 0), 0x2e4ff723u);
  EXPECT_EQ(murmur3_x86_32("Hello, world!", 1234), 0xfaf6cdb3u);
  // Tails of 1 and 3 bytes.
  EXPECT_EQ(murmur3_x86_32("a", 0), 0x3c2569b2u);
  EXPECT_EQ(murmur3_x86_32("abc", 0), 0xb3dd93fau);
  // Bytes >= 0x80 (read unsigned): libhashkit_murmur3 of libmemcached 1.1.4,
  // which seeds MurmurHash3_x86_32 with 0xdeadbeef * length.
  EXPECT_EQ(murmur3_x86_32("\xff\xfe\x80\x01", 0xdeadbeefu * 4), 0x3180c7ffu);
}

TEST(Hashes, XxHashMatchesKnownValues) {
  EXPECT_EQ(xxh64(""), 0xef46db3751d8e999u);
  EXPECT_EQ(xxh64("a"), 0xd24ec4f1a98c6e5bu);
  EXPECT_EQ(xxh64("abc"), 0x44bc2cf5ad770999u);
  EXPECT_EQ(xxh64("abc", 1), 0xbea9ca8199328908u);
  EXPECT_EQ(xxh64("The quick brown fox jumps over the lazy dog"), 0x0b242d361fda71bcu);
  EXPECT_EQ(xxh32(""), 0x02cc5d05u);
  EXPECT_EQ(xxh32("abc"), 0x32d153ffu);
  EXPECT_EQ(xxh32("abc", 1), 0xaa3da8ffu);
  EXPECT_EQ(xxh32("The quick brown fox jumps over the lazy dog"), 0xe85ea4deu);
}

}  // namespace
}  // namespace jumphash
