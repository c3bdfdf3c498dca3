#pragma once

// The research tables: TSV/CSV cells, sample metadata and its columns, abundance matrices, records
// flattened into rows.
// One translation unit of the compiled library (src/tables.cpp); include/mgnify/impl/src.hpp
// explains how bodies are assigned to units.

#include "mgnify/impl/compiled_only.hpp"
#include "mgnify/tables/impl/abundance.ipp"
#include "mgnify/tables/impl/flatten.ipp"
#include "mgnify/tables/impl/sample_columns.ipp"
#include "mgnify/tables/impl/sample_metadata.ipp"
#include "mgnify/tables/impl/table.ipp"
