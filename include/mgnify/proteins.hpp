#pragma once

// Everything for the MGnify Protein lookup service: accessions, models,
// search queries, the client and the FASTA / TSV export.

#include "mgnify/proteins/accession.hpp"
#include "mgnify/proteins/client.hpp"
#include "mgnify/proteins/export.hpp"
#include "mgnify/proteins/models.hpp"
#include "mgnify/proteins/search_query.hpp"
#include "mgnify/proteins/sequence_search.hpp"
