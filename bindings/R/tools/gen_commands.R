# Writes R/commands.R: one function per keps command, its arguments and
# roxygen documentation generated from the library's catalog (keps/command.h,
# keps_commands): argument names are the parameters' names with underscores,
# help texts render {name} as the R argument. Run from bindings/R with the
# package installed against the library whose catalog is wanted:
#   Rscript tools/gen_commands.R && Rscript -e 'roxygen2::roxygenise()'
# scripts/r_check.sh runs it and fails when the committed file differs.
library(keps)

# The commands with a function of their own (privacy's calculators get one
# each below; hierarchy and report stay with the CLI and the hand-written
# hierarchy functions; split would mask base::split, and a data frame is
# split in R with sample()).
commands <- c("anonymize", "kepsilon", "dpmicro", "safela", "rr", "verify", "risk", "evaluate", "noise",
              "audit")
# R-side examples: the catalog's example names files of the source tree;
# these run on the bundled data (keps_example()).
examples <- list(
  anonymize = c('adult <- read_csv(keps_example("adult.csv"))',
                'r <- anonymize(adult, algorithm = "ola", k = 5, suppress = 0.05, others = "keep",',
                '               qi = list(age = "interval=5,10,20",',
                '                         race = keps_example("adult_hierarchy_race.csv")))',
                'r',
                'head(r$release)',
                'r$report$guarantee'),
  noise = c('noise(value = 42, mechanism = "laplace", epsilon = 1, count = 3)$report$releases',
            'noise(data.frame(count = c(120, 47, 3)), mechanism = "geometric", epsilon = 0.5)$release'),
  verify = c('v <- verify(keps_example("adult.csv"), qi = c("sex", "race"), k = 5)',
             'v$finding',
             'v$report$checks'),
  risk = c('risk(keps_example("adult.csv"), qi = c("sex", "race", "marital-status"))$report$prosecutor'),
  privacy_delta = c('privacy_delta(k = 75, beta = 0.7)$delta'),
  privacy_min_k = c('privacy_min_k(delta = 1e-6, beta = 0.7)$result'),
  privacy_rr_epsilon = c('privacy_rr_epsilon(p = 0.6, categories = 4)$epsilon'),
  privacy_rr_t = c('privacy_rr_t(pt = 0.5, frequencies = c(0.2, 0.3, 0.5))$t'),
  privacy_implies = c('privacy_implies(from = "ldp", epsilon = 1, to = "kt", k = 5, records = 100)$result')
)
# privacy's calculators: one function each, with the parameters it reads
calculators <- list(
  delta = c("k", "beta", "epsilon", "epsilon-prime"),
  "min-k" = c("delta", "beta", "epsilon", "epsilon-prime", "max-k"),
  "rr-epsilon" = c("p", "epsilon", "categories"),
  "rr-t" = c("pt", "t", "frequencies", "categories"),
  implies = c("from", "to", "epsilon", "t", "k", "records", "to-k"))

cat_ <- keps:::keps_catalog()
PARAM_OUTPUT <- keps:::PARAM_OUTPUT
PARAM_COMMON <- keps:::PARAM_COMMON
PARAM_PATH <- keps:::PARAM_PATH
PARAM_REPEAT <- keps:::PARAM_REPEAT
has <- keps:::has_flag
arg <- keps:::arg_name

# {name} -> `name` (the R argument; a CLI flag --name written out in a
# text likewise), and text made safe for roxygen's markdown and Rd:
# backslashes, percent signs and braces escaped.
render <- function(text) {
  if (is.null(text) || is.na(text)) return("")
  pat <- "\\{[a-z0-9-]+\\}|--[a-z][a-z0-9-]*"
  parts <- regmatches(text, gregexpr(pat, text), invert = NA)[[1L]]
  out <- vapply(parts, function(p) {
    if (grepl("^\\{[a-z0-9-]+\\}$", p)) return(paste0("`", arg(substr(p, 2L, nchar(p) - 1L)), "`"))
    if (grepl("^--[a-z][a-z0-9-]*$", p)) return(paste0("`", arg(substr(p, 3L, nchar(p))), "`"))
    p <- gsub("\\", "\\\\", p, fixed = TRUE)
    p <- gsub("%", "\\%", p, fixed = TRUE)
    p <- gsub("{", "\\{", p, fixed = TRUE)
    p <- gsub("[", "\\[", p, fixed = TRUE)
    p <- gsub("]", "\\]", p, fixed = TRUE)
    gsub("}", "\\}", p, fixed = TRUE)
  }, "")
  paste(out, collapse = "")
}

sentence <- function(text) if (nzchar(text) && !grepl("[.!?]$", text)) paste0(text, ".") else text
# Parameters naming an input table (also when the catalog does not flag them KEPS_PARAM_PATH)
TABLE_PARAMS <- c("input", "original", "release", "population", "test")

roxygen <- function(text) paste0("#' ", strwrap(text, width = 100), collapse = "\n")

# The documented R value of a parameter's example ("1.0" -> 1.0, a path as
# text, several values of a repeatable one as a vector).
example_value <- function(p) {
  ex <- p$example
  if (is.na(ex) || !nzchar(ex)) return(if (is.na(p$metavar)) "TRUE" else NULL)
  if (is.na(p$metavar)) return("TRUE")
  # the values alone: the catalog may give them as the CLI writes them ("--qi a --qi b", "-k 5")
  flag <- paste0("(^|\\s)(--", p$name, if (!is.na(p$short)) paste0("|-", p$short), ")(\\s+|=)")
  v <- unlist(strsplit(ex, "\n", fixed = TRUE))
  v <- unlist(strsplit(v, flag, perl = TRUE))
  v <- gsub("^'|'$", "", trimws(v[nzchar(trimws(v))]))
  if (!length(v)) return(NULL)
  num <- suppressWarnings(as.numeric(v))
  lit <- if (!anyNA(num) && all(grepl("^[-+0-9.eE]+$", v))) v else paste0("\"", gsub("\"", "\\\"", v, fixed = TRUE), "\"")
  if (length(lit) == 1L) lit else paste0("c(", paste(lit, collapse = ", "), ")")
}

