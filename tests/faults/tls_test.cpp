// TLS is always verified. A CA and a server certificate for 127.0.0.1 are made
// at test time (OpenSSL, in process), an HTTPS server presents them, and the
// clients must refuse it by default, accept it given the CA bundle, and still
// refuse it under a host name the certificate does not name.

#include <httplib.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "faults/fault_support.hpp"

using namespace mgnify::test::faults;
namespace pdata = mgnify::mock::proteins_data;
using Kind = mgnify::TransportError::Kind;

namespace {

struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct CertFree {
  void operator()(X509* c) const { X509_free(c); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;
using Cert = std::unique_ptr<X509, CertFree>;

void add_ext(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  if (ext == nullptr) throw std::runtime_error("X509V3_EXT_conf_nid failed");
  X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
}

Cert make_cert(EVP_PKEY* key, const char* cn, long serial, X509* issuer, EVP_PKEY* issuer_key,
               bool ca) {
  Cert cert(X509_new());
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 24 * 3600);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn),
                             -1, -1, 0);
  X509* signer = issuer != nullptr ? issuer : cert.get();
  X509_set_issuer_name(cert.get(), X509_get_subject_name(signer));
  if (ca) {
    add_ext(cert.get(), signer, NID_basic_constraints, "critical,CA:TRUE");
    add_ext(cert.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign");
    add_ext(cert.get(), signer, NID_subject_key_identifier, "hash");
  } else {
    add_ext(cert.get(), signer, NID_basic_constraints, "critical,CA:FALSE");
    add_ext(cert.get(), signer, NID_key_usage, "critical,digitalSignature");
    add_ext(cert.get(), signer, NID_ext_key_usage, "serverAuth");
    add_ext(cert.get(), signer, NID_subject_alt_name, "IP:127.0.0.1");
    add_ext(cert.get(), signer, NID_authority_key_identifier, "keyid");
  }
  if (X509_sign(cert.get(), issuer_key, EVP_sha256()) == 0)
    throw std::runtime_error("X509_sign failed");
  return cert;
}

void write_pem(const std::filesystem::path& path, X509* cert, EVP_PKEY* key) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) throw std::runtime_error("cannot write " + path.string());
  const bool ok = cert != nullptr
                      ? PEM_write_X509(f, cert) == 1
                      : PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr) == 1;
  std::fclose(f);
  if (!ok) throw std::runtime_error("PEM write failed");
}

