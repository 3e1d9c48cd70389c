// SPDX-License-Identifier: MIT
/**
 * shieh_tb_status - Running TB Status, one per SM (Shieh thesis §3.4.4, Fig 3.10).
 *
 * Per running-TB slot: the warp instructions executed (CW bits, saturating), the issue cycle
 * (CW bits) and the flush bit (relaxed idempotence: cleared by the first atomic or global
 * store). Within one edge: the free (free_v_i; the entry it held is registered on fin_* for the
 * finished-TB statistics), then the allocation (alloc_v_i writes {alloc_instr_i, alloc_cycle_i,
 * alloc_flush_i}), then the Iss issue ports in order (each +1 to its slot, a non-idempotent one
 * clears the flush bit; a port naming a slot that is not valid after the free and the
 * allocation is ignored). A read (rd_v_i) returns the slot after that edge's updates, with the
 * valid and flush vectors of every slot.
 *
 * Registered outputs: all, one cycle after their request (fin_* after free_v_i, rd_* after
 * rd_v_i), 0 in a cycle without a result. Bit-exact C reference: tables/shieh_tb_status.c;
 * ports: shieh_tb_status_ports.def.
 *
 * Parameters (configs/rtl/shieh_tb_status.ini):
 *   MaxTb  slots;  TbW  slot index bits, $clog2(MaxTb)
 *   Iss    issue ports (warp schedulers);  CW  counter and cycle bits
 */
