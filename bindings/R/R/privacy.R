# The privacy calculators of `keps privacy`: the numbers are the library's
# (keps/safela.h, keps/rr.h); the lists carry the keys of the CLI's JSON.

opt_number <- function(x, name, ...) if (is.null(x)) NULL else check_number(x, name, ...)

delta_gap <- function(beta, epsilon, epsilon_prime) {
  check_number(beta, "beta", 0, 1, lo_open = TRUE)
  if (beta >= 1) input_error("beta: expected a probability strictly between 0 and 1, got ", beta)
  opt_number(epsilon_prime, "epsilon_prime", 0, .Machine$double.xmax)
  opt_number(epsilon, "epsilon", 0, .Machine$double.xmax)
  if (!is.null(epsilon) && is.null(epsilon_prime))
    input_error("epsilon needs epsilon_prime too (delta depends on epsilon - epsilon_prime)")
  eps_prime <- if (is.null(epsilon_prime)) 0 else epsilon_prime
  list(eps_prime = eps_prime, gap = if (is.null(epsilon)) NA_real_ else epsilon - eps_prime)
}

delta_report <- function(r, beta, eps_prime) {
  list(delta = r$delta, log_delta = r$log_delta, k = r$k, beta = beta,
       epsilon = eps_prime + r$epsilon_gap, epsilon_prime = eps_prime, epsilon_gap = r$epsilon_gap,
       gamma = r$gamma, n_min = r$n_min, n_argmax = r$n_argmax, n_last = r$n_last, capped = r$capped)
}

#' Privacy calculators
#'
#' The calculators of `keps privacy`, each returning a list with the keys of
#' the CLI's JSON output; `result` is the number asked for.
#' \describe{
#'   \item{`privacy_delta()`}{the \eqn{\delta} of \eqn{\epsilon}-safe
#'     k-anonymization under sampling (Li, Qardaji and Su 2012; docs/spec.md,
#'     section 6) for `k` and the sampling probability `beta`; `epsilon` and
#'     `epsilon_prime` (the exponential mechanism's) give the gap
#'     \eqn{\epsilon - \epsilon'}, by default \eqn{-\ln(1-\beta)}.}
#'   \item{`privacy_min_k()`}{the smallest k (up to `max_k`) whose
#'     \eqn{\delta} is at most `delta`.}
#'   \item{`privacy_rr_epsilon()`}{the exact \eqn{\epsilon} of randomized
#'     response keeping the true value with probability `p` over `categories`
#'     values (Ekenstedt et al.; section 7), or with `epsilon` the largest
#'     such `p`.}
#'   \item{`privacy_rr_t()`}{the multiplicative t of RR-t keeping with
#'     probability `pt` over the distribution `frequencies` (or `categories`
#'     uniform values), or with `t` the largest `pt`.}
#'   \item{`privacy_implies()`}{translates between \eqn{\epsilon}-LDP
#'     (`"ldp"`), multiplicative t-closeness with classes of at least k
#'     records (`"tclose"`), (k,t)-closeness (`"kt"`) and
#'     (k,\eqn{\epsilon})-DP (`"kdp"`) by the theorems of Ekenstedt et al.;
#'     a direction the paper proves impossible is a `keps_job_error`.}
#' }
#' @param k For `privacy_delta`: k of the k-anonymization (1 to 1e8). For
#'   `privacy_implies`: the group size of the model you have (the target's
#'   when `from = "ldp"`).
#' @param beta Sampling probability, strictly between 0 and 1.
#' @param epsilon,epsilon_prime For delta and min-k: the guarantee's
#'   \eqn{\epsilon} and the exponential mechanism's \eqn{\epsilon'}. For
#'   `privacy_rr_epsilon`: the target epsilon (instead of `p`). For
#'   `privacy_implies`: the level of an `"ldp"` or `"kdp"` source.
#' @param delta The target \eqn{\delta} of `privacy_min_k`.
#' @param max_k The largest k `privacy_min_k` tries.
#' @param p Keep probability of RR-LDP.
#' @param categories Number of categories of the sensitive attribute.
#' @param pt Keep probability of RR-t.
#' @param t For `privacy_rr_t`: the target t (instead of `pt`); for
#'   `privacy_implies`: the level of a `"tclose"` or `"kt"` source (>= 1).
#' @param frequencies The attribute's distribution (probabilities or counts;
#'   normalized).
#' @param from,to The model you have and the model you want: `"ldp"`,
#'   `"tclose"`, `"kt"` or `"kdp"`.
#' @param records The number of records in the data set.
#' @param to_k The target's group size when both sides have one.
#' @return A list; `result` holds the answer.
#' @export
#' @examples
#' privacy_delta(k = 75, beta = 0.7)$delta
#' privacy_min_k(delta = 1e-6, beta = 0.7)$result
#' privacy_rr_epsilon(p = 0.6, categories = 4)$epsilon
#' privacy_rr_t(pt = 0.5, frequencies = c(0.2, 0.3, 0.5))$t
#' privacy_implies(from = "ldp", epsilon = 1, to = "kt", k = 5, records = 100)$result
privacy_delta <- function(k, beta, epsilon = NULL, epsilon_prime = NULL) {
  check_number(k, "k", 1, 1e8, whole = TRUE)
  g <- delta_gap(beta, epsilon, epsilon_prime)
  r <- .Call(rk_safela_delta, as.double(k), as.double(beta), as.double(g$gap))
  c(list(calculator = "delta", result = r$delta), delta_report(r, beta, g$eps_prime))
}

