/* Fuzzes the YAML job-file loader. */
#include <stddef.h>
#include <stdint.h>

#include "job.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    keps_job *job = NULL;
    keps_error err = {0};
    if (keps_job_load_buffer((const char *)data, size, "fuzz.yml", &job, &err) == KEPS_OK)
        keps_job_free(job);
    else if (err.msg[0] == '\0')
        __builtin_trap();
    return 0;
}
