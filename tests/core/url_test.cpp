#include "mgnify/http/url.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "core/test_support.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/detail/secrets.hpp"
#include "mgnify/error.hpp"

using mgnify::InvalidArgument;
using mgnify::http::encode_path_segment;
using mgnify::http::encode_query_component;
using mgnify::http::join_url;
using mgnify::http::parse_url;
using mgnify::http::percent_decode;
using mgnify::http::Query;
using mgnify::http::resolve_reference;
using mgnify::http::same_origin;
using mgnify::http::SpaceEncoding;
using mgnify::http::with_query;

TEST_CASE("path segments escape everything but unreserved characters, ':' and '@'", "[url]") {
  CHECK(encode_path_segment("MGYS00000001") == "MGYS00000001");
  CHECK(encode_path_segment("a-b.c_d~e") == "a-b.c_d~e");
  CHECK(encode_path_segment("root:Host-associated:Human") == "root:Host-associated:Human");
  CHECK(encode_path_segment("user@host") == "user@host");
  CHECK(encode_path_segment("Digestive system") == "Digestive%20system");
  CHECK(encode_path_segment("a/b") == "a%2Fb");
  CHECK(encode_path_segment("a+b") == "a%2Bb");
  CHECK(encode_path_segment("a?b#c") == "a%3Fb%23c");
  CHECK(encode_path_segment("50%") == "50%25");
  CHECK(encode_path_segment("x\r\nHost: evil") == "x%0D%0AHost:%20evil");
  CHECK(encode_path_segment("\xC3\xA9") == "%C3%A9");
  CHECK(encode_path_segment("...") == "...");
  CHECK(encode_path_segment("a..b") == "a..b");
}

TEST_CASE("path segments that would change the path are refused before any request", "[url]") {
  CHECK_THROWS_AS(encode_path_segment(""), InvalidArgument);
  CHECK_THROWS_AS(encode_path_segment("."), InvalidArgument);
  CHECK_THROWS_AS(encode_path_segment(".."), InvalidArgument);
  CHECK_THROWS_WITH(encode_path_segment(".."), Catch::Contains("'..'"));
}

TEST_CASE("query components keep ':' and ',' and escape structure characters", "[url]") {
  CHECK(encode_query_component("root:Host-associated:Human:Digestive system") ==
        "root:Host-associated:Human:Digestive%20system");
  CHECK(encode_query_component("a,b,c") == "a,b,c");
  CHECK(encode_query_component("a b", SpaceEncoding::plus) == "a+b");
  CHECK(encode_query_component("a+b") == "a%2Bb");
  CHECK(encode_query_component("a+b c", SpaceEncoding::plus) == "a%2Bb+c");
  CHECK(encode_query_component("k=v&x#y") == "k%3Dv%26x%23y");
  CHECK(encode_query_component("a/b?c") == "a%2Fb%3Fc");
  CHECK(encode_query_component("") == "");
}

TEST_CASE("percent_decode inverts both encoders for every byte", "[url]") {
  std::string all;
  for (int c = 0; c < 256; ++c) all.push_back(static_cast<char>(c));
  CHECK(percent_decode(encode_query_component(all)) == all);
  CHECK(percent_decode(encode_query_component(all, SpaceEncoding::plus), true) == all);
  // A segment may not be "", "." or ".." but may hold every byte.
  CHECK(percent_decode(encode_path_segment(all)) == all);
}

TEST_CASE("percent_decode keeps malformed escapes and '+' unless asked", "[url]") {
  CHECK(percent_decode("%41%62") == "Ab");
  CHECK(percent_decode("%zz") == "%zz");
  CHECK(percent_decode("%4") == "%4");
  CHECK(percent_decode("100%") == "100%");
  CHECK(percent_decode("a+b") == "a+b");
  CHECK(percent_decode("a+b", true) == "a b");
  CHECK(percent_decode("a%2Bb", true) == "a+b");
}

