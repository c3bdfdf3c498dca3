// Calls that must not compile: an accession of one kind passed where a client call
// takes another kind. tests/compile_fail/expect_compile.cmake compiles this file twice
// (tests/CMakeLists.txt): the case right_kinds must compile, so that the calls of
// wrong_kinds fail for their wrong kind alone; in wrong_kinds each line marked
// `// error: REGEX` must be an error of its own whose message matches REGEX, and no
// other line may be. Compilers go on after each of these errors, so one compile
// checks every call.

#include <string>
#include <vector>

#include "mgnify/accession.hpp"
#include "mgnify/proteins.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"

void calls(const mgnify::v1::LegacyClient& v1, const mgnify::v2::V2Client& v2,
           const mgnify::proteins::ProteinClient& proteins) {
  const mgnify::StudyAccession study("MGYS00000001");
  const mgnify::RunAccession run("ERR3000000");
  const std::string text = "ERR3000000";
  (void)study;
  (void)run;
  (void)text;
  (void)v1;
  (void)v2;
  (void)proteins;
#if defined(MGNIFY_CASE_right_kinds)
  v1.run(run);
  v1.run(text);
  v1.run("ERR3000000");
  v1.study_samples(study);
  v1.study_samples(study, mgnify::ListOptions());
  v1.get_runs({run, "ERR3000001", text});
  v1.get_runs(std::vector<mgnify::RunAccession>{run});
  v1.get_runs(std::vector<std::string>{text});
  v2.run(run);
  v2.sample("ERS1000000");
  v2.run_analyses(run, mgnify::CallOptions());
  v2.get_runs({run});
  proteins.protein(mgnify::proteins::Accession("MGYP000000000010"));
  proteins.protein("MGYP000000000010");
#elif defined(MGNIFY_CASE_wrong_kinds)
  v1.run(study);                                            // error: deleted
  v1.study_samples(run, mgnify::ListOptions());             // error: deleted
  v1.get_runs({run, study});                                // error: deleted
  v2.sample(run);                                           // error: deleted
  v2.get_runs(std::vector<mgnify::StudyAccession>{study});  // error: deleted
  proteins.protein(study);                                  // error: protein
#else
#error "no MGNIFY_CASE_ defined"
#endif
}