#' @rdname privacy_delta
#' @export
privacy_min_k <- function(delta, beta, epsilon = NULL, epsilon_prime = NULL, max_k = 100000) {
  check_number(delta, "delta", 0, 1)
  check_number(max_k, "max_k", 1, 1e8, whole = TRUE)
  g <- delta_gap(beta, epsilon, epsilon_prime)
  r <- .Call(rk_safela_min_k, as.double(delta), as.double(beta), as.double(g$gap), as.double(max_k))
  c(list(calculator = "min-k", result = r$k, target_delta = delta), delta_report(r, beta, g$eps_prime))
}

#' @rdname privacy_delta
#' @export
privacy_rr_epsilon <- function(categories, p = NULL, epsilon = NULL) {
  check_number(categories, "categories", 1, 1e9, whole = TRUE)
  opt_number(p, "p", 0, 1)
  opt_number(epsilon, "epsilon", 0)
  if (is.null(p) == is.null(epsilon))
    input_error("privacy_rr_epsilon takes either p (gives epsilon) or epsilon (gives the largest p)")
  r <- .Call(rk_rr_ldp, if (is.null(p)) NA_real_ else as.double(p),
             if (is.null(epsilon)) NA_real_ else as.double(epsilon), as.double(categories))
  eps <- r[1L]
  p <- r[2L]
  keep_ratio <- if (categories <= 1) 1 else if (p >= 1) Inf else 1 + categories * p / (1 - p)
  list(calculator = "rr-epsilon", result = if (is.null(epsilon)) eps else p, epsilon = eps, p = p, categories = categories,
       keep_ratio = keep_ratio,
       formula = "epsilon = ln(1 + n p / (1 - p)) (RR-LDP, Fig. 4; SPEC 9 corrects eq. (1))")
}

#' @rdname privacy_delta
#' @export
privacy_rr_t <- function(pt = NULL, t = NULL, frequencies = NULL, categories = NULL) {
  opt_number(pt, "pt", 0, 1)
  opt_number(t, "t", 1)
  if (is.null(pt) == is.null(t))
    input_error("privacy_rr_t takes either pt (gives t) or t (gives the largest pt)")
  if (!is.null(frequencies)) {
    if (!is.numeric(frequencies) || !length(frequencies) || anyNA(frequencies) ||
        any(frequencies < 0) || any(is.infinite(frequencies)))
      input_error("frequencies: expected non-negative numbers")
    if (!(sum(frequencies) > 0)) input_error("frequencies: at least one value must be positive")
    f <- frequencies / sum(frequencies)
  } else if (!is.null(categories)) {
    check_number(categories, "categories", 1, 1e6, whole = TRUE)
    f <- rep(1 / categories, categories)
  } else {
    input_error("privacy_rr_t needs the distribution: frequencies = c(0.2, 0.3, 0.5) or categories = N (uniform)")
  }
  r <- .Call(rk_rr_t, if (is.null(pt)) NA_real_ else as.double(pt),
             if (is.null(t)) NA_real_ else as.double(t), as.double(f))
  fmin <- min(f[f > 0])
  list(calculator = "rr-t", result = if (is.null(t)) r[1L] else r[2L], t = r[1L], pt = r[2L], frequencies = f,
       min_frequency = fmin, same_value_ratio = 1 + r[2L] * (1 / fmin - 1),
       other_value_ratio = if (r[2L] >= 1) Inf else 1 / (1 - r[2L]),
       formula = "t = max(1 + p_t (1/f_min - 1), 1/(1 - p_t)): an equivalence class holding one value (eq. (2))")
}

#' @rdname privacy_delta
#' @export
privacy_implies <- function(from, to, epsilon = NULL, t = NULL, k = NULL, records = NULL, to_k = NULL) {
  models <- c("ldp", "tclose", "kt", "kdp")
  check_string(from, "from", models)
  check_string(to, "to", models)
  level_key <- function(m) if (m %in% c("ldp", "kdp")) "epsilon" else "t"
  lk <- level_key(from)
  level <- if (lk == "t") opt_number(t, "t", 1) else opt_number(epsilon, "epsilon", 0)
  if (is.null(level)) input_error("from = \"", from, "\" needs its level ", lk)
  for (nm in c("k", "records", "to_k"))
    opt_number(get(nm), nm, 1, 2^53, whole = TRUE)
  src_k <- 0
  if (from == "ldp") {
    if (!is.null(k) && !is.null(to_k))
      input_error("from = \"ldp\" has no group size, so k = ", k, " and to_k = ", to_k,
                  " both give the target's; give one")
    if (is.null(to_k)) to_k <- k
  } else {
    src_k <- if (is.null(k)) 0 else k
    if (from %in% c("kt", "kdp") && is.null(k)) input_error("from = \"", from, "\" needs its group size k")
  }
  z <- function(x) if (is.null(x)) 0 else as.double(x)
  r <- .Call(rk_rr_implies, from, as.double(level), z(src_k), to, z(to_k), z(records))
  implied <- list(model = r$model)
  implied[[level_key(to)]] <- r$level
  if (to != "ldp") implied$k <- r$k
  out <- list(calculator = "implies", result = r$level, from = from, to = to)
  out[[lk]] <- level
  if (!is.null(k)) out$k <- k
  if (!is.null(records)) out$records <- records
  out$implied <- implied
  if (to != "ldp") out$to_k <- r$k
  out$rule <- r$rule
  out$holds_when <- r$holds_when
  out
}
