// SPDX-License-Identifier: MIT
/**
 * haws_rename - the register renaming table of one warp, Gong thesis ch.5 §5.2.4 (L1048: the
 * table "always records the latest mapping"; L1109-1113: 8 entries x {original 8 b, renamed
 * 8 b}, a scalar and a vector table on Southern Islands; digest §3.3). A hint-mode instruction's
 * sources are translated through it (NSRC CAM lookups); a hint-mode instruction's destination
 * writes its mapping; it is cleared when the episode starts, returns or is discarded.
 *
 * Edge: the lookups compare the table before the edge and are registered (rd_*_o, one cycle
 * later); then clr_i empties the table, or the write overwrites the entry that maps wr_orig_i,
 * else fills the lowest free entry, else is refused (ovf_o, registered).
 * Bit-exact C reference: tables/haws_rename.c; ports: haws_rename_ports.def.
 *
 * Parameters (configs/rtl/haws_rename.ini):
 *   N entries;  CW $clog2(N+1);  REGW register bits;  NEWW location bits;  NSRC lookup ports;
 *   SRCW = NSRC*REGW;  NEWSW = NSRC*NEWW
 */
`include "../include/hd_assert.svh"

module haws_rename #(
  parameter int unsigned N     = 8,
  parameter int unsigned CW    = 4,
  parameter int unsigned REGW  = 8,
  parameter int unsigned NEWW  = 8,
  parameter int unsigned NSRC  = 3,
  parameter int unsigned SRCW  = 24,
  parameter int unsigned NEWSW = 24
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,
  input  logic             wr_v_i,
  input  logic [REGW-1:0]  wr_orig_i,
  input  logic [NEWW-1:0]  wr_new_i,
  input  logic [NSRC-1:0]  rd_v_i,
  input  logic [SRCW-1:0]  rd_src_i,
  output logic [NSRC-1:0]  rd_hit_o,
  output logic [NEWSW-1:0] rd_new_o,
  output logic [CW-1:0]    count_o,
  output logic             ovf_o
);

  localparam int unsigned EW = N > 1 ? $clog2(N) : 1; // an entry index

  // Entry e's fields in bits [e*W +: W] (flat vectors: Yosys 0.23 reads no packed 2-D arrays).
  logic [N*REGW-1:0] orig_q;
  logic [N*NEWW-1:0] new_q;
  logic [N-1:0]      val_q;

  // {==== lookups (the table before the edge) ====
  logic [NSRC-1:0]  hit;
  logic [NEWSW-1:0] loc;
  always_comb begin
    hit = '0;
    loc = '0;
    for (int unsigned s = 0; s < NSRC; s++)
      for (int unsigned e = 0; e < N; e++)
        if (rd_v_i[s] && val_q[e] && orig_q[e*REGW +: REGW] == rd_src_i[s*REGW +: REGW]) begin
          hit[s]              = 1'b1;
          loc[s*NEWW +: NEWW] = new_q[e*NEWW +: NEWW];
        end
  end
  // }====

  // {==== the write: its entry, else the lowest free one ====
  logic          match, free_found;
  logic [EW-1:0] match_e, free_e;
  always_comb begin
    match      = 1'b0;
    free_found = 1'b0;
    match_e    = '0;
    free_e     = '0;
    for (int unsigned e = 0; e < N; e++) begin
      if (val_q[e] && orig_q[e*REGW +: REGW] == wr_orig_i) begin
        match   = 1'b1;
        match_e = EW'(e);
      end
      if (!val_q[e] && !free_found) begin
        free_found = 1'b1;
        free_e     = EW'(e);
      end
    end
  end
  logic          do_wr;
  logic [EW-1:0] wr_e;
  assign do_wr = wr_v_i && !clr_i && (match || free_found);
  assign wr_e  = match ? match_e : free_e;
  // }====

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      orig_q   <= '0;
      new_q    <= '0;
      val_q    <= '0;
      rd_hit_o <= '0;
      rd_new_o <= '0;
      ovf_o    <= 1'b0;
    end else begin
      rd_hit_o <= hit;
      rd_new_o <= loc;
      ovf_o    <= wr_v_i && !clr_i && !match && !free_found;
      if (clr_i) val_q <= '0;
      else if (do_wr) begin
        orig_q[wr_e*REGW +: REGW] <= wr_orig_i;
        new_q[wr_e*NEWW +: NEWW]  <= wr_new_i;
        val_q[wr_e]               <= 1'b1;
      end
    end
  end

  always_comb begin
    count_o = '0;
    for (int unsigned e = 0; e < N; e++) count_o = count_o + CW'(val_q[e]);
  end

  `HD_ASSERT_INIT(HdHawsRenameParams, N >= 1 && N <= 64 && (1 << CW) > N && REGW >= 1 &&
                 REGW <= 16 && NEWW >= 1 && NEWW <= 16 && NSRC >= 1 && NSRC <= 4 &&
                 SRCW == NSRC * REGW && NEWSW == NSRC * NEWW)
  // A register is mapped at most once (a write overwrites its mapping).
  `HD_ASSERT(HdHawsRenameUnique, !(wr_v_i && !clr_i && match && free_found && wr_e == free_e),
             clk_i, rst_ni)

endmodule
