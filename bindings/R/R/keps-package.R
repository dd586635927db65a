#' keps: publish personal microdata safely
#'
#' An interface to libkeps, the C library behind the `keps` command-line
#' tool: k-anonymity (OLA, Mondrian, MDAV), differential privacy, and the
#' published methods combining them. Data frames go in and come out; the
#' library is called directly (no subprocess), and every call states the
#' guarantee it gives.
#'
#' Start with `vignette("sdcmicro", package = "keps")`: how keps's concepts
#' map to sdcMicro's (quasi-identifiers, microaggregation, risk).
#'
#' Errors are R conditions of class `keps_input_error` (bad usage or bad
#' input: the CLI's exit code 2), `keps_job_error` (valid input, but the job
#' cannot be done: exit code 1) or `keps_resource_error` (I/O or memory: exit
#' code 3), all of class `keps_error`; see [keps_error].
#'
#' @useDynLib keps, .registration = TRUE
#' @keywords internal
"_PACKAGE"

#' Version of the keps library
#'
#' @return The version string of the linked libkeps, the one its reports
#'   carry as `keps_version`.
#' @export
#' @examples
#' keps_version()
keps_version <- function() .Call(rk_version)
