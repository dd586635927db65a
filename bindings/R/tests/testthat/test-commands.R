# The command functions against the keps CLI on the same inputs: the same
# release (same seed: same randomness, same row order), the same report
# (timing and the CLI's output paths aside), the same exit codes as error
# classes. The CLI is the reference: its own suite checks its numbers
# against ARX, sdcMicro, the papers and the Python oracles.

ex <- function(f) keps_example(f)
hier <- function(n) ex(paste0("adult_hierarchy_", n, ".csv"))

# Runs the CLI with -o and --report to temporary files; list(release, report).
cli_release <- function(...) {
  out <- tempfile(fileext = ".csv")
  rep <- tempfile(fileext = ".json")
  on.exit(unlink(c(out, rep)))
  run_cli(..., "-o", out, "--report", rep, "--quiet")
  list(release = read_csv(out), report = jsonlite::fromJSON(rep, simplifyVector = TRUE,
                                                            simplifyDataFrame = FALSE, simplifyMatrix = FALSE))
}

# A report without what differs between two runs of the same job: the
# timing, and the paths and front-end switches among the parameters.
comparable <- function(r) {
  r$timing_ms <- NULL
  r$nodes_evaluated <- NULL # OLA's two search threads share work: the count varies by a few nodes
  for (p in c("output", "report", "quiet", "json", "html"))
    r$parameters[[p]] <- NULL
  r
}

expect_same_run <- function(res, cli) {
  expect_s3_class(res, "keps_result")
  expect_identical(res$release, cli$release)
  expect_same(comparable(res$report), comparable(cli$report))
}

qi_cli <- function(cols) as.vector(rbind("--qi", paste0(cols, ":", vapply(cols, hier, ""))))
qi_r <- function(cols) setNames(as.list(vapply(cols, hier, "")), cols)
adult_qi <- c("sex", "age", "race", "marital-status", "education", "native-country", "workclass",
              "occupation", "salary-class")

test_that("anonymize (OLA, k = 5, 5%) gives the CLI's release and report", {
  cli <- cli_release("anonymize", "--algorithm", "ola", "-i", ex("adult.csv"), qi_cli(adult_qi),
                     "-k", "5", "--suppress", "0.05", "--seed", "1")
  expect_warning(res <- anonymize(input = ex("adult.csv"), algorithm = "ola", qi = qi_r(adult_qi), k = 5,
                                  suppress = 0.05, seed = 1, quiet = TRUE),
                 class = "keps_privacy_warning")
  expect_same_run(res, cli)
  # ARX 3.9.2 chooses this node on Adult (docs/benchmarks.md, OLA table): levels of
  # (sex, age, race, marital, education, country, workclass, occupation, salary)
  expect_same(unlist(res$report$transformation[adult_qi], use.names = FALSE), c(0, 3, 0, 0, 2, 1, 1, 2, 0))
})

test_that("a data frame in gives the release of the same data as a file, typed like the input", {
  adult <- read.csv(ex("adult.csv"), sep = ";", check.names = FALSE, stringsAsFactors = TRUE)
  qi <- c("sex", "race", "marital-status")
  res <- suppressWarnings(anonymize(adult, algorithm = "ola", qi = qi_r(qi), others = "keep", k = 5,
                                    seed = 3, quiet = TRUE))
  cli <- cli_release("anonymize", "--algorithm", "ola", "-i", ex("adult.csv"), qi_cli(qi), "--others", "keep",
                     "-k", "5", "--seed", "3")
  expect_identical(lapply(res$release, as.character), lapply(cli$release, as.character))
  # columns keps left alone keep their type: factors with the input's levels, integers
  expect_identical(levels(res$release$workclass), levels(adult$workclass))
  expect_type(res$release$age, "integer")
  expect_identical(res$report$input_rows, nrow(adult))
})

test_that("kepsilon and dpmicro under a seed are the CLI's", {
  cli <- cli_release("kepsilon", "--algorithm", "given", "-i", ex("adult.csv"), "--qi", "sex", "--qi", "race",
                     "--noisy", "age", "--others", "keep", "-k", "100", "--suppress", "0.01", "--epsilon", "1",
                     "--seed", "7")
  res <- suppressWarnings(kepsilon(input = ex("adult.csv"), algorithm = "given", qi = c("sex", "race"),
                                   noisy = "age", others = "keep", k = 100, suppress = 0.01, epsilon = 1,
                                   seed = 7, quiet = TRUE))
  expect_same_run(res, cli)
  expect_identical(res$report$guarantee$model, "(k,epsilon)-anonymity")
  casc <- ex("casc.csv")
  cols <- c("FICA", "FEDTAX", "INTVAL")
  cli <- cli_release("dpmicro", "-i", casc, as.vector(rbind("--qi", cols)), "--others", "keep", "-k", "5",
                     "--epsilon", "1", "--seed", "4")
  res <- suppressWarnings(dpmicro(input = casc, qi = cols, others = "keep", k = 5, epsilon = 1, seed = 4,
                                  quiet = TRUE))
  expect_same_run(res, cli)
})

