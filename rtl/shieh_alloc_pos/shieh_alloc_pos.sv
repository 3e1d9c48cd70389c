// SPDX-License-Identifier: MIT
/**
 * shieh_alloc_pos - Preempting Kernel Allocation Positions, per SM (Shieh thesis §3.2, §3.4.2,
 * Fig 3.7).
 *
 * The predetermined positions of the preempting kernel's TBs (allocation alignment): position p
 * starts at register p*r_p and shared-memory byte p*s_p. init_v_i latches the footprint and the
 * SM's capacities; then an accumulator checks one position per cycle (its end within each
 * capacity, for each resource of non-zero size, and p < PosMax) and writes its start addresses,
 * until the first check that fails, which ends the fill: done_o and k_o (K positions) one cycle
 * later, K + 2 cycles after init_v_i. Within one edge: the fill step, then init_v_i (a new
 * request restarts the fill), then the read, which returns the entry after that edge.
 *
 * Registered outputs: all (done_o, k_o, rd_*), one cycle after their cause, 0 in a cycle without
 * one. Bit-exact C reference: tables/shieh_alloc_pos.c; ports: shieh_alloc_pos_ports.def.
 *
 * Parameters (configs/rtl/shieh_alloc_pos.ini):
 *   PosMax  entries;  PosW  entry index bits, $clog2(PosMax)
 *   AddrW   bits of a start address (sizes and capacities have AddrW + 1)
 */
