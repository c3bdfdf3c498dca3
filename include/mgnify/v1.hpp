#pragma once

// Umbrella header for the legacy v1 API client (mgnify::v1::LegacyClient).

#include "mgnify/v1/analyses.hpp"
#include "mgnify/v1/annotations.hpp"
#include "mgnify/v1/client.hpp"
#include "mgnify/v1/europe_pmc.hpp"
#include "mgnify/v1/genome_annotations.hpp"
#include "mgnify/v1/genome_search.hpp"
#include "mgnify/v1/genomes.hpp"
#include "mgnify/v1/model_base.hpp"
#include "mgnify/v1/pipeline_tools.hpp"
#include "mgnify/v1/query.hpp"
#include "mgnify/v1/resource.hpp"
#include "mgnify/v1/samples.hpp"
#include "mgnify/v1/studies.hpp"
#include "mgnify/v1/text.hpp"
