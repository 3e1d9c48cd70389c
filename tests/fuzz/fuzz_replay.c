/* SPDX-License-Identifier: MIT
 * fuzz_replay.c - runs the libFuzzer target fuzz_ptx.c over files and directories without
 * libFuzzer, so any compiler (gcc in CI) can replay the seed corpus and saved crash inputs.
 *
 * Usage: fuzz_ptx_replay PATH...   (a directory means every regular file directly inside it).
 * Exits 0 when every input ran (the target aborts on a violated invariant), 1 when a path could
 * not be read or no input was found.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "fuzz_ptx_replay: cannot read %s\n", path);
        return -1;
    }
    size_t cap = 1 << 16, n = 0, r;
    uint8_t *b = malloc(cap);
    while (b && (r = fread(b + n, 1, cap - n, fp)) > 0) {
        n += r;
        if (n == cap) {
            uint8_t *nb = realloc(b, cap * 2);
            if (!nb)
                break;
            b = nb;
            cap *= 2;
        }
    }
    fclose(fp);
    if (!b)
        return -1;
    LLVMFuzzerTestOneInput(b, n);
    free(b);
    return 1;
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "fuzz_ptx_replay: no such file or directory: %s\n", path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int count = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", path, e->d_name);
        if (e->d_name[0] == '.' || stat(full, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        int r = run_file(full);
        if (r < 0) {
            closedir(d);
            return -1;
        }
        count += r;
    }
    closedir(d);
    return count;
}

int main(int argc, char **argv)
{
    int total = 0;
    for (int i = 1; i < argc; i++) {
        int r = run_path(argv[i]);
        if (r < 0)
            return 1;
        total += r;
    }
    printf("%s: %d inputs ran clean\n", argv[0], total);
    return total > 0 ? 0 : 1;
}