test_that("verify, risk and evaluate report what the CLI reports", {
  a <- ex("adult.csv")
  qi <- c("sex", "race", "marital-status")
  v <- verify(input = a, qi = c("sex", "race"), k = 50, quiet = TRUE)
  expect_same(comparable(v$report), comparable(cli_json("verify", "-i", a, "--qi", "sex", "--qi", "race",
                                                        "-k", "50")))
  expect_false(v$finding)
  r <- risk(input = a, qi = qi, quiet = TRUE)
  expect_same(comparable(r$report), comparable(cli_json("risk", "-i", a, as.vector(rbind("--qi", qi)))))
})

test_that("a failed check is a finding, as the CLI's exit code 1", {
  v <- verify(input = ex("adult.csv"), qi = adult_qi, k = 1000000, quiet = TRUE)
  expect_true(v$finding)
})

test_that("noise's releases are the CLI's under the same seed", {
  expect_warning(x <- noise(value = 42, mechanism = "laplace", epsilon = 0.7, sensitivity = 2, count = 5,
                            seed = 11), class = "keps_privacy_warning", regexp = "NOT private")
  cli <- cli_json("noise", "--mechanism", "laplace", "--epsilon", "0.7", "--sensitivity", "2",
                  "--value", "42", "-n", "5", "--seed", "11")
  expect_same(comparable(x$report), comparable(cli))
})

test_that("errors are conditions with the CLI's classes, naming R's arguments", {
  a <- ex("adult.csv")
  e <- expect_error(anonymize(input = a, algorithm = "ola", qi = "sex", others = "keep", k = 0),
                    class = "keps_input_error")
  expect_identical(e$exit_code, 2L)
  expect_match(conditionMessage(e), "\\bk\\b")
  expect_no_match(conditionMessage(e), "--|-k")
  expect_error(anonymize(input = a, algorithm = "mondrian", qi = "no-such-column", k = 2), class = "keps_input_error",
               regexp = "no-such-column")
  # k beyond the records: no transformation reaches it (exit 1)
  expect_error(anonymize(input = a, algorithm = "ola", qi = qi_r(c("sex", "race")), others = "keep",
                         k = 100000), class = "keps_job_error")
  expect_error(anonymize(input = a, algorithm = "ola", qi = "sex", k = "five"), class = "keps_input_error")
})

test_that("every command function has the catalog's parameters as its arguments", {
  cat_ <- keps:::keps_catalog()
  for (cmd in c("anonymize", "kepsilon", "dpmicro", "safela", "rr", "verify", "risk", "evaluate", "noise",
                "audit")) {
    ps <- cat_[[cmd]]$params
    # all but the front-end's own, the release's path and the report's; the data first
    names_ <- ps$name[!keps:::has_flag(ps$flags, keps:::PARAM_COMMON) & !(ps$name %in% c("output", "report"))]
    names_ <- c(intersect("input", names_), setdiff(names_, "input"))
    want <- c(keps:::arg_name(names_), "quiet")
    expect_identical(names(formals(get(cmd, envir = asNamespace("keps")))), want, info = cmd)
  }
})

test_that("safela and rr under a seed are the CLI's", {
  a <- ex("adult.csv")
  cli <- cli_release("safela", "-i", a, qi_cli(c("sex", "race")), "--others", "drop", "-k", "10", "--beta", "0.5",
                     "--seed", "3")
  res <- suppressWarnings(safela(a, qi = qi_r(c("sex", "race")), others = "drop", k = 10, beta = 0.5, seed = 3,
                                 quiet = TRUE))
  expect_same_run(res, cli)
  # released + suppressed + not sampled = input
  rep <- res$report
  expect_identical(rep$released_rows + rep$suppressed_rows + rep$unsampled_rows, rep$input_rows)
  cli <- cli_release("rr", "-i", a, "--mechanism", "ldp", "--sensitive", "salary-class",
                     "--domain", "salary-class=<=50K,>50K", "--qi", "sex", "--qi", "race", "--epsilon", "1",
                     "--others", "drop", "--seed", "2")
  res <- suppressWarnings(rr(a, mechanism = "ldp", sensitive = "salary-class",
                             domain = list(`salary-class` = c("<=50K", ">50K")), qi = c("sex", "race"),
                             epsilon = 1, others = "drop", seed = 2, quiet = TRUE))
  expect_same_run(res, cli)
  expect_same(res$report$guarantee$epsilon, 1)
})

