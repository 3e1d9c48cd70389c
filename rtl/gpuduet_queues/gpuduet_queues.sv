// SPDX-License-Identifier: MIT
/**
 * gpuduet_queues - GPUDuet's stalled and ready queues, one set per SM (Lin thesis §3.10, §2.12,
 * Table 3.4): queue 0 stalled warps and queue 1 ready warps (WD = 16 entries x IW = 7 bits each),
 * queue 2 stalled TBs and queue 3 ready TBs (TD = 8 entries x TIW = 5 bits each). The CSL swaps
 * contexts when both a stalled and a ready item exist (§2.12): it reads the counts and pops one
 * of each.
 *
 * Each queue is a ring buffer (head pointer and count) taking one pop and one push per cycle:
 * within an edge the pop takes the head (registered on pop_*; nothing from an empty queue, even
 * with a push in the same cycle), then the push appends at the tail unless the queue is still
 * full (then drop_o). rd_v_i: the counts and heads after the edge.
 *
 * Registered outputs: all, one cycle after their request; 0 in a cycle without a result.
 * Bit-exact C reference: tables/gpuduet_queues.c; ports: gpuduet_queues_ports.def.
 *
 * Parameters (configs/rtl/gpuduet_queues.ini):
 *   WD, TD  warp and TB queue entries (powers of two);  IW, TIW  warp and TB id bits
 *   CW  count bits, $clog2(WD + 1)
 */
`include "../include/hd_assert.svh"

module gpuduet_queues #(
  parameter int unsigned WD  = 16,
  parameter int unsigned TD  = 8,
  parameter int unsigned IW  = 7,
  parameter int unsigned TIW = 5,
  parameter int unsigned CW  = 5
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [3:0]      push_v_i,
  input  logic [4*IW-1:0] push_id_i,
  input  logic [3:0]      pop_v_i,
  input  logic            rd_v_i,
  output logic [3:0]      pop_v_o,
  output logic [4*IW-1:0] pop_id_o,
  output logic [3:0]      drop_o,
  output logic            rd_v_o,
  output logic [4*CW-1:0] rd_cnt_o,
  output logic [4*IW-1:0] rd_head_o
);

  for (genvar q = 0; q < 4; q++) begin : g_q
    localparam int unsigned D  = (q < 2) ? WD : TD;      // entries
    localparam int unsigned W  = (q < 2) ? IW : TIW;     // id bits kept
    localparam int unsigned PW = (D > 1) ? $clog2(D) : 1; // pointer bits

    logic [D*W-1:0] mem_d, mem_q;
    logic [PW-1:0]  head_d, head_q;
    logic [CW-1:0]  cnt_d, cnt_q;
    logic [PW-1:0]  tail;
    logic           pop_ok, drop;
    logic [W-1:0]   popped, head_new;

    if (W < IW) begin : g_id_hi
      // The TB queues keep the low TIW bits of their id field; the bits above carry nothing.
      logic unused_id_hi;
      assign unused_id_hi = ^push_id_i[q*IW+W +: IW-W];
    end

    always_comb begin
      mem_d  = mem_q;
      head_d = head_q;
      cnt_d  = cnt_q;
      pop_ok = 1'b0;
      popped = '0;
      drop   = 1'b0;
      tail   = '0;
      if (pop_v_i[q] && cnt_q != '0) begin
        pop_ok = 1'b1;
        popped = mem_q[head_q*W +: W];
        head_d = head_q + 1'b1;
        cnt_d  = cnt_q - 1'b1;
      end
      if (push_v_i[q]) begin
        if (cnt_d == CW'(D)) begin
          drop = 1'b1;
        end else begin
          tail  = head_d + PW'(cnt_d);
          mem_d[tail*W +: W] = push_id_i[q*IW +: W];
          cnt_d = cnt_d + 1'b1;
        end
      end
      head_new = (cnt_d != '0) ? mem_d[head_d*W +: W] : '0;
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        mem_q                  <= '0;
        head_q                 <= '0;
        cnt_q                  <= '0;
        pop_v_o[q]             <= 1'b0;
        pop_id_o[q*IW +: IW]   <= '0;
        drop_o[q]              <= 1'b0;
        rd_cnt_o[q*CW +: CW]   <= '0;
        rd_head_o[q*IW +: IW]  <= '0;
      end else begin
        mem_q                  <= mem_d;
        head_q                 <= head_d;
        cnt_q                  <= cnt_d;
        pop_v_o[q]             <= pop_ok;
        pop_id_o[q*IW +: IW]   <= IW'(popped);
        drop_o[q]              <= drop;
        rd_cnt_o[q*CW +: CW]   <= rd_v_i ? cnt_d : '0;
        rd_head_o[q*IW +: IW]  <= rd_v_i ? IW'(head_new) : '0;
      end
    end

    `HD_ASSERT(HdGpuduetQueuesCount, cnt_q <= CW'(D), clk_i, rst_ni)
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_v_o <= 1'b0;
    end else begin
      rd_v_o <= rd_v_i;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdGpuduetQueuesWidth, WD >= 1 && TD >= 1 && (WD & (WD - 1)) == 0 &&
                                        (TD & (TD - 1)) == 0 && TD <= WD && TIW <= IW &&
                                        IW <= 16 && WD < (1 << CW))
  `HD_ASSERT_KNOWN(HdGpuduetQueuesPopKnown, pop_v_o, clk_i, rst_ni)
  `HD_ASSERT(HdGpuduetQueuesRdIdleZero, rd_v_o || (rd_cnt_o == '0 && rd_head_o == '0), clk_i,
             rst_ni)
  `HD_ASSERT(HdGpuduetQueuesPopIdZero, (pop_id_o & ~{{IW{pop_v_o[3]}}, {IW{pop_v_o[2]}},
             {IW{pop_v_o[1]}}, {IW{pop_v_o[0]}}}) == '0, clk_i, rst_ni)

endmodule
