#pragma once

// Genome search, shared by the v1 and v2 clients (both services speak the same
// wire format for it):
// - COBS fragment search, synchronous: a CobsQuery in, typed hits out;
// - sourmash gather, a job: submit signatures (GatherRequest) -> GatherJob
//   handle -> poll GatherStatus until a final state (wait_for_job: backoff,
//   deadline, cancel) -> results as CSV rows (GatherResults) or a file.
// Every model lists its fields once; unknown members and unknown status texts
// survive decoding and encode back as received.

// The declarations are in three headers of genome_search/: models.hpp, gather_csv.hpp (the result
// CSV) and job_wait.hpp (the polling loop the clients' calls share).

#include "mgnify/genome_search/gather_csv.hpp"
#include "mgnify/genome_search/job_wait.hpp"
#include "mgnify/genome_search/models.hpp"
