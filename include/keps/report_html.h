/* keps: a report rendered as one self-contained HTML page.
 *
 * The page carries the report itself (JSON, embedded in a
 * <script type="application/json"> element) and a small script that draws
 * it: the guarantee in words and numbers, the parameters, the row
 * accounting, then every section the report holds (risk before and after,
 * utility, distributions, the lattice, noise scales, ...) as tables and
 * inline SVG charts. Sections absent from the report are left out. The page
 * loads nothing from the network: no fonts, no style sheets, no scripts.
 * The template (HTML, CSS, JavaScript) is compiled into the library.
 *
 * The report is parsed (jansson) and written back in one canonical form
 * before it is embedded, so that the same report gives the same page
 * byte for byte whether it comes straight from a command (--html) or from a
 * file saved with --report and reformatted since (keps report). In the
 * embedded text '<', '>' and '&' are written as \u003c, \u003e, \u0026
 * (and U+2028, U+2029 escaped too), so no string in the report can end
 * the script element or start markup. */
#ifndef KEPS_REPORT_HTML_H
#define KEPS_REPORT_HTML_H

#include <stddef.h>

#include "keps/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Renders the report json[0..len) (a JSON object, as keps writes it) into a
 * newly allocated NUL-terminated page *html (*html_len bytes without the
 * NUL; free() it). source names the report in messages ("r.json",
 * "<stdin>"). Errors: text that is not JSON, a duplicate key, a root that
 * is not an object, nesting deeper than 60 (KEPS_EINPUT, with source, line
 * and column where the parser gives them); KEPS_ENOMEM. */
keps_status keps_report_html(const char *json, size_t len, const char *source, char **html, size_t *html_len,
                             keps_error *err);

#ifdef __cplusplus
}
#endif
#endif
