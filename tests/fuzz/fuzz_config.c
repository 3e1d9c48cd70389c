/* SPDX-License-Identifier: MIT
 * fuzz_config.c - libFuzzer target for the INI configuration reader and for --set overrides.
 *
 * An input that starts with "#set\n" is a list of --set overrides, one "section.key=value" per
 * line, applied in order with hd_config_set (as the CLI does); any other input is an INI file
 * read by hd_config_parse. Either every step succeeds, or it fails with a message (an INI
 * message located as "fuzz.ini:LINE: ..."). An accepted configuration goes through the cross-key
 * check and must survive a round trip: written back as INI (hd_config_write) and read again, it
 * equals itself. Built with libFuzzer when HD_FUZZ=ON (tests/fuzz.cmake); fuzz_replay.c runs the
 * same function over the seed corpus in every build.
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
        fprintf(stderr, "fuzz_config: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
        abort();
    }
}

/* --set lines: 0 when every line applied, -1 at the first that did not (message in err). */
static int apply_sets(struct hd_config *cfg, const char *p, const char *end, char *err,
                      size_t errlen)
{
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char line[4200], key[128];
        if (len >= sizeof line)
            len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = '\0';
        p += len + (nl ? 1 : 0);
        char *eq = strchr(line, '=');
        if (len == 0 || !eq || eq == line || (size_t)(eq - line) >= sizeof key)
            continue; /* the CLI rejects these before hd_config_set */
        memcpy(key, line, (size_t)(eq - line));
        key[eq - line] = '\0';
        if (hd_config_set(cfg, key, eq + 1, err, errlen) != 0)
            return -1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    struct hd_config cfg;
    char err[1024] = "";
    hd_config_defaults(&cfg);
    int rc;
    if (size >= 5 && memcmp(data, "#set\n", 5) == 0) {
        rc = apply_sets(&cfg, text + 5, text + size, err, sizeof err);
        if (rc != 0)
            require(err[0] != '\0', "a rejected --set has no message", NULL);
    } else {
        rc = hd_config_parse(&cfg, text, size, "fuzz.ini", err, sizeof err);
        if (rc != 0)
            require(strncmp(err, "fuzz.ini", 8) == 0, "an INI error is not located", err);
    }
    if (rc != 0)
        return 0;
    char why[512];
    (void)hd_config_validate(&cfg, why, sizeof why);
    /* round trip */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    require(f != NULL, "open_memstream", NULL);
    hd_config_write(&cfg, f, "");
    fclose(f);
    struct hd_config back;
    hd_config_defaults(&back);
    rc = hd_config_parse(&back, buf, len, "echo.ini", err, sizeof err);
    require(rc == 0, "the written configuration does not read back", err);
    require(hd_config_equal(&cfg, &back), "the written configuration reads back different", buf);
    free(buf);
    return 0;
}
