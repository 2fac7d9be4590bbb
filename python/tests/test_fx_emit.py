"""CPU tests of fp8_mlir.fx_emit: the MLIR of torch.fx graphs (from
symbolic_trace, and AOTAutograd's forward and backward graphs of a Llama
MLP block), its roles, what fp8-opt --fp8-pipeline makes of it, and the
errors that name the node the emitter cannot express. Need PyTorch (1.13
or later; functorch for the AOTAutograd graphs); the pipeline tests need
fp8-opt ($FP8_OPT). Skipped without them."""

import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))

from fp8_mlir import EmitError, compiler  # noqa: E402

try:
    import torch
    import torch.fx
    from fp8_mlir import fx_emit
except ImportError:
    torch = None
try:
    from functorch.compile import aot_module
except ImportError:
    aot_module = None

FP8_OPT = compiler.find_compiler()
TOKENS, DIM, HIDDEN = 128, 256, 512

if torch:
    nn, F = torch.nn, torch.nn.functional

    class RMSNorm(nn.Module):
        """Llama's, as written in its model code."""

        def __init__(self, dim, eps=1e-5):
            super().__init__()
            self.eps = eps
            self.weight = nn.Parameter(torch.ones(dim))

        def forward(self, x):
            h = x.float()
            h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)
            return h.type_as(x) * self.weight

    class LlamaMlp(nn.Module):
        """RMSNorm, W1 and W3, SiLU times the gate, W2, the residual."""

        def __init__(self, dim, hidden):
            super().__init__()
            self.norm = RMSNorm(dim)
            self.w1 = nn.Linear(dim, hidden, bias=False)
            self.w3 = nn.Linear(dim, hidden, bias=False)
            self.w2 = nn.Linear(hidden, dim, bias=False)

        def forward(self, x):
            h = self.norm(x)
            return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


def _signature(text):
    head = text.split(") {", 1)[0]
    return dict(re.findall(r"(%[\w.$]+): tensor<[^>]*>"
                           r"(?: \{fp8.role = \"(\w+)\"\})?", head))


