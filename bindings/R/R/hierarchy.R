# Generalization hierarchies: ARX's layout as data frames.

hier_frame <- function(cols) {
  names(cols) <- paste0("level", seq_along(cols) - 1L)
  # the empty field is the missing value's cell (NA), whatever the table's token
  out <- lapply(cols, function(f) {
    lv <- levels(f)
    lv[lv == ""] <- NA
    lv[f]
  })
  structure(out, class = "data.frame", row.names = .set_row_names(length(out[[1L]])))
}

#' Generalization hierarchies
#'
#' A hierarchy says how a quasi-identifier's values are generalized, in
#' ARX's layout: one row per original value, column `j` the value at level
#' `j` (column 1 the original values, the last column the top, usually
#' `"*"`). keps takes a hierarchy as a data.frame (or matrix) in that layout
#' or as the path of an ARX hierarchy CSV file (`;`-separated, no header).
#'
#' `hierarchy_read()` reads and checks a file; `as_hierarchy()` checks a
#' data.frame, a matrix or a file and returns the hierarchy as keps uses it.
#' The checks are the library's: unique leaves, consistency (values merged at
#' one level stay merged above), no empty cell except in the missing value's
#' row. A row may end early (`NA` in its last columns) when it is a
#' leaf-to-root path of an unbalanced tree ending at the same root as the
#' others: its leaf is then repeated on the levels it lacks, as in a file.
#' The missing value is `NA` in the first column (the row `NA, NA, "*"`).
#'
#' @param path An ARX hierarchy CSV file.
#' @param delimiter Its field separator; `NULL` sniffs it from the first row.
#' @param h A data.frame or character matrix in ARX's layout, or a path.
#' @param name How messages name the hierarchy (default: the argument).
#' @return A data.frame of character columns `level0`, `level1`, ... with one
#'   row per original value.
#' @seealso [hierarchy_build()] to build one from the data.
#' @export
#' @examples
#' h <- hierarchy_read(keps_example("adult_hierarchy_marital-status.csv"))
#' h
#' as_hierarchy(data.frame(c("Male", "Female"), c("*", "*")))
hierarchy_read <- function(path, delimiter = NULL) {
  path <- check_string(path, "path")
  if (!is.null(delimiter)) check_string(delimiter, "delimiter")
  hier_frame(.Call(rk_hierarchy_read, path.expand(path), delimiter))
}

#' @rdname hierarchy_read
#' @export
as_hierarchy <- function(h, name = NULL) {
  if (is.null(name)) name <- deparse(substitute(h))[1L]
  if (is.character(h) && length(h) == 1L && is.null(dim(h)))
    return(hierarchy_read(h))
  if (is.matrix(h)) h <- as.data.frame(h, stringsAsFactors = FALSE)
  if (!is.data.frame(h) || !length(h))
    input_error(name, ": a hierarchy is a data.frame or matrix in ARX's layout, or a file")
  cols <- lapply(as_columns(h, name), function(x) {
    if (is.factor(x)) levels(x)[x] else if (is.character(x)) x else {
      # numbers written as the data's are (keps_format_number), NA stays NA
      out <- .Call(rk_roundtrip, list(x), "v", NULL, name)[[1L]]
      levels(out)[out]
    }
  })
  hier_frame(.Call(rk_hierarchy_check, unname(cols), name))
}

