drop_timing <- function(x) x[setdiff(names(x), "timing_ms")]
# the calculators return the report of keps privacy: the CLI's JSON but its timing

test_that("privacy_delta and privacy_min_k give the CLI's numbers", {
  expect_same(drop_timing(privacy_delta(k = 75, beta = 0.7)),
                   drop_timing(cli_json("privacy", "delta", "-k", "75", "--beta", "0.7")))
  expect_same(drop_timing(privacy_delta(k = 20, beta = 0.3, epsilon = 2, epsilon_prime = 1)),
                   drop_timing(cli_json("privacy", "delta", "-k", "20", "--beta", "0.3",
                                        "--epsilon", "2", "--epsilon-prime", "1")))
  expect_same(drop_timing(privacy_min_k(delta = 1e-6, beta = 0.7)),
                   drop_timing(cli_json("privacy", "min-k", "--delta", "1e-6", "--beta", "0.7")))
})

test_that("the randomized-response calculators give the closed forms", {
  # epsilon = ln(1 + n p/(1 - p)) = ln(1 + 4 * 0.6/0.4) = ln 7
  r <- privacy_rr_epsilon(p = 0.6, categories = 4)
  expect_equal(r$result, log(7), tolerance = 1e-15)
  # and back: p = (e^eps - 1)/(e^eps - 1 + n) = 6/10
  expect_equal(privacy_rr_epsilon(epsilon = log(7), categories = 4)$p, 0.6, tolerance = 1e-15)
  # t = max(1 + p_t (1/f_min - 1), 1/(1 - p_t)) = max(1 + 0.5 * 4, 2) = 3 for f_min = 0.2
  r <- privacy_rr_t(pt = 0.5, frequencies = c(2, 3, 5))
  expect_equal(r$t, 3)
  expect_equal(r$frequencies, c(0.2, 0.3, 0.5))
  expect_same(privacy_rr_t(pt = 0.5, categories = 4)$result, 2.5)
})

test_that("the calculators' lists are the CLI's JSON", {
  expect_same(drop_timing(privacy_rr_epsilon(p = 0.6, categories = 4)),
                   drop_timing(cli_json("privacy", "rr-epsilon", "-p", "0.6", "-n", "4")))
  expect_same(drop_timing(privacy_rr_t(t = 2, frequencies = c(0.2, 0.3, 0.5))),
                   drop_timing(cli_json("privacy", "rr-t", "--t", "2", "--frequencies", "0.2,0.3,0.5")))
  expect_same(drop_timing(privacy_implies(from = "ldp", epsilon = 1, to = "kt", k = 5, records = 100)),
                   drop_timing(cli_json("privacy", "implies", "--from", "ldp", "--epsilon", "1",
                                        "--to", "kt", "-k", "5", "--records", "100")))
  expect_same(drop_timing(privacy_implies(from = "kt", t = 2, k = 5, to = "tclose", records = 100)),
                   drop_timing(cli_json("privacy", "implies", "--from", "kt", "--t", "2", "-k", "5",
                                        "--to", "tclose", "--records", "100")))
})

test_that("calculator errors have the CLI's classes", {
  expect_error(privacy_delta(k = 0, beta = 0.7), class = "keps_input_error")
  expect_error(privacy_delta(k = 5, beta = 1), class = "keps_input_error")
  expect_error(privacy_delta(k = 5, beta = 0.5, epsilon = 1), class = "keps_input_error",
               regexp = "epsilon.prime")
  expect_error(privacy_min_k(delta = 1e-300, beta = 0.9, max_k = 10), class = "keps_job_error")
  expect_error(privacy_rr_epsilon(categories = 4), class = "keps_input_error")
  # epsilon-LDP does not follow from (k,t)-closeness (Ekenstedt et al.): exit 1
  e <- expect_error(privacy_implies(from = "kt", t = 2, k = 5, to = "ldp"), class = "keps_job_error")
  expect_identical(e$exit_code, 1L)
})

test_that("delta equals the exact-rational oracle", {
  # python3 tests/safela_delta_oracle.py (the source tree's independent oracle,
  # exact binomial tails): k beta E delta; E = 0 for the default epsilon
  cases <- rbind(c(2, 0.5, 0, 0.3125), c(5, 0.3, 0, 0.098808660000000006),
                 c(20, 0.5, 0, 0.0062704756855964661), c(55, 0.6, 0, 1.589363318797759e-05),
                 c(74, 0.7, 0, 3.3139549270917663e-06), c(75, 0.7, 0, 2.5278930337909217e-06),
                 c(150, 0.95, 0, 0.00045555497448366043),
                 # epsilon - epsilon' = ln E
                 c(75, 0.7, 4, 6.9374861608895094e-07), c(20, 0.5, 3, 0.00077193975448608398),
                 c(5, 0.3, 2, 0.028795500000000002))
  for (i in seq_len(nrow(cases))) {
    k <- cases[i, 1]; beta <- cases[i, 2]; e <- cases[i, 3]; want <- cases[i, 4]
    got <- if (e == 0) privacy_delta(k = k, beta = beta)$delta
           else privacy_delta(k = k, beta = beta, epsilon = 0.5 + log(e), epsilon_prime = 0.5)$delta
    expect_lte(abs(got - want), 1e-9 * want)
  }
  # delta(75) = 2.53e-6 <= 2.6e-6 < delta(74) = 3.31e-6
  expect_same(privacy_min_k(delta = 2.6e-6, beta = 0.7)$result, 75)
})

test_that("implications, worked by hand", {
  # epsilon-LDP to (k,t)-closeness: t = (k + (N - k) e^eps)/N = (5 + 95 e)/100
  r <- privacy_implies(from = "ldp", epsilon = 1, to = "kt", k = 5, records = 100)
  expect_equal(r$result, (5 + 95 * exp(1)) / 100, tolerance = 1e-15)
  # no t-closeness gives epsilon-LDP (Theorem 1): exit code 1, as the CLI
  e <- expect_error(privacy_implies(from = "tclose", t = 2, k = 5, to = "ldp"), class = "keps_job_error",
                    regexp = "Theorem 1")
  expect_identical(e$exit_code, 1L)
})
