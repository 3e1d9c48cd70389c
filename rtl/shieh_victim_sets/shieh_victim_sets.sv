// SPDX-License-Identifier: MIT
/**
 * shieh_victim_sets - Candidate Victim Sets with their update logic, one per SM (Shieh thesis
 * §3.3.1, §3.4.3, Fig 3.8/3.9).
 *
 * One row per predetermined position of the preempting kernel: a bitset over the SM's
 * running-TB slots (bit j: slot j's TB occupies part of the position's register or shared-memory
 * range). The block scheduler writes the rows on a request (clr_i, then one wr_v_i per row); the
 * "Signal" of Fig 3.9 (ev_v_i, ev_mask_i: TBs that left) clears those bits from every row in
 * one cycle; a row whose position took a preempting TB is invalidated (inv_v_i). Within one edge:
 * clear, write, invalidate, evict. A read (rd_v_i) returns the row after that edge's updates,
 * with the valid and empty vectors (an empty valid row is a free position).
 *
 * Registered outputs: all (rd_v_o, rd_bits_o, row_valid_o, row_empty_o), one cycle after
 * rd_v_i, 0 in a cycle without a read result. Bit-exact C reference: tables/shieh_victim_sets.c;
 * ports: shieh_victim_sets_ports.def.
 *
 * Parameters (configs/rtl/shieh_victim_sets.ini):
 *   MaxTb    running-TB slots (bits per row)
 *   CandMax  rows
 *   CandW    row index bits, $clog2(CandMax)
 */
`include "../include/hd_assert.svh"

module shieh_victim_sets #(
  parameter int unsigned MaxTb   = 8,
  parameter int unsigned CandMax = 8,
  parameter int unsigned CandW   = 3
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               clr_i,
  input  logic               wr_v_i,
  input  logic [CandW-1:0]   wr_idx_i,
  input  logic [MaxTb-1:0]   wr_bits_i,
  input  logic               inv_v_i,
  input  logic [CandW-1:0]   inv_idx_i,
  input  logic               ev_v_i,
  input  logic [MaxTb-1:0]   ev_mask_i,
  input  logic               rd_v_i,
  input  logic [CandW-1:0]   rd_idx_i,
  output logic               rd_v_o,
  output logic [MaxTb-1:0]   rd_bits_o,
  output logic [CandMax-1:0] row_valid_o,
  output logic [CandMax-1:0] row_empty_o
);

  // Row k in bits [k*MaxTb +: MaxTb] (one flat vector: Yosys 0.23 reads no packed 2-D arrays).
  logic [CandMax*MaxTb-1:0] row_d, row_q;
  logic [CandMax-1:0] valid_d, valid_q;

  logic               rd_v_d;
  logic [MaxTb-1:0]   rd_bits_d;
  logic [CandMax-1:0] row_valid_d, row_empty_d;

  always_comb begin
    for (int k = 0; k < CandMax; k++) begin
      row_d[k*MaxTb +: MaxTb] = clr_i ? '0 : row_q[k*MaxTb +: MaxTb];
      valid_d[k] = clr_i ? 1'b0 : valid_q[k];
      if (wr_v_i && wr_idx_i == CandW'(k)) begin
        row_d[k*MaxTb +: MaxTb] = wr_bits_i;
        valid_d[k] = 1'b1;
      end
      if (inv_v_i && inv_idx_i == CandW'(k)) begin
        row_d[k*MaxTb +: MaxTb] = '0;
        valid_d[k] = 1'b0;
      end
      if (ev_v_i) begin
        row_d[k*MaxTb +: MaxTb] = row_d[k*MaxTb +: MaxTb] & ~ev_mask_i;
      end
    end
  end

  always_comb begin
    rd_v_d      = rd_v_i;
    rd_bits_d   = '0;
    row_valid_d = '0;
    row_empty_d = '0;
    if (rd_v_i) begin
      for (int k = 0; k < CandMax; k++) begin
        if (rd_idx_i == CandW'(k)) begin
          rd_bits_d = row_d[k*MaxTb +: MaxTb];
        end
        row_empty_d[k] = valid_d[k] && (row_d[k*MaxTb +: MaxTb] == '0);
      end
      row_valid_d = valid_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      row_q       <= '0;
      valid_q     <= '0;
      rd_v_o      <= 1'b0;
      rd_bits_o   <= '0;
      row_valid_o <= '0;
      row_empty_o <= '0;
    end else begin
      row_q       <= row_d;
      valid_q     <= valid_d;
      rd_v_o      <= rd_v_d;
      rd_bits_o   <= rd_bits_d;
      row_valid_o <= row_valid_d;
      row_empty_o <= row_empty_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdShiehVictimSetsWidth, CandMax >= 1 && CandMax <= (1 << CandW) &&
                                          MaxTb >= 1 && MaxTb <= 64)
  `HD_ASSERT_KNOWN(HdShiehVictimSetsRdKnown, rd_v_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdShiehVictimSetsBitsKnown, rd_bits_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdShiehVictimSetsValidKnown, row_valid_o, clk_i, rst_ni)
  `HD_ASSERT(HdShiehVictimSetsIdleZero,
             rd_v_o || (rd_bits_o == '0 && row_valid_o == '0 && row_empty_o == '0), clk_i, rst_ni)
  `HD_ASSERT(HdShiehVictimSetsEmptyValid, (row_empty_o & ~row_valid_o) == '0, clk_i, rst_ni)
  // An invalid row holds no bits (invalidation and clear zero it).
`ifndef SYNTHESIS
  logic invalid_rows_zero;
  always_comb begin
    invalid_rows_zero = 1'b1;
    for (int k = 0; k < CandMax; k++) begin
      if (!valid_q[k] && row_q[k*MaxTb +: MaxTb] != '0) begin
        invalid_rows_zero = 1'b0;
      end
    end
  end
  `HD_ASSERT(HdShiehVictimSetsInvalidZero, invalid_rows_zero, clk_i, rst_ni)
`endif

endmodule
