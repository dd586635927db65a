# Every command through the library's command layer (keps_run, in
# src/run.c): the generated functions of R/commands.R call run_command with
# their arguments; this turns them into the command's parameters, runs it,
# and turns the result into R objects and conditions.

# Parameter flags of the catalog (keps/command.h)
PARAM_REPEAT <- 1L
PARAM_PATH <- 4L
PARAM_OUTPUT <- 8L
PARAM_POSITIONAL <- 16L
PARAM_REST <- 32L
PARAM_COMMON <- 64L

has_flag <- function(flags, f) bitwAnd(flags, f) != 0L

.catalog_cache <- new.env(parent = emptyenv())

# The library's catalog: one list per command (name, summary, usage,
# description, example, params), params a list of columns (name, short,
# metavar, flags, help, example). Read once per session.
keps_catalog <- function() {
  if (is.null(.catalog_cache$cat)) {
    cat <- .Call(rk_catalog)
    names(cat) <- vapply(cat, function(c) c$name, "")
    .catalog_cache$cat <- cat
  }
  .catalog_cache$cat
}

# The R argument name of a parameter: dashes as underscores.
arg_name <- function(param) gsub("-", "_", param, fixed = TRUE)

# A hierarchy given as a data frame goes to the library as the ARX CSV file
# it stands for, checked first by as_hierarchy (messages name the column).
hierarchy_file <- function(h, column, dir) {
  h <- as_hierarchy(h, name = paste0("hierarchy of '", column, "'"))
  path <- file.path(dir, paste0("hierarchy-", length(list.files(dir)) + 1L, ".csv"))
  q <- function(x) ifelse(is.na(x), "", paste0("\"", gsub("\"", "\"\"", x, fixed = TRUE), "\""))
  lines <- do.call(paste, c(lapply(h, q), sep = ";"))
  con <- file(path, "wb")
  on.exit(close(con))
  writeLines(enc2utf8(lines), con, useBytes = TRUE)
  path
}

# The values of a repeatable NAME:VALUE or NAME=VALUE parameter (qi,
# hierarchy, weight, domain, ...; sep the separator): a character vector as
# it is ("age", "age:interval=5,10"), or a named list or vector, name = the
# column and value = what follows the separator: a hierarchy data frame, a
# file, a builder ("interval=5,10"), values (joined by commas), or NULL /
# NA / "" for the column alone.
named_values <- function(x, arg, sep, dir, param = NULL) {
  if (is.null(names(x))) {
    if (is.list(x)) input_error(arg, ": give a named list, e.g. list(age = \"interval=5,10\", sex = NULL)")
    return(as.character(x))
  }
  nm <- names(x)
  if (any(!nzchar(nm) | is.na(nm)))
    input_error(arg, ": every element needs the column's name")
  items <- lapply(seq_along(x), function(i) {
    v <- x[[i]]
    if (is.matrix(v)) v <- as.data.frame(v, stringsAsFactors = FALSE)
    if (is.data.frame(v)) {
      # a qi's hierarchy goes to the library as an in-memory table (keps_args_hierarchy)
      if (identical(param, "qi")) return(list(nm[i], as_columns(v, nm[i]), names(v), paste0("hierarchy of '", nm[i], "'")))
      return(paste0(nm[i], sep, hierarchy_file(v, nm[i], dir)))
    }
    if (is.null(v) || (length(v) == 1L && (is.na(v) || identical(v, "")))) return(nm[i])
    if (!is.atomic(v))
      input_error(arg, "$", nm[i], ": expected a hierarchy (data frame or file), a builder such as ",
                  "\"interval=5,10\", values, or NULL")
    if (is.factor(v)) v <- as.character(v)
    if (length(v) == 1L && is.character(v) && file.exists(v)) v <- path.expand(v)
    paste0(nm[i], sep, paste(format_values(v), collapse = ","))
  })
  if (all(vapply(items, is.character, TRUE))) unlist(items) else items
}

# Numbers as the shortest text that reads back exactly (as the C side
# writes single values), other values as text.
format_values <- function(v) {
  if (is.double(v)) return(vapply(v, function(x) .Call(rk_format_number, x), ""))
  if (is.logical(v)) return(ifelse(v, "true", "false"))
  as.character(v)
}

# Parameters the functions do not take: the release and the report always
# come back in the result.
HIDDEN_PARAMS <- c("output", "report")

# Outputs other than the release, asked for with TRUE (also when the
# catalog does not flag them KEPS_PARAM_OUTPUT).
OUTPUT_PARAMS <- c("html", "emit-sql", "test-output")

