# The keps CLI is the reference the binding's results are compared with:
# KEPS_CLI names the executable (scripts/test.sh sets it, and sets
# KEPS_REQUIRE_CLI=1 so that a missing CLI fails instead of skipping).
keps_cli <- function() {
  p <- Sys.getenv("KEPS_CLI")
  if (!nzchar(p) || !file.exists(p)) {
    if (nzchar(Sys.getenv("KEPS_REQUIRE_CLI")))
      stop("KEPS_CLI='", p, "' is no keps executable, and KEPS_REQUIRE_CLI is set")
    skip("KEPS_CLI is not set: the comparisons with the keps CLI need its executable")
  }
  p
}

# Runs the CLI; returns its stdout (stderr dropped), failing on a non-zero exit.
run_cli <- function(...) {
  args <- c(...)
  err <- tempfile()
  on.exit(unlink(err))
  out <- suppressWarnings(system2(keps_cli(), shQuote(args), stdout = TRUE, stderr = err))
  status <- attr(out, "status")
  if (!is.null(status) && status != 0)
    stop("keps ", paste(args, collapse = " "), " exited ", status, ": ", paste(readLines(err), collapse = "\n"))
  out
}

cli_json <- function(...) jsonlite::fromJSON(paste(run_cli(..., "--json"), collapse = "\n"),
                                             simplifyVector = TRUE, simplifyDataFrame = FALSE,
                                             simplifyMatrix = FALSE)

# An ARX hierarchy file as text columns, as keps writes it.
read_hierarchy_file <- function(path) {
  h <- read.table(path, sep = ";", header = FALSE, colClasses = "character", quote = "\"",
                  na.strings = character(), comment.char = "", encoding = "UTF-8")
  names(h) <- paste0("level", seq_along(h) - 1L)
  h
}

# A small frame with every kind of column the binding converts.
mixed_frame <- function() {
  latin1 <- "Z\xfcrich"
  Encoding(latin1) <- "latin1"
  data.frame(
    city = factor(c("Zürich", "東京", NA, "Zürich", "São Paulo", "東京"),
                  levels = c("unused", "Zürich", "東京", "São Paulo")),
    place = c(latin1, "東京", "Köln", NA, "a \"quoted\"; field", ""),
    height = c(170.5, NA, 0.1, 1e-5, -0, 182.25),
    age = c(39L, 50L, NA, 28L, 39L, 101L),
    adult = c(TRUE, FALSE, NA, TRUE, TRUE, FALSE),
    day = as.Date(c("2020-03-15", NA, "1999-12-31", "2020-03-15", "2001-01-01", "2024-02-29")),
    stringsAsFactors = FALSE, check.names = FALSE)
}

# Equal values, exactly; integer and double alike (JSON writes 2.0 as 2,
# which jsonlite reads as an integer).
expect_same <- function(object, expected) expect_equal(object, expected, tolerance = 0)