TEST_CASE("Query keeps order and duplicates and encodes only when built", "[url]") {
  Query q{{"lineage", "root:Host-associated:Human"}, {"page", "2"}};
  q.add("include", "a,b");
  q.add("page", "3");
  CHECK(q.params().size() == 4);
  CHECK(q.get("page") == std::optional<std::string>("2"));
  CHECK_FALSE(q.get("absent").has_value());
  CHECK(q.encoded() == "lineage=root:Host-associated:Human&page=2&include=a,b&page=3");

  q.set("page", "9");
  CHECK(q.encoded() == "lineage=root:Host-associated:Human&include=a,b&page=9");
  q.erase("include");
  CHECK(q.encoded() == "lineage=root:Host-associated:Human&page=9");

  Query spaces;
  spaces.add("search", "two words+plus", SpaceEncoding::plus);
  spaces.add("other key", "x y");
  CHECK(spaces.encoded() == "search=two+words%2Bplus&other%20key=x%20y");

  CHECK(Query{}.empty());
  CHECK(Query{}.encoded().empty());
}

TEST_CASE("join_url puts exactly one slash between base and path", "[url]") {
  CHECK(join_url("https://h/api/v1", "studies") == "https://h/api/v1/studies");
  CHECK(join_url("https://h/api/v1/", "studies") == "https://h/api/v1/studies");
  CHECK(join_url("https://h/api/v1//", "//studies/x") == "https://h/api/v1/studies/x");
  CHECK(join_url("https://h/api/v1", "") == "https://h/api/v1");
  CHECK(join_url("https://h/api/v1/", "/") == "https://h/api/v1");
}

TEST_CASE("with_query appends with '?' or '&'", "[url]") {
  CHECK(with_query("https://h/x", Query{}) == "https://h/x");
  CHECK(with_query("https://h/x", Query{{"a", "1"}}) == "https://h/x?a=1");
  CHECK(with_query("https://h/x?p=1", Query{{"a", "b c"}}) == "https://h/x?p=1&a=b%20c");
}

TEST_CASE("parse_url splits absolute http(s) URLs", "[url]") {
  auto p = parse_url("HTTPS://User:pw@API.Example.org:8443/a/b?c=d#frag");
  REQUIRE(p);
  CHECK(p->scheme == "https");
  CHECK(p->host == "api.example.org");
  CHECK(p->port == 8443);
  CHECK(p->path == "/a/b");
  CHECK(p->query == "c=d");

  auto d = parse_url("http://example.org");
  REQUIRE(d);
  CHECK(d->port == 80);
  CHECK(d->path == "/");
  CHECK(d->query.empty());
  CHECK(parse_url("https://example.org?x=1")->port == 443);
  CHECK(parse_url("https://example.org?x=1")->query == "x=1");

  auto v6 = parse_url("http://[::1]:8080/x");
  REQUIRE(v6);
  CHECK(v6->host == "[::1]");
  CHECK(v6->port == 8080);
  CHECK(parse_url("http://[::1]/x")->port == 80);
}

TEST_CASE("parse_url rejects what is not an absolute http(s) URL", "[url]") {
  CHECK_FALSE(parse_url("ftp://example.org/x"));
  CHECK_FALSE(parse_url("/relative/path"));
  CHECK_FALSE(parse_url("example.org/x"));
  CHECK_FALSE(parse_url("://example.org"));
  CHECK_FALSE(parse_url("http://"));
  CHECK_FALSE(parse_url("http:///path"));
  CHECK_FALSE(parse_url("http://host:65536/"));
  CHECK_FALSE(parse_url("http://host:12a/"));
  CHECK_FALSE(parse_url("http://[::1/"));
  CHECK_FALSE(parse_url("http://[::1]x/"));
}

TEST_CASE("same_origin compares scheme, host (any case) and port (defaults filled in)", "[url]") {
  CHECK(same_origin("https://a.org/x", "https://A.ORG/y?z"));
  CHECK(same_origin("https://a.org/x", "https://a.org:443/y"));
  CHECK(same_origin("http://a.org/x", "http://a.org:80/"));
  CHECK(same_origin("https://u@a.org/x", "https://a.org/x"));
  CHECK_FALSE(same_origin("https://a.org/x", "http://a.org/x"));
  CHECK_FALSE(same_origin("https://a.org/x", "https://a.org:8443/x"));
  CHECK_FALSE(same_origin("https://a.org/x", "https://b.org/x"));
  CHECK_FALSE(same_origin("https://a.org/x", "https://a.org.evil.com/x"));
  CHECK_FALSE(same_origin("http://127.0.0.1:8080/", "http://localhost:8080/"));
  CHECK_FALSE(same_origin("not a url", "not a url"));
}

