"""The compiled matmul as a torch.library custom op (`kernel.op`).

- torch.compile(fullgraph=True) of an nn.Module that calls it (with torch ops around it) traces
  it without a graph break, keeps it in the graph, and matches eager and a float32 reference,
  also with dynamic shapes;
- torch.library.opcheck passes (schema, fake tensors, AOT dispatch with dynamic shapes);
- a CUDA graph captured around the module replays to the eager result on new inputs;
- outputs come from PyTorch's caching allocator and the launch goes on the current stream.

The kernel is the precompiled artifact (scripts/build_gpu_artifacts.sh): kiln.compile itself,
which needs the compiler, is tested where the compiler is (test/install).
"""
import pytest
import torch


def rel_err(out, ref):
    return ((out.float() - ref).norm() / ref.norm().clamp_min(1e-30)).item()


class Mlp(torch.nn.Module):
    """relu(x @ w1^T) @ w2^T + x: two Kiln matmuls with torch ops between and after."""

    def __init__(self, op, d, h):
        super().__init__()
        self.op = op
        self.w1 = torch.nn.Parameter(torch.randn(h, d, device="cuda", dtype=torch.bfloat16) / d**0.5,
                                     requires_grad=False)
        self.w2 = torch.nn.Parameter(torch.randn(d, h, device="cuda", dtype=torch.bfloat16) / h**0.5,
                                     requires_grad=False)

    def forward(self, x):
        return self.op(torch.relu(self.op(x, self.w1)), self.w2) + x

    def reference(self, x):
        hid = torch.relu(x.float() @ self.w1.float().T).to(torch.bfloat16)
        return hid.float() @ self.w2.float().T + x.float()


@pytest.fixture(scope="module")
def op(load):
    return load("matmul").op


def test_op_is_registered_and_matches_the_kernel(op, load):
    k = load("matmul")
    assert op is k.op
    assert op._qualified_op_name.startswith("kiln::matmul_"), op._qualified_op_name
    a = torch.randn(300, 128, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(200, 128, device="cuda", dtype=torch.bfloat16)
    out = op(a, b)
    assert out.shape == (300, 200) and out.dtype == torch.bfloat16
    assert torch.equal(out, k(a, b))
    assert rel_err(out, a.float() @ b.float().T) < 1e-2


def test_torch_compile_fullgraph_matches_eager(op):
    torch.manual_seed(0)
    torch._dynamo.reset()
    model = Mlp(op, 256, 512)
    x = torch.randn(384, 256, device="cuda", dtype=torch.bfloat16)
    with torch.no_grad():
        eager = model(x)
        graphs = []

        def recording_backend(gm, example_inputs):
            graphs.append(gm)
            return gm.forward

        traced = torch.compile(model, backend=recording_backend, fullgraph=True)(x)
        torch._dynamo.reset()
        compiled = torch.compile(model, fullgraph=True)  # inductor
        out = compiled(x)
        explain = torch._dynamo.explain(model)(x)
    assert explain.graph_break_count == 0, explain.break_reasons
    assert len(graphs) == 1
    kiln_nodes = [n for n in graphs[0].graph.nodes if "kiln" in str(n.target)]
    assert len(kiln_nodes) == 2, [str(n.target) for n in graphs[0].graph.nodes]
    assert torch.equal(traced, eager)
    assert torch.equal(out, eager), (out - eager).abs().max()
    assert rel_err(out, model.reference(x)) < 2e-2


def test_torch_compile_dynamic_shapes(op):
    torch._dynamo.reset()
    model = Mlp(op, 256, 512)
    compiled = torch.compile(model, fullgraph=True, dynamic=True)
    with torch.no_grad():
        for m in (128, 200, 1000):
            x = torch.randn(m, 256, device="cuda", dtype=torch.bfloat16)
            out = compiled(x)
            assert out.shape == (m, 256)
            assert torch.equal(out, model(x))


@pytest.mark.parametrize("m,n,k", [(256, 256, 64), (129, 257, 72), (1, 8, 8)])
def test_opcheck(op, m, n, k):
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    torch.library.opcheck(op, (a, b))


def test_fake_tensor_shapes_and_errors(op):
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        a = torch.empty(300, 128, device="cuda", dtype=torch.bfloat16)
        b = torch.empty(200, 128, device="cuda", dtype=torch.bfloat16)
        c = op(a, b)
        assert c.shape == (300, 200) and c.dtype == torch.bfloat16 and c.device.type == "cuda"
        with pytest.raises(Exception, match="param 'b' axis 1"):
            op(a, torch.empty(200, 64, device="cuda", dtype=torch.bfloat16))
        with pytest.raises(Exception, match="param 'a': dtype torch.float16"):
            op(a.half(), b)


def test_cuda_graph_replay_matches_eager(op):
    torch.manual_seed(1)
    model = Mlp(op, 256, 512)
    static_x = torch.randn(512, 256, device="cuda", dtype=torch.bfloat16)
    with torch.no_grad():
        # Warm up on a side stream (loads the cubin into the context before capture).
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(2):
                model(static_x)
        torch.cuda.current_stream().wait_stream(s)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            static_y = model(static_x)
        for seed in range(3):
            torch.manual_seed(100 + seed)
            static_x.copy_(torch.randn_like(static_x))
            graph.replay()
            torch.cuda.synchronize()
            eager = model(static_x)
            assert torch.equal(static_y, eager), (static_y - eager).abs().max()


def test_cuda_graph_of_compiled_module(op):
    torch._dynamo.reset()
    model = Mlp(op, 256, 512)
    compiled = torch.compile(model, fullgraph=True)
    static_x = torch.randn(256, 256, device="cuda", dtype=torch.bfloat16)
    with torch.no_grad():
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(2):
                compiled(static_x)
        torch.cuda.current_stream().wait_stream(s)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            static_y = compiled(static_x)
        static_x.copy_(torch.randn_like(static_x))
        graph.replay()
        torch.cuda.synchronize()
        assert torch.equal(static_y, model(static_x))


def test_outputs_from_the_caching_allocator_on_the_current_stream(op):
    a = torch.randn(2048, 1024, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(2048, 1024, device="cuda", dtype=torch.bfloat16)
    torch.cuda.synchronize()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    before = torch.cuda.memory_allocated()
    with torch.cuda.stream(side):
        torch.cuda._sleep(50_000_000)  # a launch on another stream would race the clone below
        c = op(a, b)
        # Stream order: the op's launch precedes this on `side`, so the copy sees its result.
        ref = c.clone()
    assert torch.cuda.memory_allocated() - before >= c.numel() * c.element_size()
    side.synchronize()
    assert torch.equal(ref, c)
    assert rel_err(c, a.float() @ b.float().T) < 1e-2


def test_kernel_op_attribute_inside_compiled_forward(load):
    """`kernel.op` looked up inside forward (as the README's model could) traces too."""
    k = load("matmul")
    k.op  # registered before tracing

    class Proj(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.randn(128, 64, device="cuda", dtype=torch.bfloat16)

        def forward(self, x):
            return k.op(x, self.w) * 2

    torch._dynamo.reset()
    m = Proj()
    x = torch.randn(96, 64, device="cuda", dtype=torch.bfloat16)
    with torch.no_grad():
        assert torch.equal(torch.compile(m, fullgraph=True)(x), m(x))