def _pipeline(text, recipe):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir",
                                     delete=False) as f:
        f.write(text)
    try:
        run = subprocess.run(
            [FP8_OPT, f.name, "--fp8-pipeline=recipe=%s chip=sm_90a" %
             recipe], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if run.returncode:
        raise AssertionError("fp8-opt failed:\n" + run.stderr)
    return run.stdout


@unittest.skipUnless(torch, "needs PyTorch")
class TorchLevelTest(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.model = LlamaMlp(DIM, HIDDEN).to(torch.bfloat16)
        self.x = torch.randn(TOKENS, DIM, dtype=torch.bfloat16)
        self.gm = torch.fx.symbolic_trace(self.model)
        self.text = fx_emit.emit(self.gm, [self.x], name="mlp")

    def test_roles(self):
        # Parameters a matmul reads are weights; the norm's gain is not.
        self.assertEqual(_signature(self.text), {
            "%x": "activation", "%norm.weight": "",
            "%w1.weight": "weight", "%w3.weight": "weight",
            "%w2.weight": "weight"})

    def test_ops(self):
        # The norm is one row sum of squares (f32) and one elementwise
        # generic; the transposed weights are matmul maps, not copies.
        t = self.text
        self.assertEqual(t.count("linalg.matmul"), 3)
        self.assertEqual(t.count('iterator_types = ["parallel", '
                                 '"reduction"]'), 1)
        self.assertIn("-> tensor<128xf32>", t)
        self.assertEqual(t.count("affine_map<(m, n, k) -> (n, k)>"), 3)
        self.assertNotIn("linalg.transpose", t)
        self.assertEqual(t.count("math.rsqrt"), 1)
        self.assertIn("func.func @mlp(", t)

    def test_role_override(self):
        text = fx_emit.emit(self.gm, [self.x], name="mlp",
                            roles={"norm.weight": "weight", "x": None})
        sig = _signature(text)
        self.assertEqual((sig["%x"], sig["%norm.weight"]), ("", "weight"))

    def test_shapes_without_tensors(self):
        # (shape, dtype) pairs instead of tensors give the same text.
        self.assertEqual(fx_emit.emit(self.gm, [((TOKENS, DIM), "bf16")],
                                      name="mlp"), self.text)

    def test_layer_norm_gelu_bias(self):
        # GPT's block: LayerNorm (two row sums), biases, tanh GELU.
        model = nn.Sequential(nn.LayerNorm(DIM), nn.Linear(DIM, HIDDEN),
                              nn.GELU(approximate="tanh"),
                              nn.Linear(HIDDEN, DIM)).to(torch.bfloat16)
        text = fx_emit.emit(torch.fx.symbolic_trace(model), [self.x])
        self.assertEqual(text.count('"reduction"'), 2)
        self.assertIn("math.tanh", text)
        sig = _signature(text)
        self.assertEqual(sig["%_1.weight"], "weight")
        self.assertEqual(sig["%_1.bias"], "")
        if FP8_OPT:
            self.assertIn("fp8.scaled_matmul", _pipeline(text, "blockwise"))

    @unittest.skipUnless(FP8_OPT, "needs fp8-opt ($FP8_OPT)")
    def test_pipeline_fuses_norm(self):
        # As in pipeline-norm.mlir: the RMSNorm becomes the quantization's
        # body and `reduce` region; what stays is the residual add.
        out = _pipeline(self.text, "blockwise")
        self.assertIn("fp8.quantize_elementwise", out)
        self.assertIn("} reduce {", out)
        self.assertNotIn('"reduction"', out)
        self.assertEqual(out.count("linalg.generic"), 1)
        self.assertEqual(out.count('fp8.matmul = "fprop"'), 3)
        self.assertIn('fp8.matmul = "fprop"', _pipeline(self.text,
                                                        "tensorwise"))

    @unittest.skipUnless(FP8_OPT, "needs fp8-opt ($FP8_OPT)")
    def test_rank3(self):
        # [batch, seq, dim]: the collapse to tokens goes to the inputs of
        # the norm's generic, so it still feeds the matmul and fuses.
        x = torch.randn(2, TOKENS // 2, DIM, dtype=torch.bfloat16)
        text = fx_emit.emit(self.gm, [x])
        self.assertIn("tensor.collapse_shape %x", text)
        self.assertIn("tensor.expand_shape", text)
        out = _pipeline(text, "blockwise")
        self.assertIn("} reduce {", out)
        self.assertNotIn('"reduction"', out)


@unittest.skipUnless(torch and aot_module, "needs PyTorch with functorch")
class AotTest(unittest.TestCase):
    """AOTAutograd's aten graphs of the Llama MLP, forward and backward."""

    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        model = LlamaMlp(DIM, HIDDEN).to(torch.bfloat16)
        graphs = {}

        def keep(kind):
            def compiler(gm, inputs):
                graphs[kind] = gm
                return gm
            return compiler
        compiled = aot_module(model, fw_compiler=keep("fw"),
                              bw_compiler=keep("bw"))
        x = torch.randn(TOKENS, DIM, dtype=torch.bfloat16,
                        requires_grad=True)
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiled(x).sum().backward()
        cls.fw, cls.bw = graphs["fw"], graphs["bw"]
        # aot_module passes the 4 parameters first, then x.
        cls.fw_text = fx_emit.emit(cls.fw, name="mlp_fwd", parameters=4)
        saved = fx_emit.output_roles(cls.fw, parameters=4)[1:]
        names = [n.name for n in cls.bw.graph.nodes if n.op == "placeholder"]
        cls.bw_roles = dict(zip(names, saved))
        cls.bw_text = fx_emit.emit(cls.bw, name="mlp_bwd",
                                   roles=cls.bw_roles)

    def ops(self, gm):
        return {str(n.target) for n in gm.graph.nodes
                if n.op == "call_function"}

    def test_aten_ops(self):
        # What torch 1.13 decomposes the block into: the set the emitter
        # covers (a new one here should fail loudly, not quietly).
        self.assertTrue({"aten.mm.default", "aten.t.default",
                         "aten.mean.dim", "aten.rsqrt.default",
                         "aten.silu.default"} <= self.ops(self.fw))
        self.assertTrue({"aten.sum.dim_IntList", "aten.sigmoid.default",
                         "aten.mm.default"} <= self.ops(self.bw))

    def test_forward_roles(self):
        sig = _signature(self.fw_text)
        self.assertEqual(sig, {"%primals_1": "", "%primals_2": "weight",
                               "%primals_3": "weight",
                               "%primals_4": "weight",
                               "%primals_5": "activation"})
        self.assertEqual(self.fw_text.count("linalg.matmul"), 3)

    def test_backward_roles(self):
        # tangents_1 is the incoming gradient; the saved transposes of the
        # weights are weights, the saved activations activations, the norm
        # gain has none.
        sig = _signature(self.bw_text)
        self.assertEqual(sig["%tangents_1"], "gradient")
        roles = sorted(r for r in sig.values())
        self.assertEqual(roles.count("weight"), 3)
        self.assertEqual(roles.count(""), 1)
        self.assertEqual(self.bw_text.count("linalg.matmul"), 6)

    @unittest.skipUnless(FP8_OPT, "needs fp8-opt ($FP8_OPT)")
    def test_pipeline(self):
        for recipe in ("blockwise", "tensorwise"):
            fw = _pipeline(self.fw_text, recipe)
            self.assertEqual(fw.count('fp8.matmul = "fprop"'), 3)
            self.assertIn("fp8.quantize_elementwise", fw)
            bw = _pipeline(self.bw_text, recipe)
            self.assertEqual(bw.count('fp8.matmul = "dgrad"'), 3)
            self.assertEqual(bw.count('fp8.matmul = "wgrad"'), 3)


@unittest.skipUnless(torch, "needs PyTorch")
class RefusalTest(unittest.TestCase):
    def test_unsupported_op(self):
        class Sort(nn.Module):
            def forward(self, x):
                return torch.sort(x, -1)[0] * 2

        gm = torch.fx.symbolic_trace(Sort())
        with self.assertRaises(EmitError) as e:
            fx_emit.emit(gm, [torch.zeros(4, 8)])
        self.assertEqual(e.exception.node, "sort")
        self.assertIn("node 'sort' (call_function torch", str(e.exception))
        self.assertIn("not an op the emitter expresses", str(e.exception))

    def test_unsupported_module(self):
        gm = torch.fx.symbolic_trace(nn.Sequential(nn.Conv1d(4, 4, 3)))
        with self.assertRaises(EmitError) as e:
            fx_emit.emit(gm, [torch.zeros(2, 4, 8)])
        self.assertIn("Conv1d", str(e.exception))
        self.assertEqual(e.exception.op, "call_module")

    def test_dynamic_shape(self):
        gm = torch.fx.symbolic_trace(LlamaMlp(64, 128))
        with self.assertRaises(EmitError) as e:
            fx_emit.emit(gm, [((None, 64), torch.bfloat16)])
        self.assertEqual(e.exception.node, "x")
        self.assertIn("not static", str(e.exception))

    def test_dtype(self):
        class Double(nn.Module):
            def forward(self, x):
                return x.double() + 1

        gm = torch.fx.symbolic_trace(Double())
        with self.assertRaises(EmitError) as e:
            fx_emit.emit(gm, [torch.zeros(4, 8)])
        self.assertEqual(e.exception.node, "double")
        self.assertIn("torch.float64", str(e.exception))

    def test_source_line(self):
        # With stack traces recorded, the error shows the user's line.
        class Sort(nn.Module):
            def forward(self, x):
                return torch.sort(x, -1)[0]

        tracer = torch.fx.Tracer()
        tracer.record_stack_traces = True
        graph = tracer.trace(Sort())
        gm = torch.fx.GraphModule(tracer.root, graph)
        with self.assertRaises(EmitError) as e:
            fx_emit.emit(gm, [torch.zeros(4, 8)])
        self.assertIn("test_fx_emit.py", e.exception.source)
        self.assertIn("torch.sort(x, -1)", str(e.exception))


def _trace(forward):
    """symbolic_trace of a module whose forward is `forward` (its argument
    names become the placeholders')."""
    module = type("M", (nn.Module,), {"forward": forward})()
    return torch.fx.symbolic_trace(module)


def _reshape_to(shape):
    return lambda self, x: (x * 2).reshape(shape)


def _verify(test, text):
    """fp8-opt parses and verifies `text` (skipped without fp8-opt)."""
    if not FP8_OPT:
        return
    run = subprocess.run([FP8_OPT, "-"], input=text, capture_output=True,
                         text=True)
    test.assertEqual(run.returncode, 0, run.stderr + text)


@unittest.skipUnless(torch, "needs PyTorch")
class EdgeCaseTest(unittest.TestCase):
    """Graphs at the edges of what the emitter writes; each was once
    invalid MLIR or a stray Python exception."""

    X = ((4, 8), "bf16")

    def emit(self, forward, inputs=None):
        text = fx_emit.emit(_trace(forward), inputs or [self.X])
        _verify(self, text)
        return text

    def test_sum_to_scalar(self):
        # A full reduction is a rank-0 tensor, tensor<f32>.
        text = self.emit(lambda self, x: x.float().sum())
        self.assertIn("-> (tensor<f32>)", text)
        self.emit(lambda self, x: x * torch.tensor(2.0))

    def test_reduce_over_broadcast_dim(self):
        # No operand varies along the broadcast or unit dim, so it is no
        # loop of the reduction: the sum over it is a product.
        text = self.emit(lambda self, x: x.unsqueeze(0).expand(
            3, 4, 8).float().sum((0, 2)), [((4, 8), "f32")])
        self.assertEqual(text.count('"reduction"'), 1)
        self.assertIn("arith.constant 3.000000000e+00", text)
        self.emit(lambda self, x: x.unsqueeze(1).sum(1))

    def test_same_rank_view(self):
        # [2, 3] as [6, 1] and [3, 2]: neither a collapse nor an expand
        # (an empty reassociation group crashed fp8-opt).
        for shape in ((6, 1), (3, 2)):
            text = self.emit(_reshape_to(shape), [((2, 3), "bf16")])
            self.assertIn("tensor.collapse_shape", text)

    def test_argument_names_clash(self):
        # Arguments named as the emitter's own values (%x0 and %y in a
        # generic's body, %mm1 outside) get a suffix, not a redefinition.
        def forward(self, x0, y, mm1):
            return x0 * y + mm1
        text = self.emit(forward, [self.X] * 3)
        self.assertIn("%x0_: tensor<4x8xbf16>", text)
        self.assertIn("%y_: tensor<4x8xbf16>", text)
        self.assertIn("%mm1_: tensor<4x8xbf16>", text)

    def test_generic_without_inputs(self):
        # zeros_like reads no tensor: a generic with no ins clause.
        text = self.emit(lambda self, x: torch.zeros_like(x))
        self.assertNotIn("ins()", text)

    def test_nan_constant(self):
        text = self.emit(lambda self, x: x * float("nan"))
        self.assertIn("0x7FC00000", text)

    def test_keyword_dims(self):
        # permute(dims=) and transpose(input=, dim0=, dim1=) are as
        # positionals.
        a = self.emit(lambda self, x: x.permute(dims=[1, 0]) * 2)
        b = self.emit(lambda self, x: torch.transpose(input=x, dim0=0,
                                                      dim1=1) * 2)
        self.assertEqual(a, self.emit(lambda self, x: x.t() * 2))
        self.assertEqual(a, b)

    def test_explicit_widening_rounds(self):
        # torch rounds x * 3 to bf16 before .float(); so does the body.
        text = self.emit(lambda self, x: (x * 3).float() + 1)
        self.assertIn("arith.truncf %b2 : f32 to bf16", text)
        # A tensor that is bf16 already is not rounded again.
        self.assertNotIn("truncf", self.emit(
            lambda self, x: x.float() + 1))

    def test_operator_pow(self):
        # x ** 2 (operator.pow) is x.pow(2): one mulf.
        text = self.emit(lambda self, x: x ** 2)
        self.assertIn("arith.mulf %x0, %x0", text)


@unittest.skipUnless(torch, "needs PyTorch")
class RefusalEdgeTest(unittest.TestCase):
    """Inputs the emitter cannot express: EmitError naming the node, never
    another exception and never wrong MLIR."""

    def refuse(self, forward, node, reason, inputs=(((4, 8), "bf16"),)):
        with self.assertRaises(EmitError) as e:
            fx_emit.emit(_trace(forward), list(inputs))
        self.assertEqual(e.exception.node, node)
        self.assertIn(reason, str(e.exception))

    def test_indexing(self):
        self.refuse(lambda self, x: x[0] * 2, "getitem", "indexing")
        self.refuse(lambda self, x: x[:, :4], "getitem", "slicing")

    def test_rounding_division(self):
        # Floor division is no true division: refused, not written as one.
        self.refuse(lambda self, x: torch.div(x, 3, rounding_mode="floor"),
                    "div", "rounding_mode='floor'")

    def test_tensor_exponent(self):
        self.refuse(lambda self, x: x ** x, "pow_1",
                    "exponent <tensor [4, 8] bf16>")

    def test_no_tensor_returned(self):
        self.refuse(lambda self, x: None, "output", "returns no tensor")

    def test_bad_arguments_name_the_node(self):
        # A handler that meets arguments it does not expect still names
        # the node (here matmul's operand as a keyword).
        self.refuse(lambda self, x: torch.matmul(x, other=x.t()), "matmul",
                    "cannot express its arguments")


if __name__ == "__main__":
    unittest.main()
