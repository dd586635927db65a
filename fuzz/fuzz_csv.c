/* Fuzzes the CSV reader (sniffing, quoting, line ends) and the numeric
 * parser: any input must give a table or a clean error, never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "keps/csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    keps_table *t = NULL;
    keps_error err = {0};
    if (keps_csv_read_buffer((const char *)data, size, "fuzz.csv", NULL, &t, &err) == KEPS_OK) {
        for (size_t j = 0; j < t->ncols; j++)
            keps_table_numeric(t, j, &err);
        keps_table_free(t);
    } else if (err.msg[0] == '\0') {
        __builtin_trap(); /* every failure must explain itself */
    }
    return 0;
}