`include "../include/hd_assert.svh"

module shieh_tb_status #(
  parameter int unsigned MaxTb = 8,
  parameter int unsigned TbW   = 3,
  parameter int unsigned Iss   = 2,
  parameter int unsigned CW    = 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             alloc_v_i,
  input  logic [TbW-1:0]   alloc_slot_i,
  input  logic [CW-1:0]    alloc_cycle_i,
  input  logic [CW-1:0]    alloc_instr_i,
  input  logic             alloc_flush_i,
  input  logic [Iss-1:0]   iss_v_i,
  input  logic [Iss*TbW-1:0] iss_slot_i,
  input  logic [Iss-1:0]   iss_nonidem_i,
  input  logic             free_v_i,
  input  logic [TbW-1:0]   free_slot_i,
  input  logic             rd_v_i,
  input  logic [TbW-1:0]   rd_slot_i,
  output logic             fin_v_o,
  output logic [CW-1:0]    fin_instr_o,
  output logic [CW-1:0]    fin_issue_o,
  output logic             rd_v_o,
  output logic             rd_valid_o,
  output logic [CW-1:0]    rd_instr_o,
  output logic [CW-1:0]    rd_issue_o,
  output logic             rd_flush_o,
  output logic [MaxTb-1:0] rd_slots_o,
  output logic [MaxTb-1:0] rd_flushes_o
);

  // Slot j's fields in bits [j*CW +: CW] (flat vectors: Yosys 0.23 reads no packed 2-D arrays).
  logic [MaxTb*CW-1:0] instr_d, instr_q, issue_d, issue_q;
  logic [MaxTb-1:0]    valid_d, valid_q, flush_d, flush_q;

  logic          fin_v_d;
  logic [CW-1:0] fin_instr_d, fin_issue_d;
  logic          rd_valid_d, rd_flush_d;
  logic [CW-1:0] rd_instr_d, rd_issue_d;
  logic [MaxTb-1:0] rd_slots_d, rd_flushes_d;

  localparam int unsigned HitW = $clog2(Iss + 1);
  logic [HitW-1:0] hits;
  logic            nonidem;
  logic [CW:0]     sum;

  always_comb begin
    instr_d     = instr_q;
    issue_d     = issue_q;
    valid_d     = valid_q;
    flush_d     = flush_q;
    fin_v_d     = 1'b0;
    fin_instr_d = '0;
    fin_issue_d = '0;
    for (int j = 0; j < MaxTb; j++) begin
      if (free_v_i && free_slot_i == TbW'(j)) begin
        if (valid_q[j]) begin
          fin_v_d     = 1'b1;
          fin_instr_d = instr_q[j*CW +: CW];
          fin_issue_d = issue_q[j*CW +: CW];
        end
        valid_d[j]         = 1'b0;
        flush_d[j]         = 1'b0;
        instr_d[j*CW +: CW] = '0;
        issue_d[j*CW +: CW] = '0;
      end
      if (alloc_v_i && alloc_slot_i == TbW'(j)) begin
        valid_d[j]         = 1'b1;
        flush_d[j]         = alloc_flush_i;
        instr_d[j*CW +: CW] = alloc_instr_i;
        issue_d[j*CW +: CW] = alloc_cycle_i;
      end
      // The ports' +1s in order, each saturating, equal one saturating add of their count:
      // a single adder on the path instead of Iss chained ones (timing, docs/synth.md).
      hits = '0;
      nonidem = 1'b0;
      for (int k = 0; k < Iss; k++) begin
        if (iss_v_i[k] && iss_slot_i[k*TbW +: TbW] == TbW'(j) && valid_d[j]) begin
          hits = hits + 1'b1;
          nonidem = nonidem | iss_nonidem_i[k];
        end
      end
      sum = {1'b0, instr_d[j*CW +: CW]} + (CW+1)'(hits);
      instr_d[j*CW +: CW] = sum[CW] ? '1 : sum[CW-1:0];
      if (nonidem) begin
        flush_d[j] = 1'b0;
      end
    end
  end

  always_comb begin
    rd_valid_d   = 1'b0;
    rd_flush_d   = 1'b0;
    rd_instr_d   = '0;
    rd_issue_d   = '0;
    rd_slots_d   = '0;
    rd_flushes_d = '0;
    if (rd_v_i) begin
      for (int j = 0; j < MaxTb; j++) begin
        if (rd_slot_i == TbW'(j) && valid_d[j]) begin
          rd_valid_d = 1'b1;
          rd_flush_d = flush_d[j];
          rd_instr_d = instr_d[j*CW +: CW];
          rd_issue_d = issue_d[j*CW +: CW];
        end
      end
      rd_slots_d   = valid_d;
      rd_flushes_d = valid_d & flush_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      instr_q      <= '0;
      issue_q      <= '0;
      valid_q      <= '0;
      flush_q      <= '0;
      fin_v_o      <= 1'b0;
      fin_instr_o  <= '0;
      fin_issue_o  <= '0;
      rd_v_o       <= 1'b0;
      rd_valid_o   <= 1'b0;
      rd_instr_o   <= '0;
      rd_issue_o   <= '0;
      rd_flush_o   <= 1'b0;
      rd_slots_o   <= '0;
      rd_flushes_o <= '0;
    end else begin
      instr_q      <= instr_d;
      issue_q      <= issue_d;
      valid_q      <= valid_d;
      flush_q      <= flush_d;
      fin_v_o      <= fin_v_d;
      fin_instr_o  <= fin_instr_d;
      fin_issue_o  <= fin_issue_d;
      rd_v_o       <= rd_v_i;
      rd_valid_o   <= rd_valid_d;
      rd_instr_o   <= rd_instr_d;
      rd_issue_o   <= rd_issue_d;
      rd_flush_o   <= rd_flush_d;
      rd_slots_o   <= rd_slots_d;
      rd_flushes_o <= rd_flushes_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdShiehTbStatusWidth, MaxTb >= 1 && MaxTb <= (1 << TbW) && MaxTb <= 64 &&
                                        Iss >= 1 && CW >= 8 && CW <= 64)
  `HD_ASSERT_KNOWN(HdShiehTbStatusFinKnown, fin_v_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdShiehTbStatusRdKnown, rd_v_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdShiehTbStatusInstrKnown, rd_instr_o, clk_i, rst_ni)
  `HD_ASSERT(HdShiehTbStatusFinIdleZero, fin_v_o || (fin_instr_o == '0 && fin_issue_o == '0),
             clk_i, rst_ni)
  `HD_ASSERT(HdShiehTbStatusRdIdleZero,
             rd_v_o || (!rd_valid_o && rd_instr_o == '0 && rd_issue_o == '0 && !rd_flush_o &&
                        rd_slots_o == '0 && rd_flushes_o == '0), clk_i, rst_ni)
  `HD_ASSERT(HdShiehTbStatusFlushValid, (rd_flushes_o & ~rd_slots_o) == '0, clk_i, rst_ni)
  // An invalid slot holds zeros (a free clears it).
  `HD_ASSERT(HdShiehTbStatusInvalidZero, (flush_q & ~valid_q) == '0, clk_i, rst_ni)

endmodule