# params/tables for rk_run from the function's arguments (named list,
# NULL = not given).
command_args <- function(command, args, dir) {
  info <- keps_catalog()[[command]]$params
  params <- list()
  tables <- list()
  add <- function(p, v) {
    params[[length(params) + 1L]] <<- v
    names(params)[length(params)] <<- p
  }
  for (arg in names(args)) {
    v <- args[[arg]]
    if (is.null(v)) next
    i <- match(arg, arg_name(info$name))
    if (is.na(i)) {
      add(arg, v) # a fixed parameter of the function (privacy's calculator)
      next
    }
    p <- info$name[i]
    flags <- info$flags[i]
    metavar <- info$metavar[i]
    if (is.na(metavar)) { # a flag
      if (!is.logical(v) || length(v) != 1L || is.na(v)) input_error(arg, ": expected TRUE or FALSE")
      add(p, v)
    } else if (has_flag(flags, PARAM_OUTPUT) || p %in% OUTPUT_PARAMS) {
      if (!isTRUE(v) && !isFALSE(v)) input_error(arg, ": expected TRUE (the output comes back in $outputs) or FALSE")
      if (isTRUE(v)) add(p, "-")
    } else if (is.data.frame(v)) {
      tables[[p]] <- list(as_columns(v, arg), names(v), arg)
    } else if (has_flag(flags, PARAM_REPEAT) && grepl("^[A-Z]+\\[?[:=]", metavar)) {
      add(p, named_values(v, arg, substr(sub("^[A-Z]+\\[?", "", metavar), 1L, 1L), dir, p))
    } else {
      if (!is.atomic(v) || !length(v)) input_error(arg, ": expected a data frame, a path or a value")
      if (is.factor(v)) v <- as.character(v)
      if (length(v) > 1L && grepl(",...", metavar, fixed = TRUE)) {
        v <- paste(format_values(v), collapse = ",")
      } else if (length(v) > 1L && !has_flag(flags, PARAM_REPEAT)) {
        input_error(arg, ": expected one value, got ", length(v))
      }
      if (is.character(v) && length(v) == 1L && file.exists(v)) v <- path.expand(v)
      add(p, v)
    }
  }
  # the release comes back in the result; a command whose output is
  # optional (noise) is asked for it when it reads an input
  if ("output" %in% info$name && ("input" %in% names(params) || "input" %in% names(tables)))
    add("output", "-")
  list(params = params, tables = tables)
}

# Messages of the run as R conditions: notes as messages (class
# keps_message), warnings as warnings (keps_warning), privacy warnings (a
# seed, row order) as keps_privacy_warning.
signal_messages <- function(kinds, texts) {
  for (i in seq_along(kinds)) {
    text <- sub("^(note|warning): ", "", texts[i])
    if (kinds[i] == 0L) {
      message(structure(class = c("keps_message", "message", "condition"),
                        list(message = paste0(text, "\n"), call = NULL)))
    } else {
      cls <- c(if (kinds[i] == 2L) "keps_privacy_warning", "keps_warning", "warning", "condition")
      warning(structure(class = cls, list(message = text, call = NULL)))
    }
  }
}

parse_report <- function(json) {
  if (is.null(json)) return(NULL)
  jsonlite::fromJSON(json, simplifyVector = TRUE, simplifyDataFrame = FALSE, simplifyMatrix = FALSE)
}

# Runs command with the function's arguments; like: the input data frame
# whose column types the release keeps.
run_command <- function(command, args, quiet = FALSE, like = NULL) {
  if (!is.logical(quiet) || length(quiet) != 1L || is.na(quiet)) input_error("quiet: expected TRUE or FALSE")
  dir <- tempfile("keps-")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  a <- command_args(command, args, dir)
  # audit with neighbours runs the keps executable: the one on the PATH unless binary is given
  program <- unname(Sys.which("keps"))
  r <- .Call(rk_run, command, a$params, a$tables, quiet, isTRUE(getOption("keps.progress", interactive())),
             if (nzchar(program)) program else NULL)
  signal_messages(r$message_kinds, r$message_texts)
  if (r$status != 0L) {
    if (isTRUE(r$interrupted)) {
      stop(structure(class = c("keps_interrupt", "keps_error", "error", "condition"),
                     list(message = paste0(command, ": interrupted"), call = NULL)))
    }
    .keps_raise(r$status, r$message)
  }
  outs <- if (is.null(r$release)) r$outputs else r$outputs[names(r$outputs) != "output"]
  outputs <- lapply(outs, function(o) if (is.list(o)) as_frame(o) else o)
  structure(class = "keps_result", list(
    command = command,
    release = if (!is.null(r$release)) as_frame(r$release, like) else NULL,
    report = parse_report(r$report),
    summary = r$summary,
    printed = r$printed,
    outputs = outputs,
    finding = r$finding))
}

#' Results of keps's commands
#'
#' Every command function ([anonymize()], [kepsilon()], [dpmicro()],
#' [safela()], [rr()], [verify()], [risk()], [evaluate()], [noise()],
#' [audit()], ...) returns an object of class `keps_result`, a list of
#' \describe{
#'   \item{`release`}{the released data as a data.frame (rows in the
#'     release's order, already shuffled unless `keep_order`), typed like
#'     the input where the values allow: factors stay factors, numbers
#'     numbers unless keps generalized them into ranges; for `risk()`, the
#'     per-record figures (what `keps risk -o` writes); `NULL` when the
#'     command writes no table.}
#'   \item{`report`}{the JSON report of the `keps` CLI as a list: the
#'     guarantee the release gives, computed from the parameters used, the
#'     counts (released + suppressed + not sampled = input), the metrics.}
#'   \item{`summary`}{what the CLI prints without `--json`.}
#'   \item{`outputs`}{every other output by its parameter's name: a data
#'     frame or a text (`html`, `emit_sql`).}
#'   \item{`printed`}{what the command prints as its output (noise's
#'     releases), or `NULL`.}
#'   \item{`finding`}{`TRUE` when a check failed (verify, audit): the CLI
#'     would exit with code 1.}
#' }
#' Printing shows the summary.
#' @param x A `keps_result`.
#' @param ... Ignored.
#' @name keps_result
#' @export
print.keps_result <- function(x, ...) {
  if (!is.null(x$summary)) cat(x$summary, if (!grepl("\n$", x$summary)) "\n", sep = "")
  if (!is.null(x$release))
    cat(sprintf("release: %d rows, %d columns ($release); report: $report\n", nrow(x$release), ncol(x$release)))
  if (isTRUE(x$finding)) cat("the check FAILED: see $report\n")
  invisible(x)
}
