# Loads a BIOM file as phyloseq users do (phyloseq::import_biom with its
# defaults) and prints what it read as JSON, in the form read_biom.py prints:
# {"rows", "columns", "counts" (rows by columns), "taxonomy" {row: [rank, ...]},
# "sample_metadata" {column: {key: value}}}.
#
# usage: Rscript read_biom.R FILE
# Exits 77 when phyloseq or jsonlite is not installed, so that the test reports a skip.
args <- commandArgs(trailingOnly = TRUE)
for (package in c("phyloseq", "jsonlite")) {
  if (!requireNamespace(package, quietly = TRUE)) quit(status = 77)
}
ps <- suppressMessages(phyloseq::import_biom(args[1]))
otu <- as(phyloseq::otu_table(ps), "matrix")
if (!phyloseq::taxa_are_rows(ps)) otu <- t(otu)
counts <- lapply(seq_len(nrow(otu)), function(i) unname(as.numeric(otu[i, ])))

taxonomy <- list()
tax <- phyloseq::tax_table(ps, errorIfNULL = FALSE)
if (!is.null(tax)) {
  tax <- as(tax, "matrix")
  for (row in rownames(tax)) {
    ranks <- unname(tax[row, ])
    taxonomy[[row]] <- as.list(ranks[!is.na(ranks)])
  }
}

sample_metadata <- list()
samples <- phyloseq::sample_data(ps, errorIfNULL = FALSE)
if (!is.null(samples)) {
  # The columns as phyloseq holds them: as(samples, "data.frame") would rename
  # them through make.names, which phyloseq itself does not do.
  columns <- methods::slot(samples, ".Data")
  keys <- colnames(samples)
  for (i in seq_len(nrow(samples))) {
    values <- lapply(columns, function(column) as.character(column[i]))
    names(values) <- keys
    sample_metadata[[rownames(samples)[i]]] <- values
  }
}

json <- jsonlite::toJSON(
  list(rows = rownames(otu), columns = colnames(otu), counts = counts,
       taxonomy = if (length(taxonomy)) taxonomy else setNames(list(), character()),
       sample_metadata = if (length(sample_metadata)) sample_metadata
                         else setNames(list(), character())),
  auto_unbox = TRUE, digits = NA, null = "null")
cat(json, "\n", sep = "")
