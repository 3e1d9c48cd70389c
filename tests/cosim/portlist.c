/* SPDX-License-Identifier: MIT
 * portlist.c - print a block's interface as its ports.def defines it ("name input|output width"
 * per line, or the Markdown table with --md), for the port check against the Verilog
 * (portcheck.cmake) and for docs/blocks/regpat.md.
 */
#include "hd_block.h"
#include "regpat_comp.h"
#include "regpat_decomp.h"
#include "regpat_tbcls.h"

#include <stdio.h>
#include <string.h>

static const struct hd_block_desc *const blocks[] = {&hd_regpat_comp_block, &hd_regpat_decomp_block,
                                                     &hd_regpat_tbcls_block};

int main(int argc, char **argv)
{
    bool md = argc > 2 && strcmp(argv[2], "--md") == 0;
    for (unsigned i = 0; argc > 1 && i < sizeof blocks / sizeof blocks[0]; i++) {
        if (strcmp(blocks[i]->name, argv[1]) != 0)
            continue;
        if (md)
            hd_block_print_ports_md(blocks[i], stdout);
        else
            hd_block_print_ports(blocks[i], stdout);
        return 0;
    }
    fprintf(stderr, "usage: portlist BLOCK [--md] (blocks: regpat_comp, regpat_decomp, regpat_tbcls)\n");
    return 2;
}