param_doc <- function(p) {
  a <- arg(p$name)
  help <- sentence(render(p$help))
  how <- if (is.na(p$metavar)) {
    "`TRUE` or `FALSE`."
  } else if (has(p$flags, PARAM_OUTPUT) || p$name %in% keps:::OUTPUT_PARAMS) {
    "`TRUE` asks for this output; it comes back in `$outputs` (the CLI writes it to a file)."
  } else if (has(p$flags, PARAM_PATH) || p$name %in% TABLE_PARAMS) {
    "A data frame, or the path of a CSV file."
  } else if (has(p$flags, PARAM_REPEAT) && grepl(":", p$metavar, fixed = TRUE)) {
    paste("A character vector of column names, or a named list: name = the column, value = a hierarchy",
          "(a data frame in ARX's layout, see [as_hierarchy()], or a file), a builder such as",
          "`\"interval=5,10,20\"`, or `NULL` for none.")
  } else if (has(p$flags, PARAM_REPEAT)) {
    "One value or a vector of them."
  } else ""
  ex <- example_value(p)
  ex <- if (is.null(ex) || has(p$flags, PARAM_OUTPUT) || p$name %in% keps:::OUTPUT_PARAMS) "" else paste0("Example: `", a, " = ", ex, "`.")
  text <- paste(Filter(nzchar, c(help, how, ex)), collapse = " ")
  paste0("#' @param ", a, " ", sub("^#' ", "", roxygen(text)))
}

# The parameters a function takes: all but the front-end's own, the
# release's path and the report's (both come back in the result).
fn_params <- function(cmd) {
  ps <- cat_[[cmd]]$params
  keep <- !has(ps$flags, PARAM_COMMON) & !(ps$name %in% keps:::HIDDEN_PARAMS)
  lapply(which(keep), function(i) lapply(ps, `[[`, i))
}

# head, then the items separated by ", " wrapped at 100 columns under the
# first item, then tail.
wrap_call <- function(head, items, tail) {
  indent <- strrep(" ", nchar(head))
  lines <- character()
  cur <- head
  for (i in seq_along(items)) {
    piece <- paste0(items[i], if (i < length(items)) "," else tail)
    if (cur != head && cur != indent && nchar(cur) + 1L + nchar(piece) > 100L) {
      lines <- c(lines, sub(" $", "", cur))
      cur <- indent
    }
    cur <- paste0(cur, if (cur != head && cur != indent) " ", piece)
  }
  paste(c(lines, cur), collapse = "\n")
}

gen_function <- function(cmd, fname = cmd, fixed = list(), only = NULL, title = NULL, ex = examples[[fname]],
                         value = "the result") {
  c_ <- cat_[[cmd]]
  ps <- Filter(function(p) !(p$name %in% names(fixed)) && (is.null(only) || p$name %in% only), fn_params(cmd))
  if (!is.null(only)) ps <- ps[order(match(vapply(ps, function(p) p$name, ""), only))]
  # the data first: anonymize(df, qi = ..., k = 5)
  first <- vapply(ps, function(p) p$name == "input", TRUE)
  ps <- c(ps[first], ps[!first])
  args <- vapply(ps, function(p) arg(p$name), "")
  first_input <- if ("input" %in% args) "input" else NULL
  sig <- c(paste0(args, " = NULL"), "quiet = FALSE")
  call_args <- c(sprintf('%s = "%s"', names(fixed), unlist(fixed)), sprintf("%s = %s", args, args))
  lines <- c(
    roxygen(if (is.null(title)) render(c_$summary) else title),
    "#'",
    roxygen(render(c_$description)),
    "#'",
    roxygen(paste0("The `keps ", cmd, if (length(fixed)) paste0(" ", unlist(fixed)), "` command as a function ",
                   "(the same parameters and report; see `keps ", cmd, " --help`).")),
    "#'",
    vapply(ps, param_doc, ""),
    "#' @param quiet `TRUE`: no notes (warnings that weaken the privacy guarantee still come).",
    if (value == "the report") {
      "#' @return The JSON report of `keps privacy` as a list; `$result` holds the answer."
    } else {
      paste0("#' @return A [keps_result]: `$release` (a data frame, or `NULL`), `$report` (the JSON report as a ",
             "list), `$summary`, `$outputs`.")
    },
    "#' @family commands",
    "#' @export",
    if (!is.null(ex)) c("#' @examples", paste0("#' ", ex)),
    wrap_call(paste0(fname, " <- function("), sig, ") {"),
    wrap_call(paste0("  run_command(\"", cmd, "\", list("), call_args, paste0("), quiet",
           if (!is.null(first_input)) ", like = input", ")", if (value == "the report") "$report")),
    "}",
    "")
  paste(lines, collapse = "\n")
}

out <- c("# Generated by tools/gen_commands.R from the keps library's catalog (keps_commands):",
         "# do not edit by hand. The functions run the commands through keps_run (R/run.R).",
         "")
for (cmd in intersect(commands, names(cat_)))
  out <- c(out, gen_function(cmd))
for (calc in names(calculators))
  out <- c(out, gen_function("privacy", paste0("privacy_", gsub("-", "_", calc)), fixed = list(calculator = calc),
                             only = calculators[[calc]], title = paste0("Privacy calculator: ", calc),
                             value = "the report"))
writeLines(out, "R/commands.R")
