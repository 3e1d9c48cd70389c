// SPDX-License-Identifier: MIT
/**
 * shieh_alloc_status - Preempting Kernel Allocation Status, one per GPU in the block scheduler
 * (Shieh thesis §3.4.1, Fig 3.6).
 *
 * An issued bit per SM and position of the preempting kernel, and that kernel's process id
 * (15 b) and kernel id (5 b). Within one edge: a request (req_v_i) clears every bit and latches
 * the ids; a dispatch (disp_v_i) sets the bit of its SM and position; a finish report (fin_v_i)
 * clears it when the reported kernel id matches and the bit was set, else fin_bad_o pulses. A
 * read (rd_v_i) returns the SM's bits after that edge, with the vector of SMs holding any
 * preempting TB and the ids.
 *
 * Registered outputs: all, one cycle after their cause (fin_bad_o after fin_v_i, rd_* after
 * rd_v_i), 0 in a cycle without one. Bit-exact C reference: tables/shieh_alloc_status.c; ports:
 * shieh_alloc_status_ports.def.
 *
 * Parameters (configs/rtl/shieh_alloc_status.ini):
 *   NSm   SMs;        SmW   SM index bits, $clog2(NSm)
 *   PosN  positions per SM;  PosW  position index bits, $clog2(PosN)
 */
`include "../include/hd_assert.svh"

module shieh_alloc_status #(
  parameter int unsigned NSm  = 15,
  parameter int unsigned SmW  = 4,
  parameter int unsigned PosN = 8,
  parameter int unsigned PosW = 3
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            req_v_i,
  input  logic [14:0]     req_pid_i,
  input  logic [4:0]      req_kid_i,
  input  logic            disp_v_i,
  input  logic [SmW-1:0]  disp_sm_i,
  input  logic [PosW-1:0] disp_pos_i,
  input  logic            fin_v_i,
  input  logic [SmW-1:0]  fin_sm_i,
  input  logic [PosW-1:0] fin_pos_i,
  input  logic [4:0]      fin_kid_i,
  input  logic            rd_v_i,
  input  logic [SmW-1:0]  rd_sm_i,
  output logic            fin_bad_o,
  output logic            rd_v_o,
  output logic [PosN-1:0] rd_issued_o,
  output logic [NSm-1:0]  rd_busy_sms_o,
  output logic [14:0]     rd_pid_o,
  output logic [4:0]      rd_kid_o
);

  // SM m's bits in [m*PosN +: PosN] (a flat vector: Yosys 0.23 reads no packed 2-D arrays).
  logic [NSm*PosN-1:0] issued_d, issued_q;
  logic [14:0]         pid_d, pid_q;
  logic [4:0]          kid_d, kid_q;

  logic            fin_hit, fin_bad_d;
  logic [PosN-1:0] rd_issued_d;
  logic [NSm-1:0]  rd_busy_d;

  always_comb begin
    issued_d = req_v_i ? '0 : issued_q;
    pid_d    = req_v_i ? req_pid_i : pid_q;
    kid_d    = req_v_i ? req_kid_i : kid_q;
    fin_hit  = 1'b0;
    for (int m = 0; m < NSm; m++) begin
      for (int p = 0; p < PosN; p++) begin
        if (disp_v_i && disp_sm_i == SmW'(m) && disp_pos_i == PosW'(p)) begin
          issued_d[m*PosN + p] = 1'b1;
        end
      end
    end
    for (int m = 0; m < NSm; m++) begin
      for (int p = 0; p < PosN; p++) begin
        if (fin_v_i && fin_sm_i == SmW'(m) && fin_pos_i == PosW'(p) && fin_kid_i == kid_d &&
            issued_d[m*PosN + p]) begin
          fin_hit              = 1'b1;
          issued_d[m*PosN + p] = 1'b0;
        end
      end
    end
    fin_bad_d = fin_v_i && !fin_hit;
  end

  always_comb begin
    rd_issued_d = '0;
    rd_busy_d   = '0;
    if (rd_v_i) begin
      for (int m = 0; m < NSm; m++) begin
        if (rd_sm_i == SmW'(m)) begin
          rd_issued_d = issued_d[m*PosN +: PosN];
        end
        rd_busy_d[m] = issued_d[m*PosN +: PosN] != '0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      issued_q      <= '0;
      pid_q         <= '0;
      kid_q         <= '0;
      fin_bad_o     <= 1'b0;
      rd_v_o        <= 1'b0;
      rd_issued_o   <= '0;
      rd_busy_sms_o <= '0;
      rd_pid_o      <= '0;
      rd_kid_o      <= '0;
    end else begin
      issued_q      <= issued_d;
      pid_q         <= pid_d;
      kid_q         <= kid_d;
      fin_bad_o     <= fin_bad_d;
      rd_v_o        <= rd_v_i;
      rd_issued_o   <= rd_issued_d;
      rd_busy_sms_o <= rd_busy_d;
      rd_pid_o      <= rd_v_i ? pid_d : '0;
      rd_kid_o      <= rd_v_i ? kid_d : '0;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdShiehAllocStatusWidth, NSm >= 1 && NSm <= (1 << SmW) && NSm <= 64 &&
                                           PosN >= 1 && PosN <= (1 << PosW) && PosN <= 64)
  `HD_ASSERT_KNOWN(HdShiehAllocStatusRdKnown, rd_v_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdShiehAllocStatusBadKnown, fin_bad_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdShiehAllocStatusIssuedKnown, rd_issued_o, clk_i, rst_ni)
  `HD_ASSERT(HdShiehAllocStatusIdleZero,
             rd_v_o || (rd_issued_o == '0 && rd_busy_sms_o == '0 && rd_pid_o == '0 &&
                        rd_kid_o == '0), clk_i, rst_ni)

endmodule