TEST_CASE("resolve_reference follows RFC 3986 section 5.4 (normal examples)", "[url]") {
  const std::string base = "http://a/b/c/d;p?q";
  const std::pair<const char*, const char*> cases[] = {
      {"g", "http://a/b/c/g"},
      {"./g", "http://a/b/c/g"},
      {"g/", "http://a/b/c/g/"},
      {"/g", "http://a/g"},
      {"//g", "http://g"},
      {"?y", "http://a/b/c/d;p?y"},
      {"g?y", "http://a/b/c/g?y"},
      {"#s", "http://a/b/c/d;p?q#s"},
      {"g#s", "http://a/b/c/g#s"},
      {"g?y#s", "http://a/b/c/g?y#s"},
      {";x", "http://a/b/c/;x"},
      {"g;x", "http://a/b/c/g;x"},
      {"g;x?y#s", "http://a/b/c/g;x?y#s"},
      {"", "http://a/b/c/d;p?q"},
      {".", "http://a/b/c/"},
      {"./", "http://a/b/c/"},
      {"..", "http://a/b/"},
      {"../", "http://a/b/"},
      {"../g", "http://a/b/g"},
      {"../..", "http://a/"},
      {"../../", "http://a/"},
      {"../../g", "http://a/g"},
  };
  for (const auto& [ref, expected] : cases) {
    INFO("reference '" << ref << "'");
    CHECK(resolve_reference(base, ref) == expected);
  }
}

TEST_CASE("resolve_reference follows RFC 3986 section 5.4 (abnormal examples)", "[url]") {
  const std::string base = "http://a/b/c/d;p?q";
  const std::pair<const char*, const char*> cases[] = {
      {"../../../g", "http://a/g"},
      {"../../../../g", "http://a/g"},
      {"/./g", "http://a/g"},
      {"/../g", "http://a/g"},
      {"g.", "http://a/b/c/g."},
      {".g", "http://a/b/c/.g"},
      {"g..", "http://a/b/c/g.."},
      {"..g", "http://a/b/c/..g"},
      {"./../g", "http://a/b/g"},
      {"./g/.", "http://a/b/c/g/"},
      {"g/./h", "http://a/b/c/g/h"},
      {"g/../h", "http://a/b/c/h"},
      {"g;x=1/./y", "http://a/b/c/g;x=1/y"},
      {"g;x=1/../y", "http://a/b/c/y"},
      {"g?y/./x", "http://a/b/c/g?y/./x"},
      {"g?y/../x", "http://a/b/c/g?y/../x"},
      {"g#s/./x", "http://a/b/c/g#s/./x"},
      {"g#s/../x", "http://a/b/c/g#s/../x"},
  };
  for (const auto& [ref, expected] : cases) {
    INFO("reference '" << ref << "'");
    CHECK(resolve_reference(base, ref) == expected);
  }
}

TEST_CASE("resolve_reference keeps absolute references and the base's authority spelling",
          "[url]") {
  CHECK(resolve_reference("https://a.org/x/y", "https://b.org/z") == "https://b.org/z");
  CHECK(resolve_reference("https://a.org:8443/x/y", "z") == "https://a.org:8443/x/z");
  CHECK(resolve_reference("https://a.org/api/v1/studies/MGYS1", "MGYS2") ==
        "https://a.org/api/v1/studies/MGYS2");
  CHECK(resolve_reference("http://127.0.0.1:9/test/loop/b", "a") ==
        "http://127.0.0.1:9/test/loop/a");
  // A reference with another scheme is returned as is, so the session can refuse it.
  CHECK(resolve_reference("https://a.org/x", "ftp://b.org/file") == "ftp://b.org/file");
  CHECK_THROWS_AS(resolve_reference("not-absolute", "x"), InvalidArgument);
}

