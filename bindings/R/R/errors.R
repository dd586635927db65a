#' Conditions signalled by keps
#'
#' Every error keps signals is a condition of class `keps_error` and of one
#' of three classes that say what went wrong, as the `keps` CLI's exit codes
#' do:
#' \describe{
#'   \item{`keps_input_error`}{bad usage or bad input (exit code 2): a value
#'     out of range, a column that does not exist, a hierarchy that does not
#'     cover the data. The message names the data frame or file, the row
#'     (line) and column where it applies.}
#'   \item{`keps_job_error`}{valid input, but the job cannot be done (exit
#'     code 1): no transformation satisfies the constraints, an implication
#'     the paper proves impossible.}
#'   \item{`keps_resource_error`}{an I/O or resource failure (exit code 3): a
#'     file that cannot be read, out of memory.}
#' }
#' The condition carries `status` (the library's status name) and
#' `exit_code` (what the CLI would exit with). Warnings are of class
#' `keps_warning`; those that say a privacy guarantee is weaker than it
#' looks, or gone (a `seed`), of class `keps_privacy_warning` too.
#'
#' @name keps_error
#' @examples
#' r <- tryCatch(noise(1, epsilon = -1), keps_input_error = function(e) conditionMessage(e))
#' r
NULL

keps_condition <- function(cls, message, status, exit_code, call = NULL) {
  structure(class = c(cls, "keps_error", "error", "condition"),
            list(message = message, call = call, status = status, exit_code = exit_code))
}

# Called from C (rk_raise) with the library's status code.
.keps_raise <- function(code, message) {
  cls <- switch(as.character(code),
                "1" = "keps_job_error",
                "2" = "keps_input_error",
                "keps_resource_error")
  status <- switch(as.character(code), "1" = "job", "2" = "input", "3" = "memory", "io")
  stop(keps_condition(cls, message, status, if (code <= 2L) as.integer(code) else 3L))
}

input_error <- function(...) {
  stop(keps_condition("keps_input_error", paste0(...), "input", 2L))
}

privacy_warning <- function(...) {
  warning(structure(class = c("keps_privacy_warning", "keps_warning", "warning", "condition"),
                    list(message = paste0(...), call = NULL)))
}

# Checks that x is one number in [lo, hi] (whole if asked); returns it.
check_number <- function(x, name, lo = -Inf, hi = Inf, whole = FALSE, lo_open = FALSE) {
  what <- if (whole) "a whole number" else "a number"
  range <- if (is.finite(lo) && is.finite(hi)) {
    sprintf(" %s %s and %s %s", if (lo_open) "above" else "from", format(lo), "at most", format(hi))
  } else if (is.finite(lo)) {
    sprintf(" %s %s", if (lo_open) "above" else "of at least", format(lo))
  } else ""
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) &&
    (if (lo_open) x > lo else x >= lo) && x <= hi && (!whole || x == floor(x))
  if (!ok) {
    got <- if (is.numeric(x) && length(x) == 1L) format(x, digits = 15) else deparse(x)[1L]
    input_error(name, ": expected ", what, range, ", got ", got)
  }
  x
}

check_string <- function(x, name, choices = NULL) {
  if (!is.character(x) || length(x) != 1L || is.na(x))
    input_error(name, ": expected one string")
  if (!is.null(choices) && !(x %in% choices))
    input_error(name, " '", x, "': expected ", paste(choices, collapse = ", "))
  x
}
