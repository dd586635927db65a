test_that("seeded Laplace releases are the CLI's", {
  expect_warning(x <- noise(42, epsilon = 0.7, sensitivity = 2, count = 5, seed = 11),
                 class = "keps_privacy_warning", regexp = "NOT private")
  cli <- cli_json("noise", "--mechanism", "laplace", "--epsilon", "0.7", "--sensitivity", "2",
                  "--value", "42", "-n", "5", "--seed", "11")
  expect_identical(as.vector(x), cli$releases)
  rep <- attr(x, "report")
  keys <- c("keps_version", "method", "seeded", "mechanism", "guarantee", "granularity", "noise_scale")
  expect_same(rep[keys], cli[keys])
})

test_that("seeded geometric releases are the CLI's", {
  x <- suppressWarnings(noise(c(10, 10, 10), epsilon = 0.3, sensitivity = 3, mechanism = "geometric", seed = 5))
  cli <- cli_json("noise", "--mechanism", "geometric", "--epsilon", "0.3", "--sensitivity", "3",
                  "--value", "10", "-n", "3", "--seed", "5")
  expect_identical(as.vector(x), as.double(cli$releases))
  expect_true(attr(x, "report")$guarantee$epsilon <= 0.3)
})

test_that("the scale is calibrated so that the stated epsilon, rounding included, is the budget", {
  # docs/spec.md, section 8: epsilon = (floor(D/g) + 1)/(b/g), g = 2^(ceil(log2 b) - 40).
  # D = 1, epsilon = 1: b = 1 gives g = 2^-40 and (2^40 + 1)/2^40 > 1; raising b to
  # (2^40 + 1) 2^-40 moves the grid to 2^-39 and gives (2^39 + 1)/(2^39 + 1/2) > 1;
  # b = (2^39 + 1) 2^-39 = 1 + 2^-39 gives (2^39 + 1)/(2^39 + 1) = 1 exactly.
  rep <- attr(noise(0, epsilon = 1), "report")
  expect_identical(rep$granularity, 2^-39)
  expect_identical(rep$noise_scale, 1 + 2^-39)
  expect_identical(rep$guarantee$epsilon, 1)
  # D = 1.5, epsilon = 0.5: b = 3, g = 2^-38 states (1.5 2^38 + 1)/(3 2^38) > 0.5;
  # b = (1.5 2^38 + 1)/0.5 * 2^-38 = 3 + 2^-37 keeps g = 2^-38 and states
  # (1.5 2^38 + 1)/(3 2^38 + 2) = 0.5.
  rep <- attr(noise(0, epsilon = 0.5, sensitivity = 1.5), "report")
  expect_identical(rep$granularity, 2^-38)
  expect_identical(rep$noise_scale, 3 + 2^-37)
  expect_identical(rep$guarantee$epsilon, 0.5)
})

test_that("unseeded noise is fresh and has the Laplace distribution's moments", {
  n <- 200000
  x <- noise(rep(5, n), epsilon = 2) # scale b = 1/2: mean 5, variance 2 b^2 = 0.5
  expect_false(isTRUE(all.equal(x[1:10], noise(rep(5, 10), epsilon = 2))))
  # standard error of the mean sqrt(0.5/n) = 0.0016; of the variance about 0.005
  expect_lt(abs(mean(x) - 5), 0.01)
  expect_lt(abs(var(x) - 0.5), 0.03)
  # P(|Y| > b) = exp(-1)
  expect_lt(abs(mean(abs(x - 5) > 0.5) - exp(-1)), 0.006)
})

test_that("noise refuses what the CLI refuses", {
  expect_error(noise(1, epsilon = 0), class = "keps_input_error")
  expect_error(noise(1, epsilon = 1, sensitivity = -1), class = "keps_input_error")
  expect_error(noise(c(1, NA), epsilon = 1), class = "keps_input_error", regexp = "value\\[2\\]")
  expect_error(noise(1.5, epsilon = 1, mechanism = "geometric"), class = "keps_input_error")
  expect_error(noise(1, epsilon = 1, mechanism = "gauss"), class = "keps_input_error")
  expect_error(noise("1", epsilon = 1), class = "keps_input_error")
  expect_error(suppressWarnings(noise(1, epsilon = 1, seed = -3)), class = "keps_input_error")
})

test_that("each element is released in its place", {
  # epsilon 1e9: noise of scale 1e-9, far below the gaps between the values
  x <- noise(c(1000, -5, 0, 7.25), epsilon = 1e9)
  expect_equal(as.vector(x), c(1000, -5, 0, 7.25), tolerance = 1e-6)
  g <- noise(c(10, -20, 30), epsilon = 1e9, mechanism = "geometric")
  expect_identical(as.vector(g), c(10, -20, 30))
  expect_length(noise(c(1, 2), epsilon = 1, count = 3), 6)
})
