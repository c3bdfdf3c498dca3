# Reads a TSV or CSV file the way R users do and prints what it read as JSON:
# {"columns": [...], "rows": [[cell, ...], ...]}, a cell null where R found no
# value (NA). The R counterpart of read_table.py.
#
# usage: Rscript read_table.R readr|readr-exact|read.delim SEPARATOR FILE
#   readr        readr::read_tsv / read_csv with their defaults
#   readr-exact  the same with trim_ws = FALSE and na = character(), the two
#                defaults that change text (see docs/cli.md), every column text
#   read.delim   base R's read.delim / read.csv with their defaults
# Exits 77 when readr or jsonlite is not installed, so that the test reports a skip.
args <- commandArgs(trailingOnly = TRUE)
reader <- args[1]
separator <- if (args[2] == "tab") "\t" else args[2]
path <- args[3]
if (!requireNamespace("jsonlite", quietly = TRUE)) quit(status = 77)

if (reader == "readr" || reader == "readr-exact") {
  if (!requireNamespace("readr", quietly = TRUE)) quit(status = 77)
  read <- if (separator == "\t") readr::read_tsv else readr::read_csv
  frame <- if (reader == "readr") {
    read(path, show_col_types = FALSE, progress = FALSE)
  } else {
    read(path, progress = FALSE, trim_ws = FALSE, na = character(),
         col_types = readr::cols(.default = readr::col_character()))
  }
} else if (reader == "read.delim") {
  frame <- if (separator == "\t") read.delim(path) else read.csv(path)
} else {
  stop("unknown reader ", reader)
}

# Every cell as text (a column of absent cells is read as logical NA).
cells <- lapply(frame, function(column) {
  text <- as.character(column)
  text[is.na(column)] <- NA
  text
})
rows <- lapply(seq_len(nrow(frame)), function(i) {
  unname(lapply(cells, function(column) if (is.na(column[i])) NULL else column[i]))
})
json <- jsonlite::toJSON(list(columns = names(frame), rows = rows), auto_unbox = TRUE,
                         null = "null")
cat(json, "\n", sep = "")
