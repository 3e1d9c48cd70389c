/* SPDX-License-Identifier: MIT
 * fuzz_gpgpusim.c - libFuzzer target for the GPGPU-Sim option-file importer
 * (hd_config_parse_gpgpusim, config_gpgpusim.c).
 *
 * Any byte string either imports, or fails with one message located as "fuzz.config:LINE: ...".
 * The list of ignored options stays NUL-terminated inside its buffer, and an imported
 * configuration survives the INI round trip (written, read back, equal). Built with libFuzzer
 * when HD_FUZZ=ON (tests/fuzz.cmake); fuzz_replay.c runs it over the seed corpus in every build.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int ok, const char *what, const char *detail)
{
    if (!ok) {
        fprintf(stderr, "fuzz_gpgpusim: %s%s%s\n", what, detail ? ": " : "",
                detail ? detail : "");
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct hd_config cfg;
    char err[1024] = "", ignored[2048];
    unsigned nign = 0;
    hd_config_defaults(&cfg);
    memset(ignored, 'x', sizeof ignored);
    (void)hd_config_is_gpgpusim((const char *)data, size);
    int rc = hd_config_parse_gpgpusim(&cfg, (const char *)data, size, "fuzz.config", ignored,
                                      sizeof ignored, &nign, err, sizeof err);
    require(memchr(ignored, '\0', sizeof ignored) != NULL, "ignored list not terminated", NULL);
    if (rc != 0) {
        require(strncmp(err, "fuzz.config", 11) == 0, "an import error is not located", err);
        return 0;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    require(f != NULL, "open_memstream", NULL);
    hd_config_write(&cfg, f, "");
    fclose(f);
    struct hd_config back;
    hd_config_defaults(&back);
    rc = hd_config_parse(&back, buf, len, "echo.ini", err, sizeof err);
    require(rc == 0, "the imported configuration does not read back", err);
    require(hd_config_equal(&cfg, &back), "the imported configuration reads back different", buf);
    free(buf);
    return 0;
}
