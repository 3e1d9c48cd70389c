/* SPDX-License-Identifier: MIT
 * portlist.c - print a block's interface as its ports.def defines it ("name input|output width"
 * per line, or the Markdown table with --md), for the port check against the Verilog
 * (portcheck.cmake) and for docs/blocks/. Any block of the registry (model/hw/hw_ref.h); with
 * --blocks, the registered block names, one a line.
 */
#include "hd_block.h"
#include "hw_ref.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--blocks") == 0) {
        for (unsigned i = 0; i < hd_hw_ref_count(); i++)
            printf("%s\n", hd_hw_ref_at(i)->b->name);
        return 0;
    }
    const struct hd_hw_ref_block *r = argc > 1 ? hd_hw_ref_find(argv[1]) : NULL;
    if (r) {
        if (argc > 2 && strcmp(argv[2], "--md") == 0)
            hd_block_print_ports_md(r->b, stdout);
        else
            hd_block_print_ports(r->b, stdout);
        return 0;
    }
    char names[1024];
    hd_hw_ref_names(names, sizeof names);
    fprintf(stderr, "usage: portlist BLOCK [--md] | --blocks (blocks: %s)\n", names);
    return 2;
}