TEST_CASE("Session::url joins the base and an encoded path and query", "[url][session]") {
  mgnify::test::FakeRig rig;
  auto s = rig.session({}, "https://api.example.org/base///");
  CHECK(s->base_url() == "https://api.example.org/base");
  CHECK(s->url("studies/" + encode_path_segment("a b")) ==
        "https://api.example.org/base/studies/a%20b");
  CHECK(s->url("/biomes", Query{{"lineage", "root:Engineered:Wastewater"}, {"q", "x+y"}}) ==
        "https://api.example.org/base/biomes?lineage=root:Engineered:Wastewater&q=x%2By");

  mgnify::ClientOptions o = rig.options();
  o.base_url = "https://override.example.org/v2/";
  mgnify::http::Session overridden(mgnify::with_default_transport(o),
                                   "https://default.example.org");
  CHECK(overridden.base_url() == "https://override.example.org/v2");
}

TEST_CASE("Session refuses bad options before any request", "[url][session]") {
  mgnify::test::FakeRig rig;
  CHECK_THROWS_AS(rig.session({}, "api.example.org/base"), InvalidArgument);
  CHECK_THROWS_AS(rig.session({}, "ftp://api.example.org"), InvalidArgument);
  CHECK_THROWS_AS(rig.session([](mgnify::ClientOptions& o) { o.max_redirects = -1; }),
                  InvalidArgument);
  CHECK_THROWS_AS(rig.session([](mgnify::ClientOptions& o) { o.retry.max_attempts = 0; }),
                  InvalidArgument);
  CHECK_THROWS_AS(rig.session([](mgnify::ClientOptions& o) {
    o.rate_limit.enabled = true;
    o.rate_limit.requests_per_second = 0;
  }),
                  InvalidArgument);
  CHECK(rig.transport->request_count() == 0);
}

TEST_CASE("check_link refuses foreign hosts unless allowed", "[url][session]") {
  mgnify::test::FakeRig rig;
  auto s = rig.session();
  CHECK_NOTHROW(s->check_link("https://api.example.org/base/studies?page=2"));
  CHECK_NOTHROW(s->check_link("https://API.example.org:443/elsewhere"));
  CHECK_THROWS_AS(s->check_link("https://evil.example.com/base/studies"), InvalidArgument);
  CHECK_THROWS_AS(s->check_link("http://api.example.org/base/studies"), InvalidArgument);
  CHECK_THROWS_AS(s->check_link("/base/studies"), InvalidArgument);
  CHECK_THROWS_WITH(s->check_link("https://evil.example.com/x"),
                    Catch::Contains("allow_foreign_links"));

  auto open = rig.session([](mgnify::ClientOptions& o) { o.allow_foreign_links = true; });
  CHECK_NOTHROW(open->check_link("https://evil.example.com/base/studies"));
  CHECK_THROWS_AS(open->check_link("javascript:alert(1)"), InvalidArgument);
}

TEST_CASE("redact_url hides userinfo and credential-like query values only", "[url][secrets]") {
  using mgnify::detail::redact_url;
  CHECK(redact_url("https://user:pw@host.example/a?b=1") == "https://***@host.example/a?b=1");
  CHECK(redact_url("https://host/f.gz?X-Amz-Credential=c&X-Amz-Signature=s&Expires=9") ==
        "https://host/f.gz?X-Amz-Credential=***&X-Amz-Signature=***&Expires=9");
  CHECK(redact_url("https://h/p?sig=abc&page=2&api_key=k&access_token=t#frag") ==
        "https://h/p?sig=***&page=2&api_key=***&access_token=***#frag");
  CHECK(redact_url("https://h/cb#access_token=t&state=1") ==
        "https://h/cb#access_token=***&state=1");
  CHECK(redact_url("https://h/path@with-at?q") == "https://h/path@with-at?q");
  CHECK(redact_url("https://h/p?search=monkey&author=ann") ==
        "https://h/p?search=monkey&author=ann");
  CHECK(redact_url("") == "");
  CHECK(mgnify::detail::redact_urls_in(
            "HTTP 404 for GET https://u:p@h/x?token=t: gone; see 'http://h/y?sig=s'") ==
        "HTTP 404 for GET https://***@h/x?token=***: gone; see 'http://h/y?sig=***'");
  CHECK(std::string(mgnify::Error("at https://u:secret@h/").what()) == "at https://***@h/");
}
