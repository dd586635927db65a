# Cost of the R package's conversions on Adult (30,162 rows, 9 columns) next
# to the C run time of OLA k = 5, 5% suppression (bench_ola: search + apply,
# the library's own work). Run by bench/r_overhead.sh BUILD_DIR RUNS; medians
# of RUNS runs in ms, one JSON object per line.
#   in:  the data frame's columns into a keps table (as keps reads a CSV)
#   out: the release table back into a data frame typed like the input
# Both for the frame as read.csv gives it (character and integer columns)
# and with every text column a factor.
args <- commandArgs(trailingOnly = TRUE)
build <- args[1]
runs <- as.integer(args[2])
library(keps)

ms <- function(expr) {
  f <- function() { t0 <- proc.time()[["elapsed"]]; force(expr()); (proc.time()[["elapsed"]] - t0) * 1000 }
  median(vapply(seq_len(runs), function(i) f(), 0))
}

# C: OLA on Adult, k = 5, suppression 5%, the nine hierarchies
c_ms <- vapply(seq_len(3), function(i) {
  out <- system2(file.path(build, "bench", "bench_ola"), c("-", "5", "loss"), stdout = TRUE)
  line <- grep('"suppress":0.05', out, value = TRUE, fixed = TRUE)
  j <- jsonlite::fromJSON(line)
  j$search_ms + j$apply_ms
}, 0)
c_ms <- median(c_ms)

# the release the C run publishes, as the CLI writes it
rel_csv <- tempfile(fileext = ".csv")
h <- function(n) paste0(n, ":", keps_example(paste0("adult_hierarchy_", n, ".csv")))
qi <- c("sex", "age", "race", "marital-status", "education", "native-country", "workclass",
        "occupation", "salary-class")
status <- system2(file.path(build, "keps"),
                  c("anonymize", "--algorithm", "ola", "-i", keps_example("adult.csv"), "-o", rel_csv,
                    as.vector(rbind("--qi", vapply(qi, h, ""))), "-k", "5", "--suppress", "0.05",
                    "--quiet", "--json"), stdout = FALSE)
stopifnot(status == 0)

adult <- read.csv(keps_example("adult.csv"), sep = ";", check.names = FALSE)
adult_f <- as.data.frame(lapply(adult, function(x) if (is.character(x)) factor(x) else x),
                         check.names = FALSE)
rel <- read.csv(rel_csv, sep = ";", check.names = FALSE, colClasses = "character")

for (v in list(list(name = "character", df = adult), list(name = "factor", df = adult_f))) {
  df <- v$df
  # the table is freed by the garbage collector (its external pointer's finalizer)
  in_ms <- ms(function() .Call(keps:::rk_table_in, keps:::as_columns(df, "df"), names(df), NULL, "df"))
  relp <- .Call(keps:::rk_table_in, keps:::as_columns(rel, "rel"), names(rel), NULL, "rel")
  out_ms <- ms(function() keps:::as_frame(.Call(keps:::rk_table_out, relp), df))
  cat(sprintf(paste0('{"bench":"r_overhead","columns":"%s","rows":%d,"release_rows":%d,"runs":%d,',
                     '"in_ms":%.1f,"out_ms":%.1f,"c_ola_ms":%.1f,"overhead":%.3f}\n'),
              v$name, nrow(df), nrow(rel), runs, in_ms, out_ms, c_ms, (in_ms + out_ms) / c_ms))
}

# End to end: keps::anonymize on the data frame (conversions, keps_run, the
# release typed like the input, the report parsed) against the C call of
# the same command (bench_command: keps_run with the file, full report).
# CPU time (user + system, all threads) is the honest figure on a loaded
# machine; wall time is printed too.
if (exists("anonymize", envir = asNamespace("keps")) && file.exists(file.path(build, "bench", "bench_command"))) {
  c_runs <- lapply(system2(file.path(build, "bench", "bench_command"), as.character(runs), stdout = TRUE),
                   jsonlite::fromJSON)
  c_wall <- median(vapply(c_runs, function(j) j$wall_ms, 0))
  c_cpu <- median(vapply(c_runs, function(j) j$cpu_ms, 0))
  qi_list <- setNames(lapply(paste0("adult_hierarchy_", qi, ".csv"), keps_example), qi)
  for (v in list(list(name = "character", df = adult), list(name = "factor", df = adult_f))) {
    wall <- cpu <- numeric(runs)
    for (i in seq_len(runs)) {
      t0 <- proc.time()
      r <- anonymize(v$df, algorithm = "ola", qi = qi_list, k = 5, suppress = 0.05, quiet = TRUE)
      t <- proc.time() - t0
      wall[i] <- t[["elapsed"]] * 1000
      cpu[i] <- (t[["user.self"]] + t[["sys.self"]]) * 1000
    }
    cat(sprintf(paste0('{"bench":"r_anonymize","columns":"%s","rows":%d,"runs":%d,"r_wall_ms":%.1f,',
                       '"r_cpu_ms":%.1f,"c_wall_ms":%.1f,"c_cpu_ms":%.1f,"cpu_overhead":%.3f}\n'),
                v$name, nrow(v$df), runs, median(wall), median(cpu), c_wall, c_cpu,
                (median(cpu) - c_cpu) / c_cpu))
  }
}
