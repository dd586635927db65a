/* Fuzzes the hierarchy builders: the first line is a builder spec (the part
 * after "NAME:" of a --qi), the rest a one-column CSV whose column is built
 * from. A built hierarchy must bind its own column and end at one "*". */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "keps/csv.h"
#include "keps/hierarchy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    char spec[256];
    size_t n = nl ? (size_t)(nl - data) : size;
    if (!nl || n >= sizeof spec || memchr(data, '\0', n))
        return 0;
    memcpy(spec, data, n);
    spec[n] = '\0';
    keps_table *t = NULL;
    keps_error err = {0};
    keps_csv_options o = {.delimiter = ';'};
    if (keps_csv_read_buffer((const char *)nl + 1, size - n - 1, "fuzz.csv", &o, &t, &err) != KEPS_OK)
        return 0;
    t->decimal_comma = n > 0 && spec[n - 1] == ' '; /* a trailing blank reads ',' as the decimal mark */
    keps_hierarchy *h = NULL;
    if (keps_hierarchy_build_text(t, 0, spec, &h, &err) != KEPS_OK) {
        if (err.msg[0] == '\0' || h)
            __builtin_trap();
        keps_table_free(t);
        return 0;
    }
    int top = keps_hierarchy_height(h);
    if (keps_hierarchy_size(h, top) != 1 || strcmp(keps_hierarchy_label(h, top, 0), "*") != 0 ||
        keps_hierarchy_leaves(h) != t->cols[0].nvalues)
        __builtin_trap();
    uint32_t **map;
    if (keps_hierarchy_bind(h, t, 0, &map, &err) != KEPS_OK)
        __builtin_trap(); /* every value of the column is a leaf */
    keps_hierarchy_map_free(map, h);
    keps_hierarchy_free(h);
    keps_table_free(t);
    return 0;
}
