// SPDX-License-Identifier: MIT
/**
 * regpat_decomp - warp-level register decompressor (Lin thesis §2.3.3).
 *
 * Rebuilds one 32-lane vector register per cycle from the compressor's result: for lane i in
 * group g = i / PAG at offset k = i mod PAG, uniform gives base[g], strided gives
 * base[g] + k * stride[g] (mod 2^32; the closed form of Lin's "every following register adds the
 * stride value to the former one", with k * stride as five shifted partial products instead of a
 * 31-adder chain), random passes the raw lanes through (the bypass), dead gives 0. Base and stride
 * words of groups that do not exist at the PAG (g >= 32/PAG) are ignored.
 *
 * Registered outputs: all (valid_o, data_o), one cycle after the input, 0 when valid_o is 0.
 * There is no internal datapath register, hence no ResetAll parameter.
 * Bit-exact C reference: compressors/regpat_decomp.c; ports: regpat_decomp_ports.def.
 * Test-only: `define HD_FAULT_SVA adds an assertion that fails on the first valid output when
 * the simulation runs with +hd_fault_sva (the outputs stay right): a firing assertion must fail
 * the co-simulation (tests/cosim.cmake, cosim_sva_caught).
 */
`include "../include/hd_assert.svh"

module regpat_decomp (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          valid_i,
  input  logic [1:0]    pat_i,
  input  logic [1:0]    pag_i,
  input  logic [127:0]  base_i,
  input  logic [127:0]  stride_i,
  input  logic [1023:0] raw_i,
  output logic          valid_o,
  output logic [1023:0] data_o
);

  localparam int unsigned Lanes = 32;

  localparam logic [1:0] PatDead    = 2'b00;
  localparam logic [1:0] PatUniform = 2'b01;
  localparam logic [1:0] PatRandom  = 2'b10;
  localparam logic [1:0] PatStrided = 2'b11;

  // k * s for k < 32: five shifted partial products.
  function automatic logic [31:0] mul_lane(logic [4:0] k, logic [31:0] s);
    mul_lane = '0;
    for (int j = 0; j < 5; j++) begin
      if (k[j]) begin
        mul_lane = mul_lane + (s << j);
      end
    end
  endfunction

  logic [1023:0] data_d;

  for (genvar i = 0; i < Lanes; i++) begin : g_lane
    logic [31:0] base, stride;
    logic [4:0]  k;
    always_comb begin
      unique case (pag_i)
        2'd0: begin
          base   = base_i[32*(i/8) +: 32];
          stride = stride_i[32*(i/8) +: 32];
          k      = 5'(i % 8);
        end
        2'd1: begin
          base   = base_i[32*(i/16) +: 32];
          stride = stride_i[32*(i/16) +: 32];
          k      = 5'(i % 16);
        end
        default: begin  // 2'd2 and 2'd3: 32 lanes
          base   = base_i[31:0];
          stride = stride_i[31:0];
          k      = 5'(i);
        end
      endcase
      unique case (pat_i)
        PatUniform: data_d[32*i +: 32] = base;
        PatStrided: data_d[32*i +: 32] = base + mul_lane(k, stride);
        PatRandom:  data_d[32*i +: 32] = raw_i[32*i +: 32];
        PatDead:    data_d[32*i +: 32] = '0;
        default:    data_d[32*i +: 32] = '0;
      endcase
      if (!valid_i) begin
        data_d[32*i +: 32] = '0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_o <= 1'b0;
      data_o  <= '0;
    end else begin
      valid_o <= valid_i;
      data_o  <= data_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_KNOWN(HdRegpatDecompValidKnown, valid_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdRegpatDecompDataKnown, data_o, clk_i, rst_ni)
  `HD_ASSERT(HdRegpatDecompIdleZero, valid_o || data_o == '0, clk_i, rst_ni)
`ifdef HD_FAULT_SVA
  bit fault_sva_on;
  initial fault_sva_on = $test$plusargs("hd_fault_sva");
  `HD_ASSERT(HdRegpatDecompFaultSva, !(fault_sva_on && valid_o), clk_i, rst_ni)
`endif

endmodule
