// SPDX-License-Identifier: MIT
// zz_probe.sv - a throwaway block for tests/blockadd (issue 23 item 3): a saturating accumulator
// of 8-bit samples. It exists only to show that a block's own files are all a new block needs:
// the CTest copies them into a copy of the tree and checks that every list picks the block up.
// Moore output: sum_o is the register; a valid sample adds to it the next cycle.
module zz_probe #(
    parameter bit ResetAll = 1'b0  // 1: also the last-sample flop gets the asynchronous reset
) (
    input  logic        clk_i,
    input  logic        rst_ni,
    input  logic        valid_i,
    input  logic [7:0]  data_i,
    output logic [15:0] sum_o,
    output logic [7:0]  last_o
);
  logic [15:0] sum_q;
  logic [7:0]  last_q;
  logic [16:0] next;
  assign next = {1'b0, sum_q} + {9'd0, data_i};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sum_q <= '0;
    else if (valid_i) sum_q <= next[16] ? 16'hffff : next[15:0];
  end
  // last_o shows 0 until the first sample whatever the reset: last_q is read only once seen_q
  logic seen_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) seen_q <= 1'b0;
    else if (valid_i) seen_q <= 1'b1;
  end
  if (ResetAll) begin : g_rst
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) last_q <= '0;
      else if (valid_i) last_q <= data_i;
    end
  end else begin : g_norst
    always_ff @(posedge clk_i) begin
      if (valid_i) last_q <= data_i;
    end
  end
  assign sum_o  = sum_q;
  assign last_o = seen_q ? last_q : 8'd0;
endmodule
