# noise through keps_run: releases as the CLI's under the same seed, the
# calibrated scale worked by hand, the Laplace distribution's moments.

test_that("seeded Laplace releases of a value are the CLI's", {
  expect_warning(x <- noise(value = 42, mechanism = "laplace", epsilon = 0.7, sensitivity = 2, count = 5,
                            seed = 11), class = "keps_privacy_warning", regexp = "NOT private")
  cli <- cli_json("noise", "--mechanism", "laplace", "--epsilon", "0.7", "--sensitivity", "2",
                  "--value", "42", "-n", "5", "--seed", "11")
  expect_identical(x$report$releases, cli$releases)
  expect_length(x$report$releases, 5)
  expect_identical(as.numeric(strsplit(x$printed, "\n")[[1]]), x$report$releases)
})

test_that("seeded geometric releases of a column are the CLI's", {
  df <- data.frame(count = c(10, 10, 10, -4))
  x <- suppressWarnings(noise(df, mechanism = "geometric", epsilon = 0.3, sensitivity = 3, seed = 5))
  path <- tempfile(fileext = ".csv")
  out <- tempfile(fileext = ".csv")
  on.exit(unlink(c(path, out)))
  writeLines(c("count", "10", "10", "10", "-4"), path)
  run_cli("noise", "--mechanism", "geometric", "--epsilon", "0.3", "--sensitivity", "3", "-i", path, "-o", out,
          "--seed", "5", "--quiet")
  expect_identical(x$release, read_csv(out))
  expect_true(x$report$guarantee$epsilon <= 0.3)
})

test_that("the scale is calibrated so that the stated epsilon, rounding included, is the budget", {
  # docs/spec.md, section 8: epsilon = (floor(D/g) + 1)/(b/g), g = 2^(ceil(log2 b) - 40).
  # D = 1, epsilon = 1: b = 1 gives g = 2^-40 and (2^40 + 1)/2^40 > 1; raising b to
  # (2^40 + 1) 2^-40 moves the grid to 2^-39 and gives (2^39 + 1)/(2^39 + 1/2) > 1;
  # b = (2^39 + 1) 2^-39 = 1 + 2^-39 gives (2^39 + 1)/(2^39 + 1) = 1 exactly.
  rep <- noise(value = 0, mechanism = "laplace", epsilon = 1)$report
  expect_identical(rep$granularity, 2^-39)
  expect_identical(rep$noise_scale, 1 + 2^-39)
  expect_same(rep$guarantee$epsilon, 1)
  # D = 1.5, epsilon = 0.5: b = 3, g = 2^-38 states (1.5 2^38 + 1)/(3 2^38) > 0.5;
  # b = (1.5 2^38 + 1)/0.5 * 2^-38 = 3 + 2^-37 keeps g = 2^-38 and states
  # (1.5 2^38 + 1)/(3 2^38 + 2) = 0.5.
  rep <- noise(value = 0, mechanism = "laplace", epsilon = 0.5, sensitivity = 1.5)$report
  expect_identical(rep$granularity, 2^-38)
  expect_identical(rep$noise_scale, 3 + 2^-37)
  expect_same(rep$guarantee$epsilon, 0.5)
})

test_that("unseeded noise is fresh and has the Laplace distribution's moments", {
  n <- 100000
  x <- noise(data.frame(v = rep(5, n)), mechanism = "laplace", epsilon = 2)$release$v
  y <- noise(data.frame(v = rep(5, 10)), mechanism = "laplace", epsilon = 2)$release$v
  expect_false(isTRUE(all.equal(x[1:10], y)))
  # scale b = 1/2 (a hair above): mean 5, variance 2 b^2 = 0.5; standard error of the
  # mean sqrt(0.5/n) = 0.0022, of the variance about 0.007
  expect_lt(abs(mean(x) - 5), 0.012)
  expect_lt(abs(var(x) - 0.5), 0.04)
  # P(|Y| > b) = exp(-1)
  expect_lt(abs(mean(abs(x - 5) > 0.5) - exp(-1)), 0.008)
})

test_that("noise refuses what the CLI refuses", {
  expect_error(noise(value = 1, mechanism = "laplace", epsilon = 0), class = "keps_input_error")
  expect_error(noise(value = 1, mechanism = "laplace", epsilon = 1, sensitivity = -1), class = "keps_input_error")
  expect_error(noise(data.frame(v = c(1, NA)), mechanism = "laplace", epsilon = 1), class = "keps_input_error",
               regexp = ":2")
  expect_error(noise(value = 1.5, mechanism = "geometric", epsilon = 1), class = "keps_input_error")
  expect_error(noise(value = 1, mechanism = "gauss", epsilon = 1), class = "keps_input_error")
  expect_error(noise(value = 1, epsilon = 1), class = "keps_input_error", regexp = "mechanism")
  expect_error(suppressWarnings(noise(value = 1, mechanism = "laplace", epsilon = 1, seed = -3)),
               class = "keps_input_error")
})

test_that("each row is released in its place", {
  # epsilon 1e9: noise of scale 1e-9, far below the gaps between the values
  x <- noise(data.frame(v = c(1000, -5, 0, 7.25)), mechanism = "laplace", epsilon = 1e9)$release$v
  expect_equal(x, c(1000, -5, 0, 7.25), tolerance = 1e-6)
  g <- noise(data.frame(v = c(10, -20, 30)), mechanism = "geometric", epsilon = 1e9)$release$v
  expect_identical(g, c(10, -20, 30))
})
