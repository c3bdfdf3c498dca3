// The legacy v1 API mock, built the way emgapi (Django REST framework +
// DRF-JSON:API) builds it: this file holds the route table and the dispatch of
// every GET under the prefix. Links are absolute, use the request's Host, keep
// every query parameter (sorted and re-encoded like DRF's replace_query_param)
// and replace only `page` or `cursor`. The rest, by job: jsonapi (errors, URL
// quoting, the request context, include=), render (resource objects), paging
// (page-number and cursor envelopes), filters, lookups, resource_routes,
// small_endpoints, text_bodies, responses (auth, response cache, gzip).

#include "text_bodies.hpp"

namespace mgnify::mock::v1routes {

void handle_get(const httplib::Request& req, httplib::Response& res, Cache& cache) {
  try {
    const std::string target = req.target;
    const auto qpos = target.find('?');
    const std::string raw_path = target.substr(0, qpos);
    const std::string prefix = kV1Prefix;
    if (raw_path == prefix) {
      res.status = 301;
      res.set_header("Location",
                     prefix + "/" + (qpos == std::string::npos ? "" : target.substr(qpos)));
      return;
    }
    // ?format=csv picks the renderer whatever the Accept header says (DRF's format override).
    const bool csv =
        qpos != std::string::npos &&
        ("&" + target.substr(qpos + 1) + "&").find("&format=csv&") != std::string::npos;
    if (!accepts_json(req) && !csv) {
      throw HttpError{406, error_body("Could not satisfy the request Accept header.", "406",
                                      "not_acceptable", std::string("/data"))};
    }
    const AuthState auth = auth_of(req);
    if (auth.sent && !auth.valid) {
      throw HttpError{401,
                      error_body("Error decoding signature.", "401", "authentication_failed",
                                 std::string("/data")),
                      "application/json",
                      {{"WWW-Authenticate", "Bearer realm=\"api\""}}};
    }
    const std::string host = req.has_header("Host") ? req.get_header_value("Host") : "127.0.0.1";
    Ctx ctx{req, "http://" + host, "http://" + host + prefix, raw_path, {}, auth.valid};
    if (qpos != std::string::npos) {
      const std::string q = target.substr(qpos + 1);
      std::size_t start = 0;
      while (start < q.size()) {
        auto amp = q.find('&', start);
        const std::string part =
            q.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
        if (!part.empty()) {
          const auto eq = part.find('=');
          ctx.query.emplace_back(
              percent_decode(part.substr(0, eq), true),
              eq == std::string::npos ? "" : percent_decode(part.substr(eq + 1), true));
        }
        if (amp == std::string::npos) break;
        start = amp + 1;
      }
    }
    std::vector<std::string> seg;
    {
      const std::string rest = raw_path.substr(prefix.size() + 1);  // after "/v1/"
      std::size_t start = 0;
      while (true) {
        auto slash = rest.find('/', start);
        seg.push_back(percent_decode(
            rest.substr(start, slash == std::string::npos ? std::string::npos : slash - start),
            false));
        if (slash == std::string::npos) break;
        start = slash + 1;
      }
    }
    for (std::size_t k = 1; k < seg.size(); ++k) {
      if (seg[k].empty()) html_not_found();  // trailing slash or "//": not routed
    }
    const bool cacheable = seg[0] != "mydata" && !auth.valid && !csv;
    const bool gz = wants_gzip(req);
    const std::string key = host + target + (gz ? " gzip" : "");
    if (cacheable) {
      if (auto hit = cache.get(key)) {
        send_payload(res, 200, std::move(hit), "application/json", gz);
        return;
      }
    }
    J doc;
    const std::string& top = seg[0];
    if (auto smaller = smaller_routes(ctx, seg))
      doc = std::move(*smaller);
    else if (top.empty() && seg.size() == 1)
      doc = root_doc(ctx);
    else if (top == "studies")
      doc = studies_routes(ctx, seg);
    else if (top == "samples")
      doc = samples_routes(ctx, seg);
    else if (top == "runs")
      doc = runs_routes(ctx, seg);
    else if (top == "assemblies")
      doc = assemblies_routes(ctx, seg);
    else if (top == "analyses")
      doc = analyses_routes(ctx, seg);
    else if (top == "biomes")
      doc = biomes_routes(ctx, seg);
    else if (top == "mydata" && seg.size() == 1) {
      if (!auth.valid) {
        throw HttpError{401,
                        error_body("Authentication credentials were not provided.", "401",
                                   "not_authenticated", std::string("/data")),
                        "application/json",
                        {{"WWW-Authenticate", "Bearer realm=\"api\""}}};
      }
      doc = mydata(ctx);
    } else
      doc = misc_routes(ctx, seg);
    if (csv) {
      if (!doc.contains("data") || !doc["data"].is_array()) not_found();
      send(req, res, 200, csv_of(doc), "text/csv; charset=utf-8");
      return;
    }
    const std::string body = doc.dump();
    auto payload = std::make_shared<const std::string>(gz ? gzip(body) : body);
    if (cacheable) cache.put(key, payload);
    send_payload(res, 200, std::move(payload), "application/json", gz);
  } catch (const HttpError& e) {
    for (const auto& [k, v] : e.headers) res.set_header(k, v);
    send(req, res, e.status, e.body, e.content_type);
  }
}

void handle_token(const httplib::Request& req, httplib::Response& res) {
  auto fail = [&](const std::string& message) {
    send(req, res, 400, J{{"errors", {{"non_field_errors", J::array({message})}}}}.dump(),
         "application/json");
  };
  const auto body = nlohmann::json::parse(req.body, nullptr, false);
  if (body.is_discarded() || !body.is_object()) {
    send(req, res, 400, error_body("JSON parse error", "400", "parse_error", std::string("/data")),
         "application/json");
    return;
  }
  auto user = body.find("username");
  auto pass = body.find("password");
  if (user == body.end() || pass == body.end() || !user->is_string() || !pass->is_string() ||
      user->get<std::string>().empty() || pass->get<std::string>().empty()) {
    fail("Must include \"username\" and \"password\".");
    return;
  }
  if (user->get<std::string>() != d::kTestUser || pass->get<std::string>() != d::kTestPassword) {
    fail("Unable to log in with provided credentials.");
    return;
  }
  res.set_header("Set-Cookie", std::string("EMG_AUTH=") + d::kTestToken + "; HttpOnly; Path=/");
  send(req, res, 200, J{{"data", {{"token", d::kTestToken}}}}.dump(), "application/json");
}

// GET of a listed file's links.self: the file, as the service's nginx sends it
// (octet-stream, attachment), through the files mock's serving code.
void handle_file(const httplib::Request& req, httplib::Response& res, d::DownloadOwner kind,
                 std::optional<std::size_t> owner, const std::string& alias,
                 const std::string& pipeline) {
  if (owner) {
    for (std::size_t k = 0; k < d::download_count(kind); ++k) {
      const d::DownloadFile f = d::download_file(kind, *owner, k);
      if (f.alias != alias || (kind == d::DownloadOwner::study && f.pipeline != pipeline)) continue;
      ServeOptions options;
      options.content_type = "application/octet-stream";
      options.attachment_name = f.alias;
      serve_file(req, res, f.alias, d::download_bytes(kind, *owner, k), options);
      return;
    }
  }
  send(req, res, 404, error_body("Not found.", "404", "not_found", std::nullopt),
       "application/json");
}

void register_routes(MockServer& server) {
  auto cache = std::make_shared<Cache>();
  const std::string prefix = kV1Prefix;
  // Genome search, ahead of the catch-all. Hits carry the genome resources the
  // genomes endpoints serve.
  register_genome_search_routes(
      server,
      {prefix, "", false, [prefix](const httplib::Request& req) {
         const std::string host =
             req.has_header("Host") ? req.get_header_value("Host") : "127.0.0.1";
         const Ctx ctx{req, "http://" + host, "http://" + host + prefix, req.path, {}, false};
         std::vector<SearchableGenome> out;
         for (std::size_t g = 0; g < d::kGenomes; ++g) {
           out.push_back({d::genome_accession(g), d::catalogues()[g / d::kGenomesPerCatalogue].id,
                          genome_json(ctx, g)});
         }
         return out;
       }});
  server.server().Post(
      prefix + "/utils/token/obtain",
      [](const httplib::Request& req, httplib::Response& res) { handle_token(req, res); });
  // Listed files, ahead of the catch-all. Only public studies list files.
  server.server().Get(prefix + "/analyses/([^/]+)/file/([^/]+)",
                      [](const httplib::Request& req, httplib::Response& res) {
                        handle_file(req, res, d::DownloadOwner::analysis,
                                    find_analysis(req.matches[1]), req.matches[2], "");
                      });
  server.server().Get(prefix + "/studies/([^/]+)/pipelines/([^/]+)/file/([^/]+)",
                      [](const httplib::Request& req, httplib::Response& res) {
                        handle_file(req, res, d::DownloadOwner::study,
                                    find_study(req.matches[1], false), req.matches[3],
                                    req.matches[2]);
                      });
  server.server().Get(prefix + "/genomes/([^/]+)/downloads/([^/]+)",
                      [](const httplib::Request& req, httplib::Response& res) {
                        handle_file(req, res, d::DownloadOwner::genome, find_genome(req.matches[1]),
                                    req.matches[2], "");
                      });
  server.server().Get(prefix + "/genome-catalogues/([^/]+)/downloads/([^/]+)",
                      [](const httplib::Request& req, httplib::Response& res) {
                        handle_file(req, res, d::DownloadOwner::catalogue,
                                    find_catalogue(req.matches[1]), req.matches[2], "");
                      });
  server.server().Post(prefix + "/utils/token/verify", [](const httplib::Request& req,
                                                          httplib::Response& res) {
    const auto body = nlohmann::json::parse(req.body, nullptr, false);
    const auto token = body.is_object() ? body.find("token") : body.end();
    if (body.is_object() && token != body.end() && token->is_string() && *token == d::kTestToken) {
      send(req, res, 200, J{{"data", {{"token", *token}}}}.dump(), "application/json");
      return;
    }
    send(req, res, 400, J{{"errors", {{"non_field_errors", {"Error decoding signature."}}}}}.dump(),
         "application/json");
  });
  // Text bodies, ahead of the catch-all.
  server.server().Get(prefix + "/analyses/([^/]+)/contigs/([^/]+)(/annotations)?",
                      [](const httplib::Request& req, httplib::Response& res) {
                        const bool gff = req.matches[3].length() > 0;
                        const std::string analysis = req.matches[1];
                        const std::string contig_id = req.matches[2];
                        const bool antismash = req.get_param_value("antismash") == "True";
                        send_text(
                            req, res,
                            [&] {
                              const std::size_t s = need(find_analysis(analysis));
                              const std::size_t c = need(find_contig(s, contig_id));
                              return gff ? contig_gff(s, c, antismash)
                                         : ">" + contig_id + "\n" + contig_sequence(s, c);
                            },
                            gff ? "text/x-gff3" : "text/x-fasta");
                      });
  server.server().Get(
      prefix + "/analyses/([^/]+)/(gc-distribution|nucleotide-distribution|seq-length|summary)",
      [](const httplib::Request& req, httplib::Response& res) {
        const std::string analysis = req.matches[1];
        const std::string chart = req.matches[2];
        send_text(
            req, res, [&] { return qc_tsv(need(find_analysis(analysis)), chart); }, "text/tsv");
      });
  server.server().Get(
      prefix + "/(runs|assemblies)/([^/]+)/extra-annotations/([^/]+)",
      [](const httplib::Request& req, httplib::Response& res) {
        const bool run = req.matches[1] == "runs";
        const std::string owner = req.matches[2];
        const std::string alias = req.matches[3];
        send_text(
            req, res,
            [&] {
              const std::size_t s = need(run ? find_run(owner) : find_assembly(owner));
              const std::string acc = run ? d::run_accession(s) : d::assembly_accession(s);
              for (std::size_t k = 0; k < kExtraAnnotations; ++k) {
                if (alias == extra_annotation_alias(acc, k)) return extra_annotation_text(acc, k);
              }
              not_found();
            },
            "application/octet-stream");
      });
  // One handler for every GET under the prefix: routing by segments lets the
  // mock answer unrouted paths with Django's HTML 404, like the real service.
  server.server().Get(prefix + "(/.*)?",
                      [cache](const httplib::Request& req, httplib::Response& res) {
                        handle_get(req, res, *cache);
                      });
}

}  // namespace mgnify::mock::v1routes

namespace mgnify::mock {

void register_v1_routes(MockServer& server) { v1routes::register_routes(server); }

}  // namespace mgnify::mock