test_that("evaluate takes the original and the release as data frames", {
  a <- ex("adult.csv")
  qi <- c("sex", "race")
  rel <- suppressWarnings(anonymize(a, algorithm = "ola", qi = qi_r(qi), others = "keep", k = 5, seed = 9,
                                    quiet = TRUE))
  path <- tempfile(fileext = ".csv")
  on.exit(unlink(path))
  write.table(rel$release, path, sep = ";", row.names = FALSE, quote = FALSE)
  hier <- as.vector(rbind("--hierarchy", paste0(qi, ":", vapply(qi, hier, ""))))
  cli <- cli_json("evaluate", "--original", a, "--release", path, hier)
  ev <- evaluate(original = read_csv(a), release = rel$release,
                 hierarchy = setNames(as.list(vapply(qi, hier, "")), qi), quiet = TRUE)
  ev_r <- comparable(ev$report)
  cli <- comparable(cli)
  ev_r$parameters <- cli$parameters <- NULL # paths there, data frames here
  expect_same(ev_r, cli)
})

test_that("risk's per-record table is the CLI's -o", {
  a <- ex("adult.csv")
  out <- tempfile(fileext = ".csv")
  on.exit(unlink(out))
  run_cli("risk", "-i", a, "--qi", "sex", "--qi", "race", "-o", out, "--quiet")
  rk <- risk(a, qi = c("sex", "race"), quiet = TRUE)
  expect_identical(rk$release, read_csv(out))
})

test_that("audit of a mechanism reports as the CLI does", {
  args <- c("--mechanism", "laplace", "--epsilon", "1", "--sensitivity", "1", "--value-a", "0", "--value-b", "1",
            "--trials", "2000", "--seed", "1")
  au <- suppressWarnings(audit(mechanism = "laplace", epsilon = 1, sensitivity = 1, value_a = 0, value_b = 1,
                               trials = 2000, seed = 1, quiet = TRUE))
  expect_same(comparable(au$report), comparable(cli_json("audit", args)))
  expect_false(au$finding)
})

test_that("audit of a whole command on neighbouring inputs finds a claim below the mechanism's epsilon", {
  # x differs in one record (b -> a). RR over the public domain {a, b} at
  # epsilon = 3 releases a with probability e^3/(1+e^3) = 0.9526 from a and
  # 0.0474 from b: a loss of exactly 3. 300 runs per input bound it from
  # below near 1: a violation of a claim of 0.05, none of the true 3.
  a <- data.frame(x = c("a", "b", "a", "b"), y = 1:4)
  b <- data.frame(x = c("a", "b", "a", "a"), y = 1:4)
  fa <- tempfile(fileext = ".csv")
  fb <- tempfile(fileext = ".csv")
  on.exit(unlink(c(fa, fb)))
  write.csv(a, fa, row.names = FALSE, quote = FALSE)
  write.csv(b, fb, row.names = FALSE, quote = FALSE)
  rr <- c("rr", "--mechanism", "ldp", "--sensitive", "x", "--qi", "y", "--epsilon", "3", "--domain", "x=a,b")
  run <- function(claim) suppressWarnings(audit(neighbours = fa, second = fb, command = rr, binary = keps_cli(),
                                                runs = 300, seed = 1, epsilon = claim, quiet = TRUE))
  low <- run(0.05)
  expect_true(low$finding)
  expect_true(low$report$audit$violation)
  expect_true(low$report$audit$epsilon_lower > 0.05 && low$report$audit$epsilon_lower <= 3)
  true <- run(3)
  expect_false(true$finding)
  expect_false(true$report$audit$violation)
})

test_that("a hierarchy data frame for a qi is the builder's hierarchy, and is checked", {
  adult <- read_csv(ex("adult.csv"))
  age <- hierarchy_interval(adult$age, c(5, 10, 20), top = 80)
  r1 <- anonymize(adult, algorithm = "ola", qi = list(age = age, sex = hier("sex")), others = "keep", k = 5,
                  suppress = 0.02, quiet = TRUE)
  r2 <- anonymize(adult, algorithm = "ola", qi = list(age = "interval=5,10,20,top=80", sex = hier("sex")),
                  others = "keep", k = 5, suppress = 0.02, quiet = TRUE)
  expect_same(r1$report$transformation, r2$report$transformation)
  expect_same(r1$report$metrics, r2$report$metrics)
  # Male and Female merge at level 1 ("x") and split at level 2: not a hierarchy
  bad <- data.frame(c("Male", "Female"), c("x", "x"), c("1", "2"))
  expect_error(anonymize(adult, algorithm = "ola", qi = list(sex = bad), others = "keep", k = 5),
               class = "keps_input_error", regexp = "hierarchy of 'sex':2:3: inconsistent hierarchy")
})
