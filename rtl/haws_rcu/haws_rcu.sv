// SPDX-License-Identifier: MIT
/**
 * haws_rcu - the result collection unit (RCU) of one warp, Gong thesis ch.5 §5.2.4 (L1037-1063;
 * digest §3.2): DEPTH entries of {offset OFFW, dst REGW, renamed REGW, ready, control, valid}
 * (the thesis's 8 x 28 bits with OFFW = 9, REGW = 8), a circular FIFO in program order.
 *
 * Its three roles: it holds what each hint-mode instruction wrote (the mapping dst -> renamed),
 * it guides the return to in-order execution (the head: offset, renamed != dst means a copy,
 * control means the branch executes again), and its ready bits are the RAW check of later
 * hint-mode instructions (no duplicated scoreboard).
 *
 * Edge (one per cycle): clr_i empties the unit (a trigger or a discard), nothing else that edge;
 * else pop_i retires the head (when valid), wb_i sets entry wb_idx_i ready (when valid), alloc_i
 * appends at the tail when the unit was not full before the edge. Outputs are functions of the
 * entries (Moore): one cycle after the edge that changed them.
 * Bit-exact C reference: tables/haws_rcu.c; ports: haws_rcu_ports.def.
 *
 * Parameters (configs/rtl/haws_rcu.ini):
 *   DEPTH entries (a power of two);  IW $clog2(DEPTH);  CW $clog2(DEPTH+1)
 *   OFFW  offset bits;  REGW  register number bits
 */
`include "../include/hd_assert.svh"

module haws_rcu #(
  parameter int unsigned DEPTH = 8,
  parameter int unsigned IW    = 3,
  parameter int unsigned CW    = 4,
  parameter int unsigned OFFW  = 9,
  parameter int unsigned REGW  = 8
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            clr_i,
  input  logic            alloc_v_i,
  input  logic [OFFW-1:0] alloc_off_i,
  input  logic [REGW-1:0] alloc_dst_i,
  input  logic [REGW-1:0] alloc_ren_i,
  input  logic            alloc_ctrl_i,
  input  logic            wb_v_i,
  input  logic [IW-1:0]   wb_idx_i,
  input  logic            pop_i,
  output logic [CW-1:0]   count_o,
  output logic            full_o,
  output logic [IW-1:0]   tail_o,
  output logic [DEPTH-1:0] valid_o,
  output logic [DEPTH-1:0] ready_o,
  output logic            head_v_o,
  output logic [IW-1:0]   head_idx_o,
  output logic [OFFW-1:0] head_off_o,
  output logic [REGW-1:0] head_dst_o,
  output logic [REGW-1:0] head_ren_o,
  output logic            head_ready_o,
  output logic            head_ctrl_o
);

  // Entry i's fields in bits [i*W +: W] (flat vectors: Yosys 0.23 reads no packed 2-D arrays).
  logic [DEPTH*OFFW-1:0] off_q;
  logic [DEPTH*REGW-1:0] dst_q, ren_q;
  logic [DEPTH-1:0]      val_q, rdy_q, ctl_q;
  logic [IW-1:0]         head_q, tail_q;
  logic [CW-1:0]         cnt_q;

  logic full, empty, do_pop, do_alloc, do_wb;
  assign full     = cnt_q == CW'(DEPTH);
  assign empty    = cnt_q == '0;
  assign do_pop   = pop_i && !empty;
  assign do_alloc = alloc_v_i && !full;
  assign do_wb    = wb_v_i && val_q[wb_idx_i];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      off_q  <= '0;
      dst_q  <= '0;
      ren_q  <= '0;
      val_q  <= '0;
      rdy_q  <= '0;
      ctl_q  <= '0;
      head_q <= '0;
      tail_q <= '0;
      cnt_q  <= '0;
    end else if (clr_i) begin
      val_q  <= '0;
      rdy_q  <= '0;
      head_q <= '0;
      tail_q <= '0;
      cnt_q  <= '0;
    end else begin
      if (do_pop) begin
        val_q[head_q] <= 1'b0;
        rdy_q[head_q] <= 1'b0;
        head_q        <= head_q + 1'b1;
      end
      if (do_wb && !(do_pop && wb_idx_i == head_q)) rdy_q[wb_idx_i] <= 1'b1;
      if (do_alloc) begin
        off_q[tail_q*OFFW +: OFFW] <= alloc_off_i;
        dst_q[tail_q*REGW +: REGW] <= alloc_dst_i;
        ren_q[tail_q*REGW +: REGW] <= alloc_ren_i;
        ctl_q[tail_q]              <= alloc_ctrl_i;
        val_q[tail_q]              <= 1'b1;
        rdy_q[tail_q]              <= 1'b0;
        tail_q                     <= tail_q + 1'b1;
      end
      cnt_q <= cnt_q + CW'(do_alloc) - CW'(do_pop);
    end
  end

  assign count_o      = cnt_q;
  assign full_o       = full;
  assign tail_o       = tail_q;
  assign valid_o      = val_q;
  assign ready_o      = rdy_q & val_q;
  assign head_v_o     = !empty;
  assign head_idx_o   = head_q;
  assign head_off_o   = empty ? '0 : off_q[head_q*OFFW +: OFFW];
  assign head_dst_o   = empty ? '0 : dst_q[head_q*REGW +: REGW];
  assign head_ren_o   = empty ? '0 : ren_q[head_q*REGW +: REGW];
  assign head_ready_o = !empty && rdy_q[head_q];
  assign head_ctrl_o  = !empty && ctl_q[head_q];

  `HD_ASSERT_INIT(HdHawsRcuParams, DEPTH >= 2 && DEPTH <= 64 && (1 << IW) == DEPTH &&
                 (1 << CW) > DEPTH && OFFW >= 1 && OFFW <= 16 && REGW >= 1 && REGW <= 16)
  // The valid entries are exactly the count from the head (the FIFO never has holes).
  `HD_ASSERT(HdHawsRcuCount, $countones(val_q) == 32'(cnt_q), clk_i, rst_ni)
  `HD_ASSERT(HdHawsRcuHead, !empty |-> val_q[head_q], clk_i, rst_ni)

endmodule
