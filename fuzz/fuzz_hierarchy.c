/* Fuzzes the hierarchy loader and binding: the input is a hierarchy; its
 * leaf column doubles as data so that binding runs too. */
#include <stddef.h>
#include <stdint.h>

#include "keps/hierarchy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    keps_hierarchy *h = NULL;
    keps_error err = {0};
    if (keps_hierarchy_load_buffer((const char *)data, size, "fuzz.hier", 0, &h, &err) != KEPS_OK) {
        if (err.msg[0] == '\0')
            __builtin_trap();
        return 0;
    }
    uint32_t **map;
    if (keps_hierarchy_bind(h, h->levels, 0, &map, &err) != KEPS_OK)
        __builtin_trap(); /* every leaf is in its own hierarchy */
    for (int l = 0; l <= keps_hierarchy_height(h); l++)
        for (uint32_t v = 0; v < h->levels->cols[0].nvalues; v++)
            if (map[l][v] >= keps_hierarchy_size(h, l))
                __builtin_trap();
    keps_hierarchy_map_free(map, h);
    keps_hierarchy_free(h);
    return 0;
}
