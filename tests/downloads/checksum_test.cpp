#include "mgnify/files/checksum.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "download_support.hpp"
#include "mgnify/files/download_errors.hpp"

using mgnify::files::Checksum;
using mgnify::files::HashAlgorithm;
using mgnify::files::Hasher;

TEST_CASE("hash_bytes matches the FIPS/RFC test vectors for 'abc'", "[checksum]") {
  CHECK(mgnify::files::hash_bytes(HashAlgorithm::md5, "abc") == "900150983cd24fb0d6963f7d28e17f72");
  CHECK(mgnify::files::hash_bytes(HashAlgorithm::sha1, "abc") ==
        "a9993e364706816aba3e25717850c26c9cd0d89d");
  CHECK(mgnify::files::hash_bytes(HashAlgorithm::sha256, "abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(mgnify::files::hash_bytes(HashAlgorithm::sha256, "") ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("Hasher is incremental and reusable after reset", "[checksum]") {
  Hasher h(HashAlgorithm::sha1);
  h.update("a");
  h.update("");
  h.update("bc");
  CHECK(h.hex_digest() == "a9993e364706816aba3e25717850c26c9cd0d89d");
  CHECK_THROWS_AS(h.hex_digest(), std::logic_error);
  CHECK_THROWS_AS(h.update("x"), std::logic_error);
  h.reset();
  h.update("abc");
  CHECK(h.hex_digest() == "a9993e364706816aba3e25717850c26c9cd0d89d");
}

TEST_CASE("hash_file reads the whole file and reports a missing one", "[checksum]") {
  mgnify::test::dl::TempDir dir;
  mgnify::test::dl::write_file(dir / "abc.txt", "abc");
  CHECK(mgnify::files::hash_file(HashAlgorithm::md5, dir / "abc.txt") ==
        "900150983cd24fb0d6963f7d28e17f72");
  CHECK_THROWS_AS(mgnify::files::hash_file(HashAlgorithm::md5, dir / "missing"), mgnify::FileError);
}

TEST_CASE("algorithm names are parsed in the spellings APIs use", "[checksum]") {
  using mgnify::files::parse_hash_algorithm;
  CHECK(parse_hash_algorithm("MD5") == HashAlgorithm::md5);
  CHECK(parse_hash_algorithm("md5") == HashAlgorithm::md5);
  CHECK(parse_hash_algorithm("SHA1") == HashAlgorithm::sha1);
  CHECK(parse_hash_algorithm("sha-1") == HashAlgorithm::sha1);
  CHECK(parse_hash_algorithm("SHA-256") == HashAlgorithm::sha256);
  CHECK(parse_hash_algorithm("sha_256") == HashAlgorithm::sha256);
  CHECK_FALSE(parse_hash_algorithm("crc32").has_value());
  CHECK_FALSE(parse_hash_algorithm("").has_value());
  CHECK(std::string(mgnify::files::hash_algorithm_name(HashAlgorithm::sha256)) == "SHA256");
}

TEST_CASE("Checksum::of validates and normalises the digest", "[checksum]") {
  const auto c = Checksum::of(HashAlgorithm::md5, "900150983CD24FB0D6963F7D28E17F72");
  CHECK(c.hex == "900150983cd24fb0d6963f7d28e17f72");
  CHECK(c.matches("900150983cd24fb0d6963f7d28e17f72"));
  CHECK(c.matches("900150983CD24FB0D6963F7D28E17F72"));
  CHECK_FALSE(c.matches("900150983cd24fb0d6963f7d28e17f73"));
  CHECK_FALSE(c.matches("900150983cd24fb0"));
  CHECK(c.to_string() == "MD5:900150983cd24fb0d6963f7d28e17f72");
  CHECK_THROWS_AS(Checksum::of(HashAlgorithm::sha1, "900150983cd24fb0d6963f7d28e17f72"),
                  mgnify::InvalidArgument);
  CHECK_THROWS_AS(Checksum::of(HashAlgorithm::md5, "z00150983cd24fb0d6963f7d28e17f72"),
                  mgnify::InvalidArgument);
}

TEST_CASE("Checksum::from_record reads v1 file-checksum values", "[checksum]") {
  // v1 sends {"checksum": "", "checksum-algorithm": ""} when it has none.
  CHECK_FALSE(Checksum::from_record("", "").has_value());
  CHECK_FALSE(Checksum::from_record("MD5", "").has_value());
  const auto c = Checksum::from_record("SHA256", mgnify::test::dl::kSmall.sha256);
  REQUIRE(c.has_value());
  CHECK(c->algorithm == HashAlgorithm::sha256);
  CHECK(c->hex == mgnify::test::dl::kSmall.sha256);
  CHECK_THROWS_AS(Checksum::from_record("CRC32", "1234abcd"), mgnify::InvalidArgument);
  CHECK_THROWS_AS(Checksum::from_record("", "1234abcd"), mgnify::InvalidArgument);
}
