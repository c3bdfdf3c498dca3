#pragma once

// Everything for the MGnify API v2: models, filters and V2Client.

#include "mgnify/v2/analyses.hpp"
#include "mgnify/v2/assemblies.hpp"
#include "mgnify/v2/biomes.hpp"
#include "mgnify/v2/client.hpp"
#include "mgnify/v2/datetime.hpp"
#include "mgnify/v2/downloads.hpp"
#include "mgnify/v2/enums.hpp"
#include "mgnify/v2/genome_search.hpp"
#include "mgnify/v2/genomes.hpp"
#include "mgnify/v2/page.hpp"
#include "mgnify/v2/publications.hpp"
#include "mgnify/v2/queries.hpp"
#include "mgnify/v2/runs.hpp"
#include "mgnify/v2/samples.hpp"
#include "mgnify/v2/studies.hpp"
#include "mgnify/v2/super_studies.hpp"