/// A throwaway CA, a server certificate it signed for IP 127.0.0.1, and an
/// HTTPS server presenting it with one Protein-service route.
class TlsServer {
 public:
  TlsServer() {
    dir_ = std::filesystem::temp_directory_path() /
           ("mgnify-tls-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    std::filesystem::create_directories(dir_);
    Key ca_key(EVP_EC_gen("P-256"));
    Key server_key(EVP_EC_gen("P-256"));
    if (!ca_key || !server_key) throw std::runtime_error("EVP_EC_gen failed");
    Cert ca = make_cert(ca_key.get(), "mgnify-cpp test CA", 1, nullptr, ca_key.get(), true);
    Cert leaf = make_cert(server_key.get(), "127.0.0.1", 2, ca.get(), ca_key.get(), false);
    write_pem(ca_path(), ca.get(), nullptr);
    write_pem(dir_ / "server.pem", leaf.get(), nullptr);
    write_pem(dir_ / "server.key", nullptr, server_key.get());

    server_ = std::make_unique<httplib::SSLServer>((dir_ / "server.pem").c_str(),
                                                   (dir_ / "server.key").c_str());
    if (!server_->is_valid())
      throw std::runtime_error("SSLServer rejected the generated certificate");
    const std::string prefix = mgnify::mock::kProteinsPrefix;
    server_->Get(prefix + R"(/protein/(MGYP\d{12}))",
                 [](const httplib::Request& req, httplib::Response& res) {
                   const auto number = pdata::parse_accession(req.matches[1]);
                   res.set_content(pdata::protein_record(*number).dump(), "application/json");
                 });
    port_ = server_->bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_->listen_after_bind(); });
    for (int i = 0; i < 2000 && !server_->is_running(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~TlsServer() {
    server_->stop();
    thread_.join();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::filesystem::path ca_path() const { return dir_ / "ca.pem"; }
  std::string url(const std::string& host) const {
    return "https://" + host + ":" + std::to_string(port_) + mgnify::mock::kProteinsPrefix;
  }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
  std::filesystem::path dir_;
  std::unique_ptr<httplib::SSLServer> server_;
  std::thread thread_;
  int port_ = 0;
};

mgnify::ClientOptions tls_options(const std::string& base) {
  mgnify::ClientOptions o;
  o.base_url = base;
  o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
  o.clock = std::make_shared<mgnify::testing::FakeClock>();
  o.request_timeout = std::chrono::seconds(10);
  return o;
}

}  // namespace

TEST_CASE("TLS: a certificate from an unknown CA is refused, typed and not retried",
          "[security][tls]") {
  TlsServer server;
  const std::string acc = pdata::accession(pdata::representative_numbers()[0]);
  SECTION("proteins") {
    mgnify::proteins::ProteinClient client(tls_options(server.url("127.0.0.1")));
    try {
      client.protein(acc);
      FAIL("the self-signed chain was accepted");
    } catch (const mgnify::TransportError& e) {
      CHECK(e.kind() == Kind::tls);
      CHECK(e.attempts() == 1);
      CHECK(e.url() == server.url("127.0.0.1") + "/protein/" + acc);
    }
  }
  SECTION("v1 and v2 refuse before any HTTP is spoken") {
    auto o = tls_options(server.url("127.0.0.1"));
    o.base_url = server.url("127.0.0.1");
    CHECK_THROWS_MATCHES(
        mgnify::v1::LegacyClient(o).study("MGYS00000001"), mgnify::TransportError,
        Catch::Predicate<mgnify::TransportError>(
            [](const mgnify::TransportError& e) { return e.kind() == Kind::tls; }));
    CHECK_THROWS_MATCHES(
        mgnify::v2::V2Client(o).study("MGYS00000001"), mgnify::TransportError,
        Catch::Predicate<mgnify::TransportError>(
            [](const mgnify::TransportError& e) { return e.kind() == Kind::tls; }));
  }
}

TEST_CASE("TLS: with the CA bundle the same server is trusted", "[security][tls]") {
  TlsServer server;
  auto o = tls_options(server.url("127.0.0.1"));
  o.ca_bundle_path = server.ca_path().string();
  mgnify::proteins::ProteinClient client(o);
  const auto number = pdata::representative_numbers()[3];
  CHECK(client.protein(pdata::accession(number)).mgyp == pdata::accession(number));
}

TEST_CASE("TLS: the CA bundle does not excuse a host name the certificate does not name",
          "[security][tls]") {
  TlsServer server;
  // The certificate names IP 127.0.0.1 only; "localhost" reaches the same socket.
  auto o = tls_options(server.url("localhost"));
  o.ca_bundle_path = server.ca_path().string();
  mgnify::proteins::ProteinClient client(o);
  try {
    client.protein(pdata::accession(pdata::representative_numbers()[0]));
    FAIL("a certificate for 127.0.0.1 was accepted for localhost");
  } catch (const mgnify::TransportError& e) {
    CHECK(e.kind() == Kind::tls);
    CHECK(e.attempts() == 1);
  }
}

TEST_CASE("TLS: a CA bundle that does not exist is an error, never a fallback to no verification",
          "[security][tls]") {
  TlsServer server;
  auto o = tls_options(server.url("127.0.0.1"));
  o.ca_bundle_path = "/nonexistent/mgnify-ca.pem";
  mgnify::proteins::ProteinClient client(o);
  try {
    client.protein(pdata::accession(pdata::representative_numbers()[0]));
    FAIL("no error");
  } catch (const mgnify::TransportError& e) {
    CHECK(e.kind() == Kind::tls);
  }
}