#' Build a hierarchy from the data
#'
#' Builds a generalization hierarchy from a column's own values, as ARX's
#' builders do (docs/spec.md, section 1, "Hierarchy builders"); the result
#' can be edited and given back as any other hierarchy. `hierarchy_build()`
#' takes the builder as the text a `--qi NAME:SPEC` of the CLI takes;
#' the others spell out one builder each:
#' \describe{
#'   \item{intervals}{`hierarchy_interval(x, c(5, 10, 20))`: `[20-25[`,
#'     `[20-30[`, `[20-40[`, `*`; each width a multiple of the previous, so
#'     that intervals nest.}
#'   \item{masking}{`hierarchy_mask(x, 1:3)`: `01097`, `0109*`, `010**`,
#'     `01***`, `*` (values padded with `*` to the longest).}
#'   \item{runs of ordered values}{`hierarchy_order(x, c(2, 4))`: `[a, b]`
#'     groups of 2 then 4 consecutive sorted values.}
#'   \item{dates}{`hierarchy_date(x, c("month", "year", "decade"))` for ISO
#'     dates (a Date column or `"2020-03-15"` text); units day, month,
#'     quarter, year, decade, century.}
#' }
#' `bottom` and `top` code values below `bottom` as `<bottom` and values at
#' or above `top` as `>=top` on every level (ARX's labels); alone
#' (`hierarchy_build(x, "top=90")`) they make a one-level coding.
#'
#' @param x A vector (the column's values), or a data.frame with `column`.
#' @param spec The builder, as the CLI's `--qi NAME:SPEC` writes it:
#'   `"interval=5,10,20"`, `"interval=5,10,bottom=18,top=90"`,
#'   `"mask=1,2,3"`, `"order=2,4"`, `"date=month,year"`, `"top=90"`.
#' @param column The column of `x` when `x` is a data.frame.
#' @param numeric For `order`: `TRUE` sorts values as numbers, `FALSE` as
#'   text (UTF-8 byte order); `NA` (default) as keps infers the column's type.
#' @param widths Interval widths, each a multiple of the previous.
#' @param counts Characters masked from the right at each level, increasing.
#' @param runs Values per run at each level (at least 2), each a multiple of
#'   the previous.
#' @param units Date units, coarser at every level: `"day"`, `"month"`,
#'   `"quarter"`, `"year"`, `"decade"`, `"century"`.
#' @param bottom,top Bottom and top coding bounds (numbers, or ISO dates for
#'   `hierarchy_date`); `NULL` for none.
#' @return A hierarchy: a data.frame of character columns `level0`,
#'   `level1`, ..., one row per distinct value (in the builder's order:
#'   numbers by value, text by bytes, dates by time; the missing value last).
#' @seealso [hierarchy_read()], [as_hierarchy()].
#' @export
#' @examples
#' adult <- read_csv(keps_example("adult.csv"))
#' head(hierarchy_interval(adult$age, c(5, 10, 20), top = 80))
#' hierarchy_build(adult, "mask=1,2", column = "salary-class")
#' hierarchy_date(as.Date(c("2020-03-15", "2021-07-01")), c("month", "year"))
hierarchy_build <- function(x, spec, column = NULL, numeric = NA) {
  spec <- check_string(spec, "spec")
  if (is.data.frame(x)) {
    column <- check_string(column, "column")
    if (!(column %in% names(x)))
      input_error("column '", column, "' is not in the data frame; its columns are: ",
                  paste(names(x), collapse = ", "))
    x <- x[[column]]
  } else {
    column <- "x"
  }
  if (!is.logical(numeric) || length(numeric) != 1L)
    input_error("numeric: expected TRUE, FALSE or NA")
  col <- list(as_column(x, column, column))
  hier_frame(.Call(rk_hierarchy_build, col, column, spec, numeric, NULL, column))
}

spec_numbers <- function(x, name, what) {
  if (!is.numeric(x) || !length(x) || anyNA(x) || any(!is.finite(x)))
    input_error(name, ": expected ", what)
  paste(as.character(x), collapse = ",")
}

spec_bounds <- function(bottom, top) {
  b <- function(v, key) {
    if (is.null(v)) return(NULL)
    if (inherits(v, "Date")) v <- format(v, "%Y-%m-%d")
    if (length(v) != 1L || is.na(v)) input_error(key, ": expected one value")
    paste0(key, "=", as.character(v))
  }
  c(b(bottom, "bottom"), b(top, "top"))
}

build_with <- function(x, head, bottom = NULL, top = NULL, numeric = NA) {
  hierarchy_build(x, paste(c(head, spec_bounds(bottom, top)), collapse = ","), numeric = numeric)
}

#' @rdname hierarchy_build
#' @export
hierarchy_interval <- function(x, widths, bottom = NULL, top = NULL) {
  build_with(x, paste0("interval=", spec_numbers(widths, "widths", "positive numbers")), bottom, top)
}

#' @rdname hierarchy_build
#' @export
hierarchy_mask <- function(x, counts) {
  build_with(x, paste0("mask=", spec_numbers(counts, "counts", "whole numbers")))
}

#' @rdname hierarchy_build
#' @export
hierarchy_order <- function(x, runs, numeric = NA) {
  build_with(x, paste0("order=", spec_numbers(runs, "runs", "whole numbers")), numeric = numeric)
}

#' @rdname hierarchy_build
#' @export
hierarchy_date <- function(x, units, bottom = NULL, top = NULL) {
  if (!is.character(units) || !length(units) || anyNA(units))
    input_error("units: expected date units such as c(\"month\", \"year\")")
  build_with(x, paste0("date=", paste(units, collapse = ",")), bottom, top)
}
