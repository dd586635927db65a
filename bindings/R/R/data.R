# Data frames to keps tables and back. The C side (src/convert.c) takes a
# list of factor, character, integer and double vectors; everything else is
# turned into one of those here, or refused.

# The columns of df as the C side takes them. what names df in messages.
as_columns <- function(df, what) {
  if (!is.data.frame(df))
    input_error(what, ": expected a data.frame, got ", class(df)[1L])
  if (!length(df))
    input_error(what, ": the data frame has no columns")
  nm <- names(df)
  if (is.null(nm) || anyNA(nm))
    input_error(what, ": every column needs a name")
  cols <- lapply(seq_along(df), function(j) as_column(df[[j]], nm[j], what))
  names(cols) <- nm
  cols
}

as_column <- function(x, name, what) {
  if (is.factor(x) || is.character(x)) return(x)
  if (inherits(x, "Date")) return(format(x, "%Y-%m-%d"))
  if (inherits(x, "POSIXt")) return(format(x, "%Y-%m-%d %H:%M:%S"))
  if (is.logical(x)) return(as.character(x))
  if (is.integer(x)) return(as.vector(x))
  if (is.double(x)) {
    bad <- which(is.infinite(x))
    if (length(bad))
      input_error(what, ":", bad[1L], ":", name, ": ", x[bad[1L]],
                  " is no number keps accepts (finite, of magnitude at most 1e100)")
    return(as.vector(x))
  }
  input_error(what, ": column '", name, "' is of class ", class(x)[1L],
              "; give factor, character, numeric, logical, Date or POSIXct columns")
}

# A data.frame from the C side's list of factors. like: the caller's data
# frame (or NULL), whose column types the result keeps where the values
# allow: a factor stays a factor (with its levels when they cover the
# values), a numeric column numeric unless keps wrote text into it (a
# generalized range, a suppressed '*'), a Date a Date. Other columns are
# character, or numeric where keps reads them as numbers (attribute
# "numeric" of cols, when given).
as_frame <- function(cols, like = NULL) {
  keps_num <- attr(cols, "numeric")
  out <- lapply(seq_along(cols), function(j) {
    f <- cols[[j]]
    nm <- names(cols)[j]
    orig <- if (!is.null(like) && nm %in% names(like)) like[[nm]] else NULL
    restore(f, orig, isTRUE(keps_num[j]))
  })
  names(out) <- names(cols)
  n <- if (length(cols)) length(cols[[1L]]) else 0L
  structure(out, class = "data.frame", row.names = .set_row_names(n))
}

restore <- function(f, orig, numeric) {
  lv <- levels(f)
  codes <- unclass(f)
  attributes(codes) <- NULL
  if (is.factor(orig)) {
    m <- match(lv, levels(orig))
    if (!anyNA(m)) {
      codes <- m[codes]
      return(structure(codes, levels = levels(orig), class = class(orig)))
    }
    return(f)
  }
  if (inherits(orig, "Date")) {
    d <- as.Date(lv, format = "%Y-%m-%d", optional = TRUE)
    if (!anyNA(d)) return(d[codes])
    return(lv[codes])
  }
  if (is.logical(orig) && all(lv %in% c("TRUE", "FALSE")))
    return(as.logical(lv)[codes])
  if ((is.numeric(orig) && !inherits(orig, "POSIXt")) || (is.null(orig) && numeric)) {
    num <- suppressWarnings(as.numeric(lv))
    if (!anyNA(num) && all(is.finite(num))) {
      if (is.integer(orig) && all(num == round(num)) && all(abs(num) <= .Machine$integer.max))
        num <- as.integer(num)
      return(num[codes])
    }
  }
  lv[codes]
}

#' Read a CSV file as keps reads it
#'
#' Reads a CSV file with libkeps's own reader, the one the `keps` CLI uses:
#' the separator sniffed from the header (`,` `;` tab `|`), quoted fields,
#' any line ending, a UTF-8 BOM; a ragged row or a broken quote is an error
#' naming line and column. A column is numeric when keps reads it as numbers
#' (a leading zero, as in the ZIP code `01097`, makes it a column of codes,
#' read as character); the missing value (`missing`, the empty field by
#' default) becomes `NA`.
#'
#' @param path The file to read.
#' @param delimiter The field separator, one character; `NULL` sniffs it.
#' @param missing The text that stands for a missing value (default: the
#'   empty field).
#' @return A data.frame, its column names as in the file (not made
#'   syntactic).
#' @export
#' @examples
#' adult <- read_csv(keps_example("adult.csv"))
#' str(adult)
read_csv <- function(path, delimiter = NULL, missing = NULL) {
  path <- check_string(path, "path")
  if (!is.null(delimiter)) check_string(delimiter, "delimiter")
  if (!is.null(missing)) check_string(missing, "missing")
  as_frame(.Call(rk_read_csv, path.expand(path), delimiter, missing))
}

#' Paths of the data bundled with keps
#'
#' keps ships the data its examples run on: the UCI Adult data set (30,162
#' records, as the ARX project distributes it, licensed CC BY 4.0), ARX's
#' generalization hierarchies for it (Apache-2.0), and the CASC Census test
#' set (1,080 records of 13 numeric attributes). `ATTRIBUTION.md` in the same
#' directory names sources and licences.
#'
#' @param file A file name, e.g. `"adult.csv"` or
#'   `"adult_hierarchy_age.csv"`; `NULL` lists them.
#' @return The path of the file, or the names of all of them.
#' @export
#' @examples
#' keps_example()
#' head(read.csv(keps_example("adult.csv"), sep = ";", check.names = FALSE))
keps_example <- function(file = NULL) {
  dir <- system.file("extdata", package = "keps", mustWork = TRUE)
  if (is.null(file)) return(setdiff(list.files(dir), "ATTRIBUTION.md"))
  path <- file.path(dir, file)
  if (!file.exists(path))
    input_error("keps_example: no file '", file, "'; there are: ",
                paste(keps_example(), collapse = ", "))
  path
}
