# The seed as the CLI takes it: a whole number from 0 to 2^63 - 1, passed
# as its decimal text (R's doubles hold whole numbers exactly to 2^53).
seed_text <- function(seed) {
  if (is.null(seed)) return(NULL)
  if (is.character(seed) && length(seed) == 1L && grepl("^[0-9]+$", seed)) {
    txt <- seed
  } else {
    check_number(seed, "seed", 0, 2^53, whole = TRUE)
    txt <- format(seed, scientific = FALSE)
  }
  privacy_warning("seed = ", txt, ": the output is reproducible and therefore NOT private; ",
                  "use a seed for tests and papers only")
  txt
}

#' Secure Laplace and geometric noise
#'
#' Independent noisy releases of `value`, from the library's
#' cryptographically secure generator, by mechanisms that are safe on real
#' hardware (docs/spec.md, section 8). `"laplace"`: the value rounded to a
#' power-of-two grid \eqn{g = 2^{\lceil \log_2 b \rceil - 40}}{g = 2^(ceil(log2 b) - 40)},
#' \eqn{b} = `sensitivity / epsilon`, plus \eqn{g} times an exactly sampled
#' two-sided geometric variable: no floating-point logarithm, so none of the
#' holes Mironov (2012) used to recover the input. The guaranteed epsilon,
#' \eqn{(\lfloor D/g \rfloor + 1)/(b/g)}{(floor(D/g) + 1)/(b/g)} for
#' sensitivity \eqn{D}, is a hair above the requested one and is reported.
#' `"geometric"`: a whole value plus two-sided geometric noise of scale at
#' least `sensitivity / epsilon` (epsilon at most the requested one).
#'
#' Each element of `value` is released independently (so epsilon is per
#' element: releasing one person's value twice costs twice the epsilon);
#' with `count`, the whole vector is released `count` times in a row, which
#' for one value is what `keps noise -n COUNT` prints. With the same `seed`
#' the releases are the CLI's.
#'
#' @param value Numbers to release (finite; whole numbers of magnitude below
#'   \eqn{2^{53}} for `"geometric"`).
#' @param epsilon The privacy parameter (> 0).
#' @param sensitivity How much one person can change a value (> 0; a whole
#'   number for `"geometric"`).
#' @param mechanism `"laplace"` or `"geometric"`.
#' @param count How many times to release the whole vector.
#' @param seed `NULL` (default: fresh randomness from the operating system),
#'   or a whole number for a reproducible stream: the output is then **not
#'   private**, and a `keps_privacy_warning` says so.
#' @return A numeric vector of `length(value) * count` releases with an
#'   attribute `"report"`: a list with the keys of the CLI's JSON report
#'   (`keps_version`, `method`, `parameters`, `seeded`, `mechanism`,
#'   `guarantee` with `model`, `epsilon` and `sensitivity`, `granularity`,
#'   `noise_scale`) except `releases`, which are the vector itself.
#' @export
#' @examples
#' x <- noise(c(42, 17), epsilon = 1)
#' x
#' attr(x, "report")$guarantee$epsilon
#' noise(42, epsilon = 0.5, mechanism = "geometric", count = 3)
noise <- function(value, epsilon, sensitivity = 1, mechanism = c("laplace", "geometric"),
                  count = 1, seed = NULL) {
  mechanism <- check_string(mechanism[1L], "mechanism", c("laplace", "geometric"))
  check_number(epsilon, "epsilon", 1e-300, 1e300)
  check_number(sensitivity, "sensitivity", 1e-300, 1e300)
  check_number(count, "count", 0, 1e9, whole = TRUE)
  if (!is.numeric(value)) input_error("value: expected numbers, got ", class(value)[1L])
  bad <- which(!is.finite(value))
  if (length(bad)) input_error("value[", bad[1L], "] = ", value[bad[1L]], ": expected a finite number")
  geometric <- mechanism == "geometric"
  if (geometric && (sensitivity != floor(sensitivity) || any(value != floor(value)) ||
                    any(abs(value) >= 2^53) || sensitivity >= 2^53))
    input_error("mechanism \"geometric\" releases whole numbers: give whole values and sensitivity ",
                "(below 2^53)")
  seed <- seed_text(seed)
  v <- if (count == 1) as.double(value) else rep(as.double(value), times = count)
  r <- .Call(rk_noise, v, as.double(epsilon), as.double(sensitivity), geometric, seed)
  info <- r[[2L]]
  params <- list(mechanism = mechanism, epsilon = epsilon, sensitivity = sensitivity, count = count)
  if (!is.null(seed)) params$seed <- seed
  attr(r[[1L]], "report") <- list(
    keps_version = keps_version(), method = "noise", parameters = params, seeded = !is.null(seed),
    mechanism = mechanism,
    guarantee = list(model = "epsilon-DP", epsilon = info$epsilon, sensitivity = info$sensitivity,
                     neighbours = "values at most the sensitivity apart", data_dependent = list(),
                     not_covered = list()),
    granularity = info$granularity, noise_scale = info$noise_scale)
  r[[1L]]
}