`include "../include/hd_assert.svh"

module shieh_alloc_pos #(
  parameter int unsigned PosMax = 48,
  parameter int unsigned PosW   = 6,
  parameter int unsigned AddrW  = 16
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             init_v_i,
  input  logic [AddrW:0]   r_per_tb_i,
  input  logic [AddrW:0]   s_per_tb_i,
  input  logic [AddrW:0]   rf_cap_i,
  input  logic [AddrW:0]   smem_cap_i,
  input  logic             rd_v_i,
  input  logic [PosW-1:0]  rd_idx_i,
  output logic             done_o,
  output logic [PosW:0]    k_o,
  output logic             rd_v_o,
  output logic             rd_ok_o,
  output logic [AddrW-1:0] rd_reg_o,
  output logic [AddrW-1:0] rd_smem_o
);

  // Entry p in bits [p*AddrW +: AddrW] (flat vectors: Yosys 0.23 reads no packed 2-D arrays).
  logic [PosMax*AddrW-1:0] reg_d, reg_q, smem_d, smem_q;
  logic [PosW:0]    k_d, k_q;
  logic             busy_d, busy_q;
  logic [AddrW:0]   r_d, r_q, s_d, s_q, rf_cap_d, rf_cap_q, smem_cap_d, smem_cap_q;
  logic [AddrW+1:0] reg_acc_d, reg_acc_q, smem_acc_d, smem_acc_q;

  logic             done_d, rd_ok_d;
  logic [PosW:0]    k_out_d;
  logic [AddrW-1:0] rd_reg_d, rd_smem_d;

  logic [AddrW+1:0] reg_end, smem_end;
  logic             fits;

  assign reg_end  = reg_acc_q + {1'b0, r_q};
  assign smem_end = smem_acc_q + {1'b0, s_q};
  assign fits = (k_q < (PosW+1)'(PosMax)) && (r_q != '0 || s_q != '0) &&
                (r_q == '0 || reg_end <= {1'b0, rf_cap_q}) &&
                (s_q == '0 || smem_end <= {1'b0, smem_cap_q});

  always_comb begin
    reg_d      = reg_q;
    smem_d     = smem_q;
    k_d        = k_q;
    busy_d     = busy_q;
    r_d        = r_q;
    s_d        = s_q;
    rf_cap_d   = rf_cap_q;
    smem_cap_d = smem_cap_q;
    reg_acc_d  = reg_acc_q;
    smem_acc_d = smem_acc_q;
    done_d     = 1'b0;
    k_out_d    = '0;
    if (busy_q) begin
      if (fits) begin
        for (int p = 0; p < PosMax; p++) begin
          if (k_q == (PosW+1)'(p)) begin
            reg_d[p*AddrW +: AddrW]  = reg_acc_q[AddrW-1:0];
            smem_d[p*AddrW +: AddrW] = smem_acc_q[AddrW-1:0];
          end
        end
        k_d        = k_q + 1'b1;
        reg_acc_d  = reg_end;
        smem_acc_d = smem_end;
      end else begin
        busy_d  = 1'b0;
        done_d  = 1'b1;
        k_out_d = k_q;
      end
    end
    if (init_v_i) begin
      done_d     = 1'b0;
      k_out_d    = '0;
      busy_d     = 1'b1;
      k_d        = '0;
      r_d        = r_per_tb_i;
      s_d        = s_per_tb_i;
      rf_cap_d   = rf_cap_i;
      smem_cap_d = smem_cap_i;
      reg_acc_d  = '0;
      smem_acc_d = '0;
    end
  end

  always_comb begin
    rd_ok_d   = 1'b0;
    rd_reg_d  = '0;
    rd_smem_d = '0;
    if (rd_v_i) begin
      for (int p = 0; p < PosMax; p++) begin
        if (rd_idx_i == PosW'(p) && (PosW+1)'(p) < k_d) begin
          rd_ok_d   = 1'b1;
          rd_reg_d  = reg_d[p*AddrW +: AddrW];
          rd_smem_d = smem_d[p*AddrW +: AddrW];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      reg_q      <= '0;
      smem_q     <= '0;
      k_q        <= '0;
      busy_q     <= 1'b0;
      r_q        <= '0;
      s_q        <= '0;
      rf_cap_q   <= '0;
      smem_cap_q <= '0;
      reg_acc_q  <= '0;
      smem_acc_q <= '0;
      done_o     <= 1'b0;
      k_o        <= '0;
      rd_v_o     <= 1'b0;
      rd_ok_o    <= 1'b0;
      rd_reg_o   <= '0;
      rd_smem_o  <= '0;
    end else begin
      reg_q      <= reg_d;
      smem_q     <= smem_d;
      k_q        <= k_d;
      busy_q     <= busy_d;
      r_q        <= r_d;
      s_q        <= s_d;
      rf_cap_q   <= rf_cap_d;
      smem_cap_q <= smem_cap_d;
      reg_acc_q  <= reg_acc_d;
      smem_acc_q <= smem_acc_d;
      done_o     <= done_d;
      k_o        <= rd_v_i ? k_d : k_out_d;
      rd_v_o     <= rd_v_i;
      rd_ok_o    <= rd_ok_d;
      rd_reg_o   <= rd_reg_d;
      rd_smem_o  <= rd_smem_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdShiehAllocPosWidth, PosMax >= 1 && PosMax <= (1 << PosW) &&
                                        AddrW >= 4 && AddrW <= 30)
  `HD_ASSERT_KNOWN(HdShiehAllocPosDoneKnown, done_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdShiehAllocPosRdKnown, rd_v_o, clk_i, rst_ni)
  `HD_ASSERT(HdShiehAllocPosKRange, k_q <= (PosW+1)'(PosMax), clk_i, rst_ni)
  `HD_ASSERT(HdShiehAllocPosIdleZero,
             rd_v_o || done_o || (k_o == '0 && !rd_ok_o && rd_reg_o == '0 && rd_smem_o == '0),
             clk_i, rst_ni)
  // Protocol: the capacities fit the stored address width.
  `HD_ASSERT(HdShiehAllocPosCapRange,
             !init_v_i || (rf_cap_i <= (AddrW+1)'(1 << AddrW) &&
                           smem_cap_i <= (AddrW+1)'(1 << AddrW)), clk_i, rst_ni)

endmodule
